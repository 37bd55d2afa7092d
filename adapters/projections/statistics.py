"""The "statistics" projection's tables: player statistics and ratings, game statistics.

It reads GameFinished events only. For the games a batch finishes it then reads their whole streams
(which are complete: a stream's earlier events committed before its last one could be appended),
and writes what services/statistics.py folds from them: sums that each finished game adds to, and
player rows read, updated game by game in log order (ratings depend on that order), written back.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from adapters.projections.log import LogEvent
from adapters.projections.upserts import adding, chunks, replacing
from adapters.schema import (
    GAME_SUMS,
    events,
    game_card_picks,
    game_category_points,
    game_score_counts,
    game_seat_stats,
    game_stats,
    player_stats,
)
from domain.lobby import GameFinished
from services.codec import codec_for, game_of_log
from services.statistics import FinishedGame, GameTotals, PlayerRecord, add_to_players, finished_game

#: Finished games whose streams are read per SELECT: bounds the memory a batch takes.
GAMES_PER_READ = 50
#: Player rows loaded per SELECT.
PLAYERS_PER_READ = 500


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
        for table, rows in _totals_rows(totals).items():
            if rows:
                await connection.execute(self._add[table], rows)
        await self._update_players(connection, finished_in_order)

    async def _finished_games(self, connection: AsyncConnection, stream_ids: list[str]) -> dict[str, FinishedGame]:
        logs: defaultdict[str, list[tuple[str, int, str]]] = defaultdict(list)
        for stream_id, *event in (await connection.execute(self._streams, {"ids": stream_ids})).all():
            logs[stream_id].append((event[0], event[1], event[2]))
        return {stream_id: _finished_game(log) for stream_id, log in logs.items()}

    async def _update_players(self, connection: AsyncConnection, finished_games: list[FinishedGame]) -> None:
        player_ids = sorted({p for finished in finished_games for p in finished.player_ids.values()})
        records: dict[tuple[str, str], PlayerRecord] = {}
        for chunk in chunks(player_ids, PLAYERS_PER_READ):
            for row in (await connection.execute(self._players, {"ids": chunk})).mappings():
                records[row["player_id"], row["game"]] = PlayerRecord(**row)
        changed = add_to_players(records, finished_games)
        if changed:
            await connection.execute(self._save_players, [asdict(records[key]) for key in sorted(changed)])


def _finished_game(log: list[tuple[str, int, str]]) -> FinishedGame:
    """A finished game's whole log, each event as its type, schema version and JSON data, decoded."""
    codec = codec_for(game_of_log(log[0][2].encode()))
    events = [codec.decode_event(event_type, version, data.encode()) for event_type, version, data in log]
    return finished_game(codec.game, events)


def _totals_rows(totals: GameTotals) -> dict[sa.Table, list[dict[str, Any]]]:
    return {
        game_stats: [{"game": g, **{c: sums[c] for c in GAME_SUMS}} for g, sums in totals.games.items()],
        game_seat_stats: [
            {"game": g, "players": p, "seat": s, "games": sums["games"], "wins": sums["wins"]}
            for (g, p, s), sums in totals.seats.items()
        ],
        game_score_counts: [{"game": g, "score": s, "seats": n} for (g, s), n in totals.scores.items()],
        game_category_points: [{"game": g, "category": c, "points": n} for (g, c), n in totals.categories.items()],
        game_card_picks: [{"game": g, "slug": s, "picks": n} for (g, s), n in totals.cards.items()],
    }
