"""The history and statistics queries: check the request, read the read models, derive rates and means.

The read models keep counts and sums; means and rates are worked out here, when answering, so that a
projection applies one more game by adding to them.
"""

from __future__ import annotations

import base64
import binascii
import math
import uuid
from datetime import datetime
from typing import TypeVar, get_args

import msgspec

from kaiten.domain.catalog import GAMES
from kaiten.domain.lobby import Status
from kaiten.services.access import Credential, namespace_of
from kaiten.services.errors import Kind, ServiceError
from kaiten.services.people import Names
from kaiten.services.ports import (
    GameStatsRecord,
    LeaderboardKey,
    MatchFilter,
    MatchKey,
    MatchRecord,
    Person,
    PlayerGameRecord,
    RatingHistoryRecord,
    ReadModels,
    SeasonStore,
)
from kaiten.services.seasons import check_season_id, season_not_found
from kaiten.services.seen import SeenMatches
from kaiten.services.stats import (
    CardPicks,
    CategoryPoints,
    GameStats,
    Leaderboard,
    LeaderboardEntry,
    PlayerGameStats,
    PlayerStats,
    RatedGame,
    RatingHistory,
    ScoreCount,
    SeatWinRate,
)
from kaiten.services.text_rules import check_player_id

MAX_PAGE = 100
STATUSES: tuple[str, ...] = get_args(Status)

_cursor_decoder = msgspec.json.Decoder(tuple[datetime, str])
_leaderboard_cursor_decoder = msgspec.json.Decoder(tuple[float, str, int])
_history_cursor_decoder = msgspec.json.Decoder(int)
#: Bounds of what a cursor may name: a person id's length and a rank.
MAX_KEY = 200
MAX_RANK = 2**53

T = TypeVar("T")


class HistoryQueries:
    def __init__(self, read_models: ReadModels, names: Names, seasons: SeasonStore) -> None:
        self.read_models = read_models
        #: The people at the tables (names and player ids are kept apart from the read models).
        self.names = names
        #: The seasons apps defined (a leaderboard may be a season's).
        self.seasons = seasons

    async def matches(
        self,
        caller: Credential = None,
        game: str | None = None,
        status: str | None = None,
        player_id: str | None = None,
        limit: int = 20,
        cursor: str | None = None,
    ) -> SeenMatches:
        if game is not None:
            _known_game(game, "invalid")
        if status is not None and status not in STATUSES:
            raise ServiceError("invalid", "invalid-status", f"status is one of {', '.join(STATUSES)}")
        if player_id is not None:
            check_player_id(player_id)
        if not 1 <= limit <= MAX_PAGE:
            raise ServiceError("invalid", "invalid-page", f"limit must be 1..{MAX_PAGE}")
        after = None if cursor is None else decode_cursor(cursor)
        namespace = namespace_of(caller)
        person_id = None
        if player_id is not None:
            person = await self.names.people.of_player(namespace.app_id, player_id)
            if person is None:
                return SeenMatches(records=[], people={}, next_cursor=None)
            person_id = person.person_id
        where = MatchFilter(game=game, status=status, person_id=person_id)
        # One more than asked tells whether there is a next page.
        records = await self.read_models.matches(namespace, where, after, limit + 1)
        page = records[:limit]
        next_cursor = encode_cursor(page[-1]) if len(records) > limit else None
        people = await self.names.of(seat.get("person") for record in page for seat in record.seats)
        return SeenMatches(records=page, people=people, next_cursor=next_cursor)

    async def player_stats(self, player_id: str, caller: Credential = None) -> PlayerStats:
        check_player_id(player_id)
        namespace = namespace_of(caller)
        person = await self.names.people.of_player(namespace.app_id, player_id)
        records = [] if person is None else await self.read_models.player_games(namespace, person.person_id)
        return PlayerStats(player_id=player_id, games=[_player_game(record) for record in records])

    async def game_stats(self, game: str, caller: Credential = None) -> GameStats:
        _known_game(game, "not-found")
        return _game_stats(await self.read_models.game_stats(namespace_of(caller), game))

    async def leaderboard(
        self,
        game: str,
        limit: int = 10,
        caller: Credential = None,
        cursor: str | None = None,
        season: str | None = None,
    ) -> Leaderboard:
        _known_game(game, "not-found")
        if not 1 <= limit <= MAX_PAGE:
            raise ServiceError("invalid", "invalid-page", f"limit must be 1..{MAX_PAGE}")
        after, rank = (None, 0) if cursor is None else decode_leaderboard_cursor(cursor)
        namespace = namespace_of(caller)
        if season is not None and await self.seasons.get(namespace.app_id, check_season_id(season)) is None:
            raise season_not_found(season)
        # One more than asked tells whether there is a next page.
        shown: list[tuple[PlayerGameRecord, Person]] = []
        # Erased players keep their anonymous ratings, which no leaderboard shows: read on past them.
        while len(shown) <= limit:
            records = await self.read_models.leaderboard(namespace, game, after, limit + 1, season)
            people = await self.names.of(record.person_id for record in records)
            shown.extend((record, people[record.person_id]) for record in records if record.person_id in people)
            if len(records) <= limit:
                break
            after = LeaderboardKey(rating=records[-1].rating, person_id=records[-1].person_id)
        page = shown[:limit]
        entries = [_entry(rank + n, record, person) for n, (record, person) in enumerate(page, start=1)]
        next_cursor = None
        if len(shown) > limit:
            last = page[-1][0]
            next_cursor = _pack((last.rating, last.person_id, rank + limit))
        return Leaderboard(game=game, players=entries, next_cursor=next_cursor, season=season)

    async def rating_history(
        self, player_id: str, game: str, caller: Credential = None, limit: int = 20, cursor: str | None = None
    ) -> RatingHistory:
        """The player's rating after each game that moved it in `game`, newest first, a page at a time."""
        check_player_id(player_id)
        _known_game(game, "not-found")
        if not 1 <= limit <= MAX_PAGE:
            raise ServiceError("invalid", "invalid-page", f"limit must be 1..{MAX_PAGE}")
        before = None if cursor is None else decode_history_cursor(cursor)
        namespace = namespace_of(caller)
        person = await self.names.people.of_player(namespace.app_id, player_id)
        if person is None:
            return RatingHistory(player_id=player_id, game=game, items=[])
        records = await self.read_models.rating_history(namespace, person.person_id, game, before, limit + 1)
        page = records[:limit]
        next_cursor = _pack(page[-1].seq) if len(records) > limit else None
        return RatingHistory(
            player_id=player_id, game=game, items=[_rated_game(record) for record in page], next_cursor=next_cursor
        )


