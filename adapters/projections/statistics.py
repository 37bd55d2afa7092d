"""The "statistics" projection's tables: player statistics and ratings, game statistics.

It reads GameFinished events only. For the games a batch finishes it then reads their whole streams
(which are complete: a stream's earlier events committed before its last one could be appended),
and writes what services/statistics.py folds from them: sums that each finished game adds to, and
player rows read, updated game by game in log order (ratings depend on that order), written back,
and a `rating_history` row for each rating a game moved (numbered by the player's rated games).
Each game counts in its namespaces (its app's own records, and what anybody may see of them when the
game is public); a game imported from a log counts in none: kaiten did not see it played.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from kaiten.adapters.projections.log import LogEvent
from kaiten.adapters.projections.upserts import adding, chunks, replacing
from kaiten.adapters.schema import (
    GAME_SUMS,
    events,
    game_card_picks,
    game_category_points,
    game_score_counts,
    game_seat_stats,
    game_stats,
    player_stats,
    rating_history,
)
from kaiten.domain.lobby import GameFinished
from kaiten.services.codec import codec_for, game_of_log
from kaiten.services.ports import BUILTIN_APP, Namespace
from kaiten.services.statistics import (
    FinishedGame,
    GameTotals,
    PlayerRecord,
    RatingChange,
    add_to_players,
    finished_game,
)

_metadata = msgspec.json.Decoder(dict[str, Any])

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
        rating_history,
    )

    def __init__(self, dialect_name: str) -> None:
        self._add = {
            table: adding(dialect_name, table) for table in self.tables if table not in (player_stats, rating_history)
        }
        # A row per rating a game moved: new rows only (a batch is applied once, with its checkpoint).
        self._add_history = sa.insert(rating_history)
        self._save_players = replacing(dialect_name, player_stats)
        self._streams = (
            sa.select(
                events.c.stream_id,
                events.c.type,
                events.c.schema_version,
                sa.cast(events.c.data, sa.Text),
                # The first event's metadata names the owning app and says whether it was imported.
                sa.case((events.c.version == 1, sa.cast(events.c.metadata, sa.Text)), else_=sa.null()),
            )
            .where(events.c.stream_id.in_(sa.bindparam("ids", expanding=True)))
            .order_by(events.c.stream_id, events.c.version)
        )
        self._players = sa.select(player_stats).where(
            player_stats.c.app_id == sa.bindparam("app_id"),
            player_stats.c.scope == sa.bindparam("scope"),
            player_stats.c.person_id.in_(sa.bindparam("ids", expanding=True)),
        )

    async def apply(self, connection: AsyncConnection, events: Sequence[LogEvent]) -> None:
        by_namespace: defaultdict[Namespace, list[FinishedGame]] = defaultdict(list)
        #: The ids of each namespace's games, in the same order.
        ids: defaultdict[Namespace, list[str]] = defaultdict(list)
        finished_at = {event.stream_id: event.recorded_at for event in events}
        for chunk in chunks([event.stream_id for event in events], GAMES_PER_READ):
            finished = await self._finished_games(connection, chunk)
            for stream_id in chunk:
                if stream_id in finished:
                    for namespace in finished[stream_id].namespaces:
                        by_namespace[namespace].append(finished[stream_id])
                        ids[namespace].append(stream_id)
        for namespace, finished_in_order in by_namespace.items():
            totals = GameTotals()
            for game in finished_in_order:
                totals.add(game)
            for table, rows in _totals_rows(totals, namespace).items():
                if rows:
                    await connection.execute(self._add[table], rows)
            when = [(game_id, finished_at[game_id]) for game_id in ids[namespace]]
            await self._update_players(connection, namespace, finished_in_order, when)

    async def _finished_games(self, connection: AsyncConnection, stream_ids: list[str]) -> dict[str, FinishedGame]:
        """The games that finished here (an imported game counts nowhere), by id."""
        logs: defaultdict[str, list[tuple[str, int, str]]] = defaultdict(list)
        origins: dict[str, dict[str, Any]] = {}
        for stream_id, event_type, version, data, metadata in (
            await connection.execute(self._streams, {"ids": stream_ids})
        ).all():
            logs[stream_id].append((event_type, version, data))
            if metadata is not None:
                origins[stream_id] = _metadata.decode(metadata)
        return {
            stream_id: _finished_game(log, origins[stream_id].get("app", BUILTIN_APP))
            for stream_id, log in logs.items()
            if "imported_from" not in origins[stream_id]
        }

    async def _update_players(
        self,
        connection: AsyncConnection,
        namespace: Namespace,
        finished_games: list[FinishedGame],
        when: list[tuple[str, datetime | None]],
    ) -> None:
        """Add the games to their players' records; `when` holds each game's id and end, in order."""
        person_ids = sorted({p for finished in finished_games for p in finished.players.values()})
        records: dict[tuple[str, str], PlayerRecord] = {}
        where = {"app_id": namespace.app_id, "scope": namespace.scope}
        for chunk in chunks(person_ids, PLAYERS_PER_READ):
            for row in (await connection.execute(self._players, {**where, "ids": chunk})).mappings():
                record = {key: value for key, value in row.items() if key not in where}
                records[row["person_id"], row["game"]] = PlayerRecord(**record)
        moved: list[RatingChange] = []
        changed = add_to_players(records, finished_games, moved)
        if changed:
            await connection.execute(self._save_players, [{**where, **asdict(records[key])} for key in sorted(changed)])
        if moved:
            await connection.execute(self._add_history, [_history_row(where, change, when) for change in moved])


def _history_row(
    where: dict[str, str], change: RatingChange, when: list[tuple[str, datetime | None]]
) -> dict[str, Any]:
    game_id, finished_at = when[change.index]
    return {
        **where,
        "person_id": change.person_id,
        "game": change.game,
        "seq": change.seq,
        "game_id": game_id,
        "finished_at": finished_at,
        "rating_before": change.rating_before,
        "rating_after": change.rating_after,
        "mu": change.mu,
        "sigma": change.sigma,
    }


def _finished_game(log: list[tuple[str, int, str]], app_id: str) -> FinishedGame:
    """A finished game's whole log, each event as its type, schema version and JSON data, decoded."""
    codec = codec_for(game_of_log(log[0][2].encode()))
    events = [codec.decode_event(event_type, version, data.encode()) for event_type, version, data in log]
    return finished_game(codec.game, events, app_id)


def _totals_rows(totals: GameTotals, namespace: Namespace) -> dict[sa.Table, list[dict[str, Any]]]:
    keys = {"app_id": namespace.app_id, "scope": namespace.scope}
    return {
        game_stats: [{**keys, "game": g, **{c: sums[c] for c in GAME_SUMS}} for g, sums in totals.games.items()],
        game_seat_stats: [
            {**keys, "game": g, "players": p, "seat": s, "games": sums["games"], "wins": sums["wins"]}
            for (g, p, s), sums in totals.seats.items()
        ],
        game_score_counts: [{**keys, "game": g, "score": s, "seats": n} for (g, s), n in totals.scores.items()],
        game_category_points: [
            {**keys, "game": g, "category": c, "points": n} for (g, c), n in totals.categories.items()
        ],
        game_card_picks: [{**keys, "game": g, "slug": s, "picks": n} for (g, s), n in totals.cards.items()],
    }
