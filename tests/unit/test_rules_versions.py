"""Rules versions: GameCreated records one, a log without it is version 1, and a table plays and replays
under the version it was created with, whichever version of the game the caller holds."""

from __future__ import annotations

import uuid

import msgspec
import pytest

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.domain import lobby
from kaiten.domain.catalog import GAMES
from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby.game import DIM_SUM_DERBY
from kaiten.domain.engine import RuleViolation
from kaiten.domain.sushi_go.game import SUSHI_GO
from kaiten.services.codec import codec_for
from kaiten.services.commands import NewSeat, ReplayGame, TakeSeat
from kaiten.services.games import Games
from kaiten.services.loading import load_game
from kaiten.services.ports import NewEvent
from kaiten.services.upcasting import current_version, upcast
from tests.bots import bots_move


def test_new_games_get_the_newest_rules_version() -> None:
    for game in GAMES.values():
        assert game.rules_version == game.rules_versions[-1].version
        assert [entry.version for entry in game.rules_versions] == list(range(1, game.rules_version + 1))
        (created,) = lobby.create_game(game, game.min_players, None, 1, salt=bytes(16))
        assert created.rules_version == game.rules_version
        assert lobby.replay(game, [created]).rules_version == game.rules_version


def test_a_game_under_another_version_is_built_once_and_unknown_versions_are_refused() -> None:
    v1 = SUSHI_GO.at_rules_version(1)
    assert v1 is SUSHI_GO.at_rules_version(1) and v1.at_rules_version(2) is not v1
    assert SUSHI_GO.at_rules_version(SUSHI_GO.rules_version) is SUSHI_GO
    with pytest.raises(RuleViolation) as raised:
        SUSHI_GO.at_rules_version(9)
    assert raised.value.code == "unknown-rules-version"


@pytest.mark.parametrize(
    ("schema_version", "data"),
    [
        (1, {"game": "sushi-go", "players": 2, "options": {}, "seed_hash": "ab", "seed": 1}),
        (2, {"game": "sushi-go", "players": 2, "options": {}, "seed_commitment": "ab", "seed": 1, "salt": ""}),
    ],
)
def test_a_game_created_before_rules_versions_is_version_1(schema_version: int, data: dict[str, object]) -> None:
    assert current_version("sushi-go", "GameCreated") == 3
    assert upcast("sushi-go", "GameCreated", schema_version, data)["rules_version"] == 1
    event = codec_for("sushi-go").decode_event(
        "GameCreated", schema_version, msgspec.json.encode({"type": "GameCreated", **data})
    )
    assert isinstance(event, lobby.GameCreated) and event.rules_version == 1


def test_a_version_1_log_replays_under_version_1_with_the_newest_game_in_hand() -> None:
    v1 = DIM_SUM_DERBY.at_rules_version(1)
    log = lobby.create_game(v1, 3, None, 5, salt=bytes(16))
    table = lobby.replay(DIM_SUM_DERBY, log)
    for bot in ("random", "greedy", "random"):
        decision = lobby.take_seat(DIM_SUM_DERBY, table, Chance(5, len(log)), bot=bot)
        log.extend(decision.events)
        table = decision.table
    assert table.rules_version == 1 and lobby.rules_of(DIM_SUM_DERBY, table) is v1
    # Version 1 parks the Kitchen cart after the last seat; version 2 between the first and the second.
    assert [cart.seat for cart in v1.view(table.state, None).carts] == [0, 1, 2, None]
    finished = lobby.run_bots(DIM_SUM_DERBY, table, len(log))
    log.extend(finished.events)
    assert finished.table.status == "finished"
    assert lobby.replay(DIM_SUM_DERBY, log) == lobby.replay(v1, log) == finished.table


async def test_a_game_whose_log_has_no_rules_version_plays_on_as_version_1() -> None:
    """A game created by an earlier kaiten (GameCreated of schema version 2, no rules version) and
    still open: seats taken after the upgrade start it under version 1, and it plays to the end so."""
    store = InMemoryEventStore()
    games = Games(store, SystemClock(), SecureIds(), people=InMemoryPeople())
    game_id = str(uuid.uuid4())
    written = {"game": "dim-sum-derby", "players": 3, "options": {}, "seed_commitment": "0" * 64}
    created = {"type": "GameCreated", **written, "seed": 11, "salt": "00"}
    await store.append(game_id, 0, [NewEvent("GameCreated", msgspec.json.encode(created), {}, schema_version=2)])
    for bot in ("greedy", "random", "greedy"):
        await games.take_seat(TakeSeat(game_id, NewSeat(bot=bot)))
    await bots_move(games, game_id)
    loaded = await load_game(store, game_id)
    assert loaded.table.status == "finished" and loaded.table.rules_version == 1
    assert loaded.game is DIM_SUM_DERBY.at_rules_version(1)
    assert loaded.events[0].rules_version == 1
    view = await games.replay(ReplayGame(game_id, 6))  # just dealt
    assert view.view is not None and [cart.seat for cart in view.view.carts] == [0, 1, 2, None]