def _pack(key: object) -> str:
    """An opaque cursor: the URL-safe base64 of a page's last key as JSON (the next page starts after it)."""
    return base64.urlsafe_b64encode(msgspec.json.encode(key)).rstrip(b"=").decode()


def _unpack(cursor: str, decoder: msgspec.json.Decoder[T]) -> T:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        return decoder.decode(raw)
    except (binascii.Error, ValueError, msgspec.DecodeError):
        raise _bad_cursor() from None


def _bad_cursor() -> ServiceError:
    return ServiceError("invalid", "invalid-cursor", "cursor is not one this service gave out")


def encode_cursor(record: MatchRecord) -> str:
    """An opaque cursor naming the last game of a page: the next page starts after it."""
    return _pack((record.created_at, record.game_id))


def decode_cursor(cursor: str) -> MatchKey:
    created_at, game_id = _unpack(cursor, _cursor_decoder)
    if created_at.tzinfo is None or not _is_uuid(game_id):
        raise _bad_cursor()
    return MatchKey(created_at=created_at, game_id=game_id)


def decode_leaderboard_cursor(cursor: str) -> tuple[LeaderboardKey, int]:
    """The last row a leaderboard page showed (its rating and person) and its rank."""
    rating, person_id, rank = _unpack(cursor, _leaderboard_cursor_decoder)
    if not math.isfinite(rating) or not 0 < len(person_id) <= MAX_KEY or not 1 <= rank <= MAX_RANK:
        raise _bad_cursor()
    return LeaderboardKey(rating=rating, person_id=person_id), rank


def decode_history_cursor(cursor: str) -> int:
    """The last rated game a rating history's page showed (its number)."""
    seq = _unpack(cursor, _history_cursor_decoder)
    if not 1 <= seq <= MAX_RANK:
        raise _bad_cursor()
    return seq


def _rated_game(record: RatingHistoryRecord) -> RatedGame:
    return RatedGame(
        game_id=record.game_id,
        finished_at=record.finished_at,
        rating_before=record.rating_before,
        rating_after=record.rating_after,
        mu=record.mu,
        sigma=record.sigma,
        rated_game=record.seq,
    )


def _is_uuid(text: str) -> bool:
    try:
        return str(uuid.UUID(text)) == text
    except ValueError:
        return False


def _known_game(game: str, kind: Kind) -> None:
    """`kind` says what an unknown game is: the resource asked for ("not-found") or a bad filter."""
    if game not in GAMES:
        raise ServiceError(kind, "unknown-game", f"no game {game!r}; the catalog has {sorted(GAMES)}")


def _entry(rank: int, record: PlayerGameRecord, person: Person) -> LeaderboardEntry:
    return LeaderboardEntry(
        rank=rank,
        player_id=person.player_id or "",
        name=person.name,
        rating=record.rating,
        mu=record.mu,
        sigma=record.sigma,
        played=record.played,
        wins=record.wins,
        rated_games=record.rated_games,
        display_name=person.name or person.player_id or "",
    )


def _player_game(record: PlayerGameRecord) -> PlayerGameStats:
    return PlayerGameStats(
        game=record.game,
        played=record.played,
        wins=record.wins,
        win_rate=record.wins / record.played,
        mean_score=record.score_sum / record.played,
        best_score=record.best_score,
        rating=record.rating,
        mu=record.mu,
        sigma=record.sigma,
        rated_games=record.rated_games,
        resigned=record.resigned,
    )


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _game_stats(record: GameStatsRecord) -> GameStats:
    return GameStats(
        game=record.game,
        games=record.games,
        player_games=record.player_games,
        mean_score=record.score_sum / record.player_games if record.player_games else None,
        mean_winning_score=record.winning_score_sum / record.games if record.games else None,
        resigned_seats=record.resigned_seats,
        score_distribution=[ScoreCount(score=s, seats=n) for s, n in sorted(record.score_counts.items())],
        win_rate_by_seat=[
            SeatWinRate(
                players=seat.players,
                seat=seat.seat,
                games=seat.games,
                wins=seat.wins,
                win_rate=_ratio(seat.wins, seat.games),
            )
            for seat in sorted(record.seats, key=lambda s: (s.players, s.seat))
        ],
        points_per_category=[
            CategoryPoints(category=category, points=points, mean_per_player=_ratio(points, record.player_games))
            for category, points in sorted(record.category_points.items())
        ],
        pick_rates=[
            CardPicks(
                slug=slug,
                picks=picks,
                pick_rate=_ratio(picks, record.picks),
                picks_per_player=_ratio(picks, record.player_games),
            )
            for slug, picks in sorted(record.card_picks.items(), key=lambda item: (-item[1], item[0]))
        ],
    )
