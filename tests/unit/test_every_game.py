"""Properties every game of the catalog must have, whatever its rules: bot games end, replay equals the
live table, totals are the sums of their breakdowns, legal commands are accepted, events round-trip
through JSON, and catalog, views and redacted events encode. And every game plays the roles of the one
Decider contract (`domain.engine`): `decide` and `follow` never change their input, the caller's one
fold of their events reaches the table's state and leaves nothing to follow, and a view shows a seat
nothing of what it may not see."""

from __future__ import annotations

import importlib
import os
import random
from pathlib import Path
from typing import Any, Union

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaiten.domain import lobby
from kaiten.domain.catalog import GAMES, package_of
from kaiten.domain.chance import Chance
from kaiten.domain.engine import Game, reads_view
from kaiten.domain.mcts import MctsBot
from kaiten.services.logs import MAX_EVENT_DATA_BYTES

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
    (CONTRIBUTING.md says what each holds), and a `rules_v<N>` module for each rules version whose
    `evolve` differs: a reader finds the same thing in the same place."""
    for game in GAMES.values():
        package = Path(importlib.import_module(package_of(game)).__path__[0])
        layout = {path.stem for path in package.glob("*.py")}
        versions = {f"rules_v{entry.version}" for entry in game.rules_versions}
        assert layout - versions == {"__init__", *MODULES}, (game.id, layout)
        assert layout & versions in (set(), versions), (game.id, "every version in its own module, or none")


def bot_decisions(game: Game, players: int, seed: int) -> Any:
    """Each decision of a game of random bots: the table, the log's length and the seat's command."""
    log: list[Any] = lobby.create_game(game, players, None, seed, salt=bytes(16))
    table = lobby.replay(game, log)
    for _ in range(players):
        decision = lobby.take_seat(game, table, Chance(seed, len(log)), bot="random")
        log.extend(decision.events)
        table = decision.table
    bot_chance = Chance.from_rng(random.Random(seed))
    for _ in range(MAX_DECISIONS):
        seat = lobby.next_bot_seat(game, table)
        if table.status != "active" or seat is None:
            return
        command = lobby.bot_command(game, table, seat, bot_chance)
        yield table, len(log), seat, command
        decision = lobby.act(game, table, seat, command, Chance(seed, len(log)))
        log.extend(decision.events)
        table = decision.table


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(max_examples=4)
@given(data=st.data())
def test_decide_changes_nothing_and_one_fold_of_what_it_wrote_reaches_the_table(game_id: str, data: Any) -> None:
    """For each decision of a seeded game: `decide` and `follow` leave the state they read as it was
    (its bytes), the table records `decide`'s events first and then `follow`'s, folding them once from
    the state `decide` read gives the table's new state, and nothing is left to follow there."""
    game = GAMES[game_id]
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    decisions = 0
    for table, version, seat, command in bot_decisions(game, players, seed):
        rules = lobby.rules_of(game, table)
        state = table.state
        before = msgspec.json.encode(state)
        decided = list(rules.decide(state, seat, command, Chance(seed, version)))
        rules.follow(state, Chance(seed, version))
        assert msgspec.json.encode(state) == before, "decide or follow changed the state it read"
        moved = lobby.act(game, table, seat, command, Chance(seed, version))
        written = [event for event in moved.events if not isinstance(event, lobby.LOBBY_EVENTS)]
        assert decided and written[: len(decided)] == decided
        reached = state
        for event in written:
            reached = rules.evolve(reached, event)
        assert reached == moved.table.state
        assert not rules.follow(reached, Chance(seed, version)), "the caller stopped before the rules did"
        decisions += 1
    assert decisions > 0


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(max_examples=4)
@given(data=st.data())
def test_a_seat_sees_nothing_of_another_seats_hidden_cards(game_id: str, data: Any) -> None:
    """Two states that differ in what a seat may not see show it the same view: the true state, and one
    the game's own sampler deals again from that seat's view (other seats' hands, the decks, the piles
    below the top). A view that showed one of those cards would differ between the two. And what
    another seat chose in secret (a pick before the reveal) changes neither the seat's view nor the
    events it is shown."""
    game = GAMES[game_id]
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    bot = game.bots["mcts"]()
    assert isinstance(bot, MctsBot)
    sampler = bot.search.determinizer
    dealt_again = secret_choices = 0
    for index, (table, version, seat, _) in enumerate(bot_decisions(game, players, seed)):
        state = table.state
        awaited = lobby.awaiting(game, table)
        # A sampler hands a secret pick still pending back to its seat, for the search to play it again
        # (the view says who still has to pick): the round trip holds where no seat has picked in secret.
        for viewer in range(players) if game_id not in SIMULTANEOUS or len(awaited) == players else ():
            view = game.view(state, viewer)
            sampled = sampler.sample(view, Chance(seed, version, "sample", viewer))
            assert game.view(sampled, viewer) == view, (viewer, index)
            dealt_again += sampled != state
        for other in awaited:
            if other == seat:
                continue
            choices = list(game.legal_commands(state, other))[:2]
            if len(choices) < 2:
                continue
            shown = []
            for choice in choices:
                moved = lobby.act(game, table, other, choice, Chance(seed, version))
                if seat not in lobby.awaiting(game, moved.table):
                    break
                redacted = [lobby.redact(game, moved.table, event, seat) for event in moved.events]
                shown.append((game.view(moved.table.state, seat), redacted))
            else:
                assert shown[0] == shown[1], (seat, other, choices)
                secret_choices += 1
    assert dealt_again > 0, "no state with cards hidden from a seat was reached"
    assert secret_choices > 0 or game_id not in SIMULTANEOUS


#: The games whose seats choose at the same time, each in secret until the reveal.
SIMULTANEOUS = ("sushi-go", "sushi-go-party")


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


def bots_md_costs() -> dict[tuple[str, str], dict[int, float]]:
    """BOTS.md's table "What a decision costs": (game, bot) -> players -> CPU ms, as written."""
    text = (Path(__file__).resolve().parents[2] / "BOTS.md").read_text()
    table = text.split("## What a decision costs", 1)[1].split("\n\n")[2]
    header, _, *rows = table.splitlines()
    counts = [int(cell) for cell in header.strip("| ").split(" | ")[3:]]
    written = {}
    for row in rows:
        game_id, bot, unit, *cells = (cell.strip() for cell in row.strip("|").split("|"))
        scale = {"ms": 1.0, "µs": 0.001}[unit]
        written[game_id, bot.strip("`")] = {
            n: float(cell) * scale for n, cell in zip(counts, cells, strict=True) if cell
        }
    return written


def test_bots_md_states_the_catalogs_costs() -> None:
    """BOTS.md's table of what a decision costs is the catalog's data, every game, bot and player count,
    to the precision written (whole ms for a search, three digits of µs for the others)."""
    written = bots_md_costs()
    assert set(written) == {(game_id, bot) for game_id, game in GAMES.items() for bot in game.bots}
    for (game_id, bot), by_players in written.items():
        catalog = GAMES[game_id].bot_costs[bot]
        assert set(by_players) == set(catalog), (game_id, bot)
        for players, ms in by_players.items():
            assert ms == pytest.approx(catalog[players], rel=0.005, abs=0.5 if bot.startswith("mcts") else 0), (
                game_id,
                bot,
                players,
            )
