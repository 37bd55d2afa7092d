"""`ReadModels` over the tables the history and statistics projections write."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import for_reads
from kaiten.adapters.schema import (
    GAME_SUMS,
    UtcDateTime,
    game_card_picks,
    game_category_points,
    game_score_counts,
    game_seat_stats,
    game_stats,
    match_history,
    match_players,
    player_stats,
    rating_history,
    season_stats,
)
from kaiten.services.ports import (
    GameStatsRecord,
    LeaderboardKey,
    MatchFilter,
    MatchKey,
    MatchRecord,
    Namespace,
    PlayerGameRecord,
    RatingHistoryRecord,
    SeatRecord,
)

#: What a match record holds: the app only filters.
_MATCH_COLUMNS = tuple(column for column in match_history.c if column.name != "app_id")
_PLAYER_COLUMNS = tuple(column for column in player_stats.c if column.name not in ("app_id", "scope"))


def _in(table: sa.Table) -> sa.ColumnElement[bool]:
    """The rows of the namespace the query is asked for (`:app_id`, `:scope`)."""
    return sa.and_(table.c.app_id == sa.bindparam("app_id"), table.c.scope == sa.bindparam("scope"))


def _of(namespace: Namespace) -> dict[str, str]:
    return {"app_id": namespace.app_id, "scope": namespace.scope}


class SqlReadModels:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._reader = for_reads(engine)
        self._player_games = (
            sa.select(*_PLAYER_COLUMNS)
            .where(_in(player_stats), player_stats.c.person_id == sa.bindparam("person_id"))
            .order_by(player_stats.c.game)
        )
        self._leaderboards = {table: _leaderboard(table) for table in (player_stats, season_stats)}
        self._rating_history = (
            sa.select(
                *(column for column in rating_history.c if column.name not in ("app_id", "scope", "person_id", "game"))
            )
            .where(
                _in(rating_history),
                rating_history.c.person_id == sa.bindparam("person_id"),
                rating_history.c.game == sa.bindparam("game"),
            )
            .order_by(rating_history.c.seq.desc())
            .limit(sa.bindparam("limit"))
        )
        self._rating_history_before = self._rating_history.where(
            rating_history.c.seq < sa.bindparam("before", type_=sa.Integer())
        )
        by_game: sa.BindParameter[str] = sa.bindparam("game", type_=sa.Text())
        self._game_stats = sa.select(
            *(column for column in game_stats.c if column.name not in ("app_id", "scope"))
        ).where(_in(game_stats), game_stats.c.game == by_game)
        self._seats = sa.select(
            game_seat_stats.c.players, game_seat_stats.c.seat, game_seat_stats.c.games, game_seat_stats.c.wins
        ).where(_in(game_seat_stats), game_seat_stats.c.game == by_game)
        self._scores = sa.select(game_score_counts.c.score, game_score_counts.c.seats).where(
            _in(game_score_counts), game_score_counts.c.game == by_game
        )
        self._categories = sa.select(game_category_points.c.category, game_category_points.c.points).where(
            _in(game_category_points), game_category_points.c.game == by_game
        )
        self._cards = sa.select(game_card_picks.c.slug, game_card_picks.c.picks).where(
            _in(game_card_picks), game_card_picks.c.game == by_game
        )

    async def matches(
        self, namespace: Namespace, where: MatchFilter, after: MatchKey | None, limit: int
    ) -> list[MatchRecord]:
        async with self._reader.connect() as connection:
            result = await connection.execute(_matches(namespace, where, after), {"limit": limit})
            return [MatchRecord(**row) for row in result.mappings()]

    async def player_games(self, namespace: Namespace, person_id: str) -> list[PlayerGameRecord]:
        async with self._reader.connect() as connection:
            result = await connection.execute(self._player_games, {**_of(namespace), "person_id": person_id})
            return [PlayerGameRecord(**row) for row in result.mappings()]

    async def game_stats(self, namespace: Namespace, game: str) -> GameStatsRecord:
        parameters = {**_of(namespace), "game": game}
        # Five statements that must agree with one another: one transaction, one snapshot.
        async with self._engine.connect() as connection:
            sums = (await connection.execute(self._game_stats, parameters)).mappings().first()
            seats = (await connection.execute(self._seats, parameters)).mappings().all()
            scores = (await connection.execute(self._scores, parameters)).all()
            categories = (await connection.execute(self._categories, parameters)).all()
            cards = (await connection.execute(self._cards, parameters)).all()
        totals: dict[str, Any] = dict(sums) if sums is not None else {"game": game, **dict.fromkeys(GAME_SUMS, 0)}
        return GameStatsRecord(
            **totals,
            seats=[SeatRecord(players=s["players"], seat=s["seat"], games=s["games"], wins=s["wins"]) for s in seats],
            score_counts={score: count for score, count in scores},
            category_points={category: points for category, points in categories},
            card_picks={slug: picks for slug, picks in cards},
        )

    async def leaderboard(
        self, namespace: Namespace, game: str, after: LeaderboardKey | None, limit: int, season: str | None = None
    ) -> list[PlayerGameRecord]:
        parameters: dict[str, Any] = {**_of(namespace), "game": game, "limit": limit}
        first, following = self._leaderboards[player_stats if season is None else season_stats]
        statement = first
        if season is not None:
            parameters["season_id"] = season
        if after is not None:
            statement = following
            parameters.update(after_rating=after.rating, after_person_id=after.person_id)
        async with self._reader.connect() as connection:
            result = await connection.execute(statement, parameters)
            return [PlayerGameRecord(**row) for row in result.mappings()]

    async def rating_history(
        self, namespace: Namespace, person_id: str, game: str, before: int | None, limit: int
    ) -> list[RatingHistoryRecord]:
        parameters: dict[str, Any] = {**_of(namespace), "person_id": person_id, "game": game, "limit": limit}
        statement = self._rating_history
        if before is not None:
            statement = self._rating_history_before
            parameters["before"] = before
        async with self._reader.connect() as connection:
            result = await connection.execute(statement, parameters)
            return [RatingHistoryRecord(**row) for row in result.mappings()]


def _leaderboard(table: sa.Table) -> tuple[sa.Select[Any], sa.Select[Any]]:
    """The first page of a leaderboard (all-time, or a season's: `:season_id`), and the pages after the
    rating and person of the last row read (keyset paging: one index range scan)."""
    rows = table.c
    where = [_in(table), rows.game == sa.bindparam("game"), rows.rated_games > 0]
    if "season_id" in rows:
        where.append(rows.season_id == sa.bindparam("season_id"))
    first = (
        sa.select(*(rows[column.name] for column in _PLAYER_COLUMNS))
        .where(*where)
        .order_by(rows.rating.desc(), rows.person_id)
        .limit(sa.bindparam("limit"))
    )
    after_rating: sa.BindParameter[float] = sa.bindparam("after_rating", type_=sa.Double())
    after_person: sa.BindParameter[str] = sa.bindparam("after_person_id", type_=sa.Text())
    following = first.where(
        sa.or_(rows.rating < after_rating, sa.and_(rows.rating == after_rating, rows.person_id > after_person))
    )
    return first, following


def _matches(namespace: Namespace, where: MatchFilter, after: MatchKey | None) -> sa.Select[Any]:
    """Newest first by (created_at, game_id), each filter an equality on an indexed column.

    With a player, the player's own index (match_players) gives the order and history rows are
    joined by key; the keyset condition makes every page one index range scan, however deep.
    """
    if where.person_id is None:
        order = (match_history.c.created_at, match_history.c.game_id)
        statement = sa.select(*_MATCH_COLUMNS)
    else:
        order = (match_players.c.created_at, match_players.c.game_id)
        statement = (
            sa.select(*_MATCH_COLUMNS)
            .select_from(match_players.join(match_history, match_history.c.game_id == match_players.c.game_id))
            .where(match_players.c.person_id == where.person_id)
        )
    statement = statement.where(match_history.c.app_id == namespace.app_id)
    if namespace.scope == "public":
        statement = statement.where(match_history.c.visibility == "public")
    if where.game is not None:
        statement = statement.where(match_history.c.game == where.game)
    if where.status is not None:
        statement = statement.where(match_history.c.status == where.status)
    if after is not None:
        key = sa.tuple_(
            sa.bindparam("after_created_at", after.created_at, type_=UtcDateTime()),
            sa.bindparam("after_game_id", after.game_id, type_=sa.Text()),
        )
        statement = statement.where(sa.tuple_(*order) < key)
    return statement.order_by(*(column.desc() for column in order)).limit(sa.bindparam("limit"))
