"""The "statistics" projection's tables: player statistics and ratings, game statistics.

It reads GameFinished events only. For the games a batch finishes it then reads their whole streams
(which are complete: a stream's earlier events committed before its last one could be appended),
and writes what services/statistics.py folds from them: sums that each finished game adds to, and
player rows read, updated game by game in log order (ratings depend on that order), written back,
and a `rating_history` row for each rating a game moved (numbered by the player's rated games).
Each game counts in its namespaces (its app's own records, and what anybody may see of them when the
game is public); a game imported from a log counts in none: kaiten did not see it played.

A game whose end falls in a season of its app (services/seasons.py) is rated again in the season
(season_stats), in log order like the all-time ratings. A season is counted from the log the first
time a batch meets it (seasons_counted): the games applied before that batch which ended in its
window, then each batch's like any other. So whether a season was defined before its games were
projected, while they were, or after, it holds what a rebuild from the log gives.
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

from kaiten.adapters.projections.log import LogEvent, Position, compared_to_position, log_order
from kaiten.adapters.projections.upserts import adding, chunks, replacing
from kaiten.adapters.schema import (
    GAME_SUMS,
    UtcDateTime,
    events,
    game_card_picks,
    game_category_points,
    game_score_counts,
    game_seat_stats,
    game_stats,
    games,
    player_stats,
    projection_quarantine,
    rating_history,
    season_stats,
    seasons,
    seasons_counted,
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
        season_stats,
        seasons_counted,
    )

    def __init__(self, dialect_name: str) -> None:
        summed = (game_stats, game_seat_stats, game_score_counts, game_category_points, game_card_picks)
        self._add = {table: adding(dialect_name, table) for table in summed}
        # A row per rating a game moved: new rows only (a batch is applied once, with its checkpoint).
        self._add_history = sa.insert(rating_history)
        self._all_time = _PlayerRows(dialect_name, player_stats)
        self._in_season = _PlayerRows(dialect_name, season_stats)
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
        counted = sa.and_(
            seasons_counted.c.app_id == seasons.c.app_id, seasons_counted.c.season_id == seasons.c.season_id
        )
        window = (seasons.c.season_id, seasons.c.starts_at, seasons.c.ends_at)
        self._uncounted_seasons = (
            sa.select(seasons.c.app_id, *window)
            .select_from(seasons.outerjoin(seasons_counted, counted))
            .where(seasons_counted.c.season_id.is_(None))
        )
        self._counted_seasons = (
            sa.select(seasons.c.app_id, *window)
            .join(seasons_counted, counted)
            .where(seasons.c.app_id.in_(sa.bindparam("apps", expanding=True)))
        )
        self._mark_counted = sa.insert(seasons_counted)
        postgres = dialect_name == "postgresql"
        self._ended_in_window_before = (
            sa.select(events.c.stream_id)
            .join(games, games.c.game_id == events.c.stream_id)
            .where(
                events.c.type == GameFinished.__name__,
                games.c.app_id == sa.bindparam("app_id"),
                events.c.recorded_at >= sa.bindparam("starts_at", type_=UtcDateTime),
                events.c.recorded_at < sa.bindparam("ends_at", type_=UtcDateTime),
                compared_to_position(postgres, after=False),
                # A game this projection set aside counts in no record: nor in a season counted late.
                ~sa.exists().where(
                    projection_quarantine.c.name == self.name,
                    projection_quarantine.c.global_position == events.c.global_position,
                ),
            )
            .order_by(*log_order(postgres))
        )

    async def apply(self, connection: AsyncConnection, events: Sequence[LogEvent]) -> None:
        if events:
            await self._count_new_seasons(connection, events[0].position)
        by_namespace: defaultdict[Namespace, list[FinishedGame]] = defaultdict(list)
        #: Each namespace's games' ids and ends, in the same order.
        when: defaultdict[Namespace, list[tuple[str, datetime]]] = defaultdict(list)
        finished_at = {event.stream_id: event.recorded_at for event in events if event.recorded_at is not None}
        for chunk in chunks(list(finished_at), GAMES_PER_READ):
            for namespace, finished in (await self._by_namespace(connection, chunk)).items():
                by_namespace[namespace] += [game for _, game in finished]
                when[namespace] += [(stream_id, finished_at[stream_id]) for stream_id, _ in finished]
        # Read once, after the new seasons were counted: a season defined meanwhile is counted by the
        # next batch, with this one's games.
        apps = sorted({namespace.app_id for namespace in by_namespace})
        windows: defaultdict[str, list[_Window]] = defaultdict(list)
        if apps:
            for app_id, season_id, starts_at, ends_at in await connection.execute(
                self._counted_seasons, {"apps": apps}
            ):
                windows[app_id].append(_Window(season_id, starts_at, ends_at))
        for namespace, finished_in_order in by_namespace.items():
            totals = GameTotals()
            for game in finished_in_order:
                totals.add(game)
            for table, rows in _totals_rows(totals, namespace).items():
                if rows:
                    await connection.execute(self._add[table], rows)
            await self._update_players(connection, namespace, finished_in_order, when[namespace])
            for window in windows[namespace.app_id]:
                inside = [
                    game for game, (_, ended) in zip(finished_in_order, when[namespace], strict=True) if ended in window
                ]
                await self._update_season(connection, namespace, window.season_id, inside)

    async def _count_new_seasons(self, connection: AsyncConnection, before: Position) -> None:
        """Count each season met for the first time from the games applied before `before`."""
        for app_id, season_id, starts_at, ends_at in (await connection.execute(self._uncounted_seasons)).all():
            parameters = {
                "app_id": app_id,
                "starts_at": starts_at,
                "ends_at": ends_at,
                "tx_id": before.tx_id,
                "global_position": before.global_position,
            }
            ended = (await connection.execute(self._ended_in_window_before, parameters)).scalars().all()
            for chunk in chunks(ended, GAMES_PER_READ):
                for namespace, finished in (await self._by_namespace(connection, chunk)).items():
                    await self._update_season(connection, namespace, season_id, [game for _, game in finished])
            await connection.execute(self._mark_counted, {"app_id": app_id, "season_id": season_id})

    async def _by_namespace(
        self, connection: AsyncConnection, stream_ids: list[str]
    ) -> defaultdict[Namespace, list[tuple[str, FinishedGame]]]:
        """The games among these that finished here, with their ids, in the order given, under each
        namespace they count in."""
        finished = await self._finished_games(connection, stream_ids)
        grouped: defaultdict[Namespace, list[tuple[str, FinishedGame]]] = defaultdict(list)
        for stream_id in stream_ids:
            if stream_id in finished:
                for namespace in finished[stream_id].namespaces:
                    grouped[namespace].append((stream_id, finished[stream_id]))
        return grouped

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
        when: list[tuple[str, datetime]],
    ) -> None:
        """Add the games to their players' records; `when` holds each game's id and end, in order."""
        where = {"app_id": namespace.app_id, "scope": namespace.scope}
        records = await self._all_time.load(connection, where, finished_games)
        moved: list[RatingChange] = []
        changed = add_to_players(records, finished_games, moved)
        await self._all_time.save(connection, where, records, changed)
        if moved:
            await connection.execute(self._add_history, [_history_row(where, change, when) for change in moved])

    async def _update_season(
        self, connection: AsyncConnection, namespace: Namespace, season_id: str, finished_games: list[FinishedGame]
    ) -> None:
        if not finished_games:
            return
        where = {"app_id": namespace.app_id, "scope": namespace.scope, "season_id": season_id}
        records = await self._in_season.load(connection, where, finished_games)
        await self._in_season.save(connection, where, records, add_to_players(records, finished_games))


class _Window(msgspec.Struct, frozen=True):
    """A season's window: the games that ended from `starts_at`, before `ends_at`."""

    season_id: str
    starts_at: datetime
    ends_at: datetime

    def __contains__(self, moment: datetime) -> bool:
        return self.starts_at <= moment < self.ends_at


