"""Properties every game of the catalog must have, whatever its rules: bot games end, replay equals the
live table, totals are the sums of their breakdowns, legal commands are accepted, events round-trip
through JSON, and catalog, views and redacted events encode."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any, Union

import msgspec
import pytest

from domain import lobby
from domain.catalog import GAMES
from domain.chance import Chance
from domain.engine import Game, reads_view
from services.logs import MAX_EVENT_DATA_BYTES

SEEDS = range(3 if os.environ.get("CI") else 6)
#: A generous bound on decisions per game (a game that runs past it does not terminate).
MAX_DECISIONS = 5_000
#: Legal commands tried per decision (all of them when there are fewer).
TRIED_COMMANDS = 8

CASES = [
    (game_id, players, seed)
    for game_id, game in sorted(GAMES.items())
    for players in sorted({game.min_players, game.max_players})
    for seed in SEEDS
]


def event_decoder(game: Game) -> msgspec.json.Decoder[Any]:
    union: Any = Union[(*lobby.LOBBY_EVENTS, *game.event_types)]
    return msgspec.json.Decoder(union)


def play(game: Game, players: int, seed: int) -> tuple[lobby.Table, list[Any], list[lobby.Table]]:
    """A whole game of random bots (or the game's first bot), checking each step on the way."""
    bot = "random" if "random" in game.bots else next(iter(game.bots))
    log: list[Any] = lobby.create_game(game, players, None, seed, salt=bytes(16))
    table = lobby.replay(game, log)
    for _ in range(players):
        decision = lobby.take_seat(game, table, Chance(seed, len(log)), bot=bot)
        log.extend(decision.events)
        table = decision.table
    bot_chance = Chance.from_rng(random.Random(seed))
    rng = random.Random(seed)
    tables = [table]
    for _ in range(MAX_DECISIONS):
        if table.status != "active":
            break
        seat = lobby.next_bot_seat(game, table)
        assert seat is not None, "an active game with only bots must await one of them"
        for other in range(players):
            if other not in lobby.awaiting(game, table):
                assert list(game.legal_commands(table.state, other)) == []
        legal = list(game.legal_commands(table.state, seat))
        assert legal, "an awaited seat must have a legal command"
        for command in rng.sample(legal, min(TRIED_COMMANDS, len(legal))):
            lobby.act(game, table, seat, command, Chance(seed, len(log)))
        command = lobby.bot_command(game, table, seat, bot_chance)
        decision = lobby.act(game, table, seat, command, Chance(seed, len(log)))
        log.extend(decision.events)
        table = decision.table
        tables.append(table)
    assert table.status == "finished", f"no end after {MAX_DECISIONS} decisions"
    return table, log, tables


@pytest.mark.parametrize(("game_id", "players", "seed"), CASES)
def test_bot_games_end_replay_and_encode(game_id: str, players: int, seed: int) -> None:
    game = GAMES[game_id]
    table, log, tables = play(game, players, seed)

    assert lobby.replay(game, log) == table
    result = table.result
    assert result is not None and len(result.scores) == players
    for score in result.scores:
        assert score.total == sum(score.breakdown.values())
    assert set(result.winners) <= set(range(players)) and sorted(result.ranking) == list(range(players))

    decode = event_decoder(game).decode
    for event in log:
        assert decode(msgspec.json.encode(event)) == event
    # The bounds an imported log is held to: anything kaiten exports, it imports (services/logs.py).
    assert len(log) <= lobby.LONGEST_GAME_EVENTS
    assert max(len(msgspec.json.encode(event)) for event in log) <= MAX_EVENT_DATA_BYTES

    assert isinstance(game.catalog(), game.details_type)
    for live in tables[:: max(1, len(tables) // 10)]:
        for viewer in (*range(players), None):
            msgspec.json.encode(game.view(live.state, viewer))
    running = tables[-2] if len(tables) > 1 else table
    for event in log:
        for viewer in (*range(players), None):
            msgspec.json.encode(lobby.redact(game, running, event, viewer))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_bot_that_reads_no_view_is_handed_none_and_the_others_their_view(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = GAMES[game_id]
    players = game.min_players
    log: list[Any] = lobby.create_game(game, players, None, 1, salt=bytes(16))
    table = lobby.replay(game, log)
    for _ in range(players):
        table = lobby.take_seat(game, table, Chance(1, len(log)), bot="random").table
    seat = lobby.next_bot_seat(game, table)
    assert seat is not None and not reads_view(game.bots["random"]())
    views: list[Any] = []
    chosen: list[Any] = []

    class Recording:
        def choose(self, view: Any, commands: Any, chance: Chance) -> Any:
            views.append(view)
            chosen.append(commands[0])
            return commands[0]

    class Blind(Recording):
        reads_view = False

    monkeypatch.setitem(game.bots, "random", Blind)
    assert lobby.bot_command(game, table, seat, Chance(1)) == chosen[-1] and views == [None]
    monkeypatch.setitem(game.bots, "random", Recording)
    lobby.bot_command(game, table, seat, Chance(1))
    assert views[-1] == game.view(table.state, seat)


def test_every_game_package_has_the_same_modules_in_the_same_roles() -> None:
    """cards, options, state, events, commands, evolve, decide, legal, view, scoring, bots, sampler, catalog and game
    (CONTRIBUTING.md says what each holds): a reader finds the same thing in the same place."""
    root = Path(__file__).resolve().parents[2] / "domain"
    layouts = {
        game.id: sorted(path.stem for path in (root / game.view_type.__module__.split(".")[1]).glob("*.py"))
        for game in GAMES.values()
    }
    expected = sorted(["__init__", *MODULES])
    assert all(layout == expected for layout in layouts.values()), layouts


MODULES = (
    "cards",
    "options",
    "state",
    "events",
    "commands",
    "evolve",
    "decide",
    "legal",
    "view",
    "scoring",
    "bots",
    "sampler",
    "catalog",
    "game",
)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_bot_states_what_a_decision_costs_at_every_player_count(game_id: str) -> None:
    """The catalog's figures (CPU ms a decision on the reference machine, as measured) are the game's
    data: every bot has one at every player count the game takes, and a bigger search costs more."""
    game = GAMES[game_id]
    assert set(game.bot_costs) == set(game.bots)
    counts = range(game.min_players, game.max_players + 1)
    for costs in game.bot_costs.values():
        assert set(costs) == set(counts)
        assert all(ms > 0 for ms in costs.values())
    for players in counts:
        costs = {bot: game.bot_costs[bot][players] for bot in game.bots}
        assert costs["random"] < costs["greedy"] < costs["mcts"] < costs["mcts:strong"]
