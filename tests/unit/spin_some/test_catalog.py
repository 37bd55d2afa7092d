"""The catalog: cards, the 15 special plates and their four dishes, house-content flags."""

from __future__ import annotations

from typing import Union

import msgspec

from kaiten.domain.spin_some.events import BasketsFilled, DimSumTaken, TableRotated
from kaiten.domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM as GAME


def test_catalog_lists_105_cards_and_15_plates() -> None:
    catalog = msgspec.to_builtins(GAME.catalog())
    msgspec.json.encode(catalog)
    cards = catalog["cards"]
    assert sum(c["count"] for c in cards) == 105
    assert all({"slug", "name", "count", "scoring"} <= set(c) for c in cards)
    plates = catalog["special_plates"]
    assert len(plates) == 15
    assert len({tuple(p["dishes"]) for p in plates}) == 15
    for plate in plates:
        assert len(set(plate["dishes"])) == 4
        assert plate["slug"] == "special-plate-" + "-".join(plate["dishes"])
    for dish in ("sesame", "turnip", "tart", "shumai", "shrimp", "chive", "bun"):
        assert 8 <= sum(dish in p["dishes"] for p in plates) <= 9
    assert catalog["house_content"]["composition"] is True
    assert catalog["house_content"]["special_plates"] is True
    sesame = next(d for d in catalog["dishes"] if d["dish"] == "sesame")
    assert sesame["cards"] == ["small-sesame-ball", "large-sesame-ball"]


def test_catalog_card_ids_cover_the_deck() -> None:
    ids = [i for c in msgspec.to_builtins(GAME.catalog())["cards"] for i in range(c["ids"][0], c["ids"][1] + 1)]
    assert ids == list(range(105))


def test_game_identity() -> None:
    assert GAME.id == "spin-some-for-dim-sum"
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    assert set(GAME.bots) == {"random", "greedy", "mcts", "mcts:strong"}
    assert msgspec.to_builtins(GAME.options_type()) == {"first_player": 0}


def test_commands_decode_from_json() -> None:
    decoder = msgspec.json.Decoder(GAME.command_type)
    assert msgspec.json.encode(decoder.decode(b'{"type": "rotate", "steps": -2}')) == b'{"type":"rotate","steps":-2}'
    assert type(decoder.decode(b'{"type": "take"}')).__name__ == "Take"
    assert type(decoder.decode(b'{"type": "return-bun", "steps": 3}')).__name__ == "ReturnBun"


def test_events_round_trip_through_json() -> None:
    from tests.unit.spin_some.helpers import play

    _, events = play(4, ["random", "greedy", "random"])
    decoder = msgspec.json.Decoder(Union[GAME.event_types])  # type: ignore[valid-type]  # noqa: UP007
    game_events = [event for event in events if type(event) in GAME.event_types]
    assert {type(event) for event in game_events} >= {BasketsFilled, DimSumTaken, TableRotated}
    for event in game_events:
        assert decoder.decode(msgspec.json.encode(event)) == event
