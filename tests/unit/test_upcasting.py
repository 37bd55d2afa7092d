"""Upcasters are keyed by whose event they read: the lobby's, shared by every game's log, or one game's
(two games name an event type alike and shape it each their own way)."""

from __future__ import annotations

from typing import Any

import pytest

from kaiten.domain.catalog import GAMES
from kaiten.services import upcasting
from kaiten.services.upcasting import UnknownSchemaVersion, current_version, upcast


def test_games_do_share_event_type_names() -> None:
    """What makes keying by the bare type wrong: the premise of the test below."""
    names = {game_id: {event_type.__name__ for event_type in game.event_types} for game_id, game in GAMES.items()}
    assert {"CardsRevealed", "RoundScored"} <= names["sushi-go"] & names["sushi-go-party"]


def test_a_step_for_one_games_event_leaves_another_games_event_of_the_same_name_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def with_field(data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "added": True}

    # Suppose Sushi Go!'s CardsRevealed gains a field, and Party's does not.
    monkeypatch.setitem(upcasting.STEPS, ("sushi-go", "CardsRevealed", 1), with_field)
    monkeypatch.setitem(upcasting.CURRENT, ("sushi-go", "CardsRevealed"), 2)
    assert current_version("sushi-go", "CardsRevealed") == 2
    assert upcast("sushi-go", "CardsRevealed", 1, {"picks": []}) == {"picks": [], "added": True}
    assert current_version("sushi-go-party", "CardsRevealed") == 1
    assert upcast("sushi-go-party", "CardsRevealed", 1, {"picks": []}) == {"picks": []}
    with pytest.raises(UnknownSchemaVersion):
        upcast("sushi-go-party", "CardsRevealed", 2, {"picks": []})


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_lobbys_steps_serve_every_games_log(game_id: str) -> None:
    assert current_version(game_id, "GameCreated") == 3
    old = {"game": game_id, "players": 2, "options": {}, "seed_hash": "ab", "seed": 1}
    assert upcast(game_id, "GameCreated", 1, old)["rules_version"] == 1