class _PlayerRows:
    """The players' records of one table (all-time, or a season's), read and written back by key."""

    def __init__(self, dialect_name: str, table: sa.Table) -> None:
        self._keys = [column.name for column in table.primary_key.columns if column.name not in ("person_id", "game")]
        self._select = sa.select(table).where(
            *(table.c[key] == sa.bindparam(key) for key in self._keys),
            table.c.person_id.in_(sa.bindparam("ids", expanding=True)),
        )
        self._save = replacing(dialect_name, table)

    async def load(
        self, connection: AsyncConnection, where: dict[str, str], finished_games: list[FinishedGame]
    ) -> dict[tuple[str, str], PlayerRecord]:
        """The records of every player of these games that has one (`where` names the table's keys)."""
        person_ids = sorted({p for finished in finished_games for p in finished.players.values()})
        records: dict[tuple[str, str], PlayerRecord] = {}
        for chunk in chunks(person_ids, PLAYERS_PER_READ):
            for row in (await connection.execute(self._select, {**where, "ids": chunk})).mappings():
                record = {key: value for key, value in row.items() if key not in where}
                records[row["person_id"], row["game"]] = PlayerRecord(**record)
        return records

    async def save(
        self,
        connection: AsyncConnection,
        where: dict[str, str],
        records: dict[tuple[str, str], PlayerRecord],
        changed: set[tuple[str, str]],
    ) -> None:
        if changed:
            await connection.execute(self._save, [{**where, **asdict(records[key])} for key in sorted(changed)])


def _history_row(where: dict[str, str], change: RatingChange, when: list[tuple[str, datetime]]) -> dict[str, Any]:
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
