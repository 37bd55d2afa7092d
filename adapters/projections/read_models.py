"""`ReadModels` over the tables the history and statistics projections write."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.schema import (
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
)
from services.ports import GameStatsRecord, MatchFilter, MatchKey, MatchRecord, PlayerGameRecord, SeatRecord

#: What a match record holds: the visibility only filters (private games are never listed).
_MATCH_COLUMNS = tuple(column for column in match_history.c if column.name != "visibility")
_PLAYER_COLUMNS = tuple(player_stats.c)


class SqlReadModels:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._player_games = (
            sa.select(*_PLAYER_COLUMNS)
            .where(player_stats.c.player_id == sa.bindparam("player_id"))
            .order_by(player_stats.c.game)
        )
        self._leaderboard = (
            sa.select(*_PLAYER_COLUMNS)
            .where(player_stats.c.game == sa.bindparam("game"), player_stats.c.rated_games > 0)
            .order_by(player_stats.c.rating.desc(), player_stats.c.player_id)
            .limit(sa.bindparam("limit"))
        )
        by_game: sa.BindParameter[str] = sa.bindparam("game", type_=sa.Text())
        self._game_stats = sa.select(game_stats).where(game_stats.c.game == by_game)
        self._seats = sa.select(game_seat_stats).where(game_seat_stats.c.game == by_game)
        self._scores = sa.select(game_score_counts.c.score, game_score_counts.c.seats).where(
            game_score_counts.c.game == by_game
        )
        self._categories = sa.select(game_category_points.c.category, game_category_points.c.points).where(
            game_category_points.c.game == by_game
        )
        self._cards = sa.select(game_card_picks.c.slug, game_card_picks.c.picks).where(
            game_card_picks.c.game == by_game
        )

    async def matches(self, where: MatchFilter, after: MatchKey | None, limit: int) -> list[MatchRecord]:
        async with self._engine.connect() as connection:
            result = await connection.execute(_matches(where, after), {"limit": limit})
            return [MatchRecord(**row) for row in result.mappings()]

    async def player_games(self, player_id: str) -> list[PlayerGameRecord]:
        async with self._engine.connect() as connection:
            result = await connection.execute(self._player_games, {"player_id": player_id})
            return [PlayerGameRecord(**row) for row in result.mappings()]

    async def game_stats(self, game: str) -> GameStatsRecord:
        parameters = {"game": game}
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

    async def leaderboard(self, game: str, limit: int) -> list[PlayerGameRecord]:
        async with self._engine.connect() as connection:
            result = await connection.execute(self._leaderboard, {"game": game, "limit": limit})
            return [PlayerGameRecord(**row) for row in result.mappings()]


def _matches(where: MatchFilter, after: MatchKey | None) -> sa.Select[Any]:
    """Newest first by (created_at, game_id), each filter an equality on an indexed column.

    With a player, the player's own index (match_players) gives the order and history rows are
    joined by key; the keyset condition makes every page one index range scan, however deep.
    """
    if where.player_id is None:
        order = (match_history.c.created_at, match_history.c.game_id)
        statement = sa.select(*_MATCH_COLUMNS)
    else:
        order = (match_players.c.created_at, match_players.c.game_id)
        statement = (
            sa.select(*_MATCH_COLUMNS)
            .select_from(match_players.join(match_history, match_history.c.game_id == match_players.c.game_id))
            .where(match_players.c.player_id == where.player_id)
        )
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
