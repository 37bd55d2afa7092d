"""The "statistics" projection: player statistics and ratings, game statistics, over finished games.

It reads GameFinished events only. For the games a batch finishes it then reads their whole streams
(which are complete: a stream's earlier events committed before its last one could be appended) to
learn who sat where (SeatTaken) and which cards were picked (each game's `picks`). Game tables are
kept as sums that each finished game adds to; player rows are read, updated game by game in log
order (ratings depend on that order), and written back.

Player statistics are kept per player_id: a seat without one (anonymous or a bot) counts in the game
statistics but in no player's. A player holding several seats of one game counts it once, with their
best seat (best place, best total; a win if any of them won).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from adapters.projections import ratings
from adapters.projections.log import LogEvent
from adapters.projections.upserts import adding, chunks, replacing
from adapters.schema import (
    events,
    game_card_picks,
    game_category_points,
    game_score_counts,
    game_seat_stats,
    game_stats,
    player_stats,
)
from domain.engine import Result
from domain.table import GameFinished, SeatTaken
from services.codec import codec_for, game_of_log

#: Finished games whose streams are read per SELECT: bounds the memory a batch takes.
GAMES_PER_READ = 50
#: Player rows loaded per SELECT.
PLAYERS_PER_READ = 500


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

    def rows(self) -> dict[sa.Table, list[dict[str, Any]]]:
        columns = ("games", "player_games", "score_sum", "winning_score_sum", "picks")
        return {
            game_stats: [{"game": g, **{c: sums[c] for c in columns}} for g, sums in self.games.items()],
            game_seat_stats: [
                {"game": g, "players": p, "seat": s, "games": sums["games"], "wins": sums["wins"]}
                for (g, p, s), sums in self.seats.items()
            ],
            game_score_counts: [{"game": g, "score": s, "seats": n} for (g, s), n in self.scores.items()],
            game_category_points: [{"game": g, "category": c, "points": n} for (g, c), n in self.categories.items()],
            game_card_picks: [{"game": g, "slug": s, "picks": n} for (g, s), n in self.cards.items()],
        }


class StatisticsProjection:
    name = "statistics"
    handles: frozenset[str] | None = frozenset({GameFinished.__name__})
    tables: tuple[sa.Table, ...] = (
        player_stats,
        game_stats,
        game_seat_stats,
        game_score_counts,
        game_category_points,
        game_card_picks,
    )

    def __init__(self, dialect_name: str) -> None:
        self._add = {table: adding(dialect_name, table) for table in self.tables if table is not player_stats}
        self._save_players = replacing(dialect_name, player_stats)
        self._streams = (
            sa.select(events.c.stream_id, events.c.type, events.c.schema_version, sa.cast(events.c.data, sa.Text))
            .where(events.c.stream_id.in_(sa.bindparam("ids", expanding=True)))
            .order_by(events.c.stream_id, events.c.version)
        )
        self._players = sa.select(player_stats).where(player_stats.c.player_id.in_(sa.bindparam("ids", expanding=True)))

    async def apply(self, connection: AsyncConnection, events: Sequence[LogEvent]) -> None:
        totals = GameTotals()
        finished_in_order: list[FinishedGame] = []
        for chunk in chunks([event.stream_id for event in events], GAMES_PER_READ):
            finished = await self._finished_games(connection, chunk)
            for stream_id in chunk:
                totals.add(finished[stream_id])
                finished_in_order.append(finished[stream_id])
        for table, rows in totals.rows().items():
            if rows:
                await connection.execute(self._add[table], rows)
        await self._update_players(connection, finished_in_order)

    async def _finished_games(self, connection: AsyncConnection, stream_ids: list[str]) -> dict[str, FinishedGame]:
        logs: defaultdict[str, list[tuple[str, int, str]]] = defaultdict(list)
        for stream_id, *event in (await connection.execute(self._streams, {"ids": stream_ids})).all():
            logs[stream_id].append((event[0], event[1], event[2]))
        return {stream_id: _finished_game(log) for stream_id, log in logs.items()}

    async def _update_players(self, connection: AsyncConnection, finished_games: list[FinishedGame]) -> None:
        """Apply each game to its players' rows in log order: a rating update starts from the last one."""
        player_ids = sorted({p for finished in finished_games for p in finished.player_ids.values()})
        rows: dict[tuple[str, str], dict[str, Any]] = {}
        for chunk in chunks(player_ids, PLAYERS_PER_READ):
            for loaded in (await connection.execute(self._players, {"ids": chunk})).mappings():
                rows[loaded["player_id"], loaded["game"]] = dict(loaded)
        changed: set[tuple[str, str]] = set()
        for finished in finished_games:
            results = player_results(finished)
            mine = {
                player_id: rows.setdefault((player_id, finished.game), _new_player(player_id, finished.game))
                for player_id in results
            }
            for player_id, result in results.items():
                row = mine[player_id]
                row["played"] += 1
                row["wins"] += int(result.won)
                row["score_sum"] += result.total
                row["best_score"] = result.total if row["played"] == 1 else max(row["best_score"], result.total)
                changed.add((player_id, finished.game))
            if len(results) >= 2:
                order = list(results)
                rated = ratings.rate([(mine[p]["mu"], mine[p]["sigma"], results[p].place) for p in order])
                for player_id, (mu, sigma) in zip(order, rated, strict=True):
                    row = mine[player_id]
                    row.update(mu=mu, sigma=sigma, rating=ratings.conservative(mu, sigma))
                    row["rated_games"] += 1
        if changed:
            await connection.execute(self._save_players, [rows[key] for key in sorted(changed)])


def _new_player(player_id: str, game: str) -> dict[str, Any]:
    return {
        "player_id": player_id,
        "game": game,
        "played": 0,
        "wins": 0,
        "score_sum": 0,
        "best_score": 0,
        "rated_games": 0,
        "mu": ratings.NEW_MU,
        "sigma": ratings.NEW_SIGMA,
        "rating": ratings.conservative(ratings.NEW_MU, ratings.NEW_SIGMA),
    }


def _finished_game(log: list[tuple[str, int, str]]) -> FinishedGame:
    """Who sat where, which cards were picked and the result, from a finished game's whole log
    (each event as its type, schema version and JSON data)."""
    codec = codec_for(game_of_log(log[0][2].encode()))
    game = codec.game
    player_ids: dict[int, str] = {}
    picks: Counter[str] = Counter()
    result: Result | None = None
    for event_type, schema_version, data in log:
        event = codec.decode_event(event_type, schema_version, data.encode())
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
