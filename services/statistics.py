"""The statistics and ratings of finished games, as pure folds: what each game adds to the sums
and to each player's record. The "statistics" projection (adapters/projections/statistics.py) reads
the finished games and writes these folds' results to its tables.

Player statistics are kept per player_id: a seat without one (anonymous or a bot) counts in the game
statistics but in no player's. A player holding several seats of one game counts it once, with their
best seat (best place, best total; a win if any of them won).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.engine import AnyGame, Result
from domain.lobby import GameFinished, SeatTaken
from services import ratings


class FinishedGame(msgspec.Struct, frozen=True):
    game: str
    result: Result
    #: The player_id of each seat that has one.
    player_ids: dict[int, str]
    #: Cards picked over the game, by slug.
    picks: dict[str, int]


class PlayerResult(msgspec.Struct, frozen=True):
    place: int
    total: int
    won: bool


def places(result: Result) -> dict[int, int]:
    """Each seat's place for the ratings: 1 for the winners, then by total (equal totals share)."""
    keys = {score.seat: (score.seat not in result.winners, -score.total) for score in result.scores}
    ordered = sorted(set(keys.values()))
    return {seat: ordered.index(key) + 1 for seat, key in keys.items()}


def player_results(finished: FinishedGame) -> dict[str, PlayerResult]:
    """Each player_id's result in the game: its best seat."""
    place = places(finished.result)
    totals = {score.seat: score.total for score in finished.result.scores}
    best: dict[str, PlayerResult] = {}
    for seat, player_id in finished.player_ids.items():
        mine = PlayerResult(place=place[seat], total=totals[seat], won=seat in finished.result.winners)
        earlier = best.get(player_id)
        if earlier is not None:
            mine = PlayerResult(
                place=min(earlier.place, mine.place),
                total=max(earlier.total, mine.total),
                won=earlier.won or mine.won,
            )
        best[player_id] = mine
    return best


class GameTotals:
    """What a batch adds to the game tables, keyed like their rows."""

    def __init__(self) -> None:
        self.games: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self.seats: defaultdict[tuple[str, int, int], Counter[str]] = defaultdict(Counter)
        self.scores: Counter[tuple[str, int]] = Counter()
        self.categories: Counter[tuple[str, str]] = Counter()
        self.cards: Counter[tuple[str, str]] = Counter()

    def add(self, finished: FinishedGame) -> None:
        game, result = finished.game, finished.result
        players = len(result.scores)
        totals = {score.seat: score.total for score in result.scores}
        self.games[game].update(
            games=1,
            player_games=players,
            score_sum=sum(totals.values()),
            winning_score_sum=totals[result.winners[0]],
            picks=sum(finished.picks.values()),
        )
        for score in result.scores:
            self.seats[game, players, score.seat].update(games=1, wins=int(score.seat in result.winners))
            self.scores[game, score.total] += 1
            for category, points in score.breakdown.items():
                self.categories[game, category] += points
        for slug, count in finished.picks.items():
            self.cards[game, slug] += count


@dataclass
class PlayerRecord:
    """One player's sums in one game of the catalog, and their rating there."""

    player_id: str
    game: str
    played: int = 0
    wins: int = 0
    score_sum: int = 0
    best_score: int = 0
    rated_games: int = 0
    mu: float = ratings.NEW_MU
    sigma: float = ratings.NEW_SIGMA
    rating: float = ratings.conservative(ratings.NEW_MU, ratings.NEW_SIGMA)


def add_to_players(
    records: dict[tuple[str, str], PlayerRecord], finished_games: Iterable[FinishedGame]
) -> set[tuple[str, str]]:
    """Add each game to its players' records, in the order given (a rating update starts from the
    last one); the keys of the records that changed. Missing records are created."""
    changed: set[tuple[str, str]] = set()
    for finished in finished_games:
        results = player_results(finished)
        mine = {
            player_id: records.setdefault((player_id, finished.game), PlayerRecord(player_id, finished.game))
            for player_id in results
        }
        for player_id, result in results.items():
            record = mine[player_id]
            record.played += 1
            record.wins += int(result.won)
            record.score_sum += result.total
            record.best_score = result.total if record.played == 1 else max(record.best_score, result.total)
            changed.add((player_id, finished.game))
        if len(results) >= 2:
            order = list(results)
            rated = ratings.rate([(mine[p].mu, mine[p].sigma, results[p].place) for p in order])
            for player_id, (mu, sigma) in zip(order, rated, strict=True):
                record = mine[player_id]
                record.mu, record.sigma, record.rating = mu, sigma, ratings.conservative(mu, sigma)
                record.rated_games += 1
    return changed


def finished_game(game: AnyGame, log: Sequence[Any]) -> FinishedGame:
    """Who sat where, which cards were picked and the result, from a finished game's decoded log."""
    player_ids: dict[int, str] = {}
    picks: Counter[str] = Counter()
    result: Result | None = None
    for event in log:
        if isinstance(event, SeatTaken):
            if event.player_id is not None:
                player_ids[event.seat] = event.player_id
        elif isinstance(event, GameFinished):
            result = event.result
        else:
            picks.update(slug for _, slug in game.picks(event))
    if result is None:
        raise LookupError(f"a {game.id} log read as finished has no GameFinished")
    return FinishedGame(game=game.id, result=result, player_ids=player_ids, picks=dict(picks))
