"""Tournaments: many bot games with the seats rotating, each bot's win rate with a confidence interval.

`--bots` names the bots seat by seat (cycled when shorter than the player count); game g shifts that
line-up by g seats, so over any multiple of `players` games every bot plays every position equally.
Games are independent (game g is played from the g-th seed drawn from the run's seed, as `simulate`
does), so they may run in parallel processes and the results do not depend on how many: only the
thinking times do.

Thinking time is the CPU time of the deciding process (`time.process_time`), not the wall clock: on a
machine shared with other work the wall clock would measure that work too.

Bots from outside the catalog (another library's search, as a peer to measure kaiten's bots against)
come from a `BotRegistry` the caller hands in; a game's own bots keep their names.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import msgspec

from kaiten.domain.catalog import get_game
from kaiten.domain.chance import Chance
from kaiten.domain.engine import AnyGame, RuleViolation, victory_shares
from kaiten.domain.lobby import Table, bot_choice, bot_command, rules_of
from kaiten.services.ports import BotRegistry
from kaiten.services.simulation import check_bots, game_seeds, play_game
from kaiten.services.standings import GameRecord, Standing, standings


class TournamentReport(msgspec.Struct, frozen=True):
    game: str
    players: int
    games: int
    bots: tuple[Standing, ...]


def line_up(bots: Sequence[str], players: int, game_index: int) -> tuple[str, ...]:
    """The bot of each seat in game `game_index`: `bots` cycled over the seats, shifted by the index."""
    seats = [bots[seat % len(bots)] for seat in range(players)]
    shift = game_index % players
    return tuple(seats[shift:] + seats[:shift])


class _Stopwatch:
    """Answers bot commands like `bot_command` (a peer's bot where the game has none of that name) and
    adds up each seat's decisions and their time."""

    def __init__(self, seat_bots: tuple[str, ...], clock: Callable[[], float], peers: BotRegistry | None) -> None:
        self.seat_bots = seat_bots
        self.clock = clock
        self.peers = peers
        self.decisions = [0] * len(seat_bots)
        self.seconds = [0.0] * len(seat_bots)

    def ask(self, game: AnyGame, table: Table[Any], seat: int, chance: Chance) -> Any:
        started = self.clock()
        name = self.seat_bots[seat]
        peer = None if self.peers is None or name in game.bots else self.peers.bot(rules_of(game, table), name)
        if peer is None:
            command = bot_command(game, table, seat, chance)
        else:
            command = bot_choice(game, table, seat, chance, peer)
        self.seconds[seat] += self.clock() - started
        self.decisions[seat] += 1
        return command


def play_match(
    game_id: str,
    seat_bots: tuple[str, ...],
    game_seed: int,
    clock: Callable[[], float],
    peers: BotRegistry | None = None,
) -> GameRecord:
    """One game of the tournament (a top-level function, so that worker processes can run it)."""
    game = get_game(game_id)
    stopwatch = _Stopwatch(seat_bots, clock, peers)
    # The lobby seats only the game's own bots: one of them holds a peer's seat in the table's log, and
    # the stopwatch asks the peer in its place.
    stand_in = min(game.bots)
    seated = [bot if bot in game.bots else stand_in for bot in seat_bots]
    table, _ = play_game(game, seated, game_seed, ask=stopwatch.ask)
    result = table.result
    assert result is not None
    scores = [0] * len(seat_bots)
    for score in result.scores:
        scores[score.seat] = score.total
    return GameRecord(
        bots=seat_bots,
        scores=tuple(scores),
        shares=victory_shares(result),
        decisions=tuple(stopwatch.decisions),
        seconds=tuple(stopwatch.seconds),
    )


def _records(
    game_id: str,
    lineups: list[tuple[str, ...]],
    seeds: list[int],
    jobs: int,
    clock: Callable[[], float],
    peers: BotRegistry | None,
) -> Iterator[GameRecord]:
    """Every game's record, in game order, played in `jobs` processes (in this one when 1)."""
    if jobs <= 1:
        for lineup, game_seed in zip(lineups, seeds, strict=True):
            yield play_match(game_id, lineup, game_seed, clock, peers)
        return
    games = len(seeds)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(
            play_match, [game_id] * games, lineups, seeds, [clock] * games, [peers] * games, chunksize=1
        )


def run_tournament(
    game_id: str,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    clock: Callable[[], float] = time.process_time,
    peers: BotRegistry | None = None,
) -> TournamentReport:
    """Play `games` games and rank the bots. `progress(done)` is called after each game, in order.
    `peers` offers bots beyond the game's own (it travels to the worker processes: keep it picklable).

    Raises RuleViolation for an unknown game or bot or a bad player count (before any game is played),
    SimulationError when a game cannot finish.
    """
    game = get_game(game_id)
    check_bots(game, bots, peers)
    if not game.min_players <= players <= game.max_players:
        raise RuleViolation(
            "invalid-player-count",
            f"{game.name} takes {game.min_players} to {game.max_players} players, not {players}",
        )
    lineups = [line_up(bots, players, index) for index in range(games)]
    records: list[GameRecord] = []
    for record in _records(game_id, lineups, list(game_seeds(seed, games)), jobs, clock, peers):
        records.append(record)
        if progress is not None:
            progress(len(records))
    return TournamentReport(game=game_id, players=players, games=games, bots=standings(records, bots))
