"""Match history, player and game statistics, and leaderboards, from the catch-up projections.

These read models trail the log by the projections' lag (normally well under a second): a game
appears in the history, and a finished game in the statistics, once its events were projected.

`GET /v1/games` (the match history) is a method of `GamesController`, which owns the path: a
handler registered apart would join the route with the controller's OPTIONS handler, whose
`Allow` header would then leave it out.
"""

from __future__ import annotations

from typing import Annotated

from litestar import delete, get
from litestar.di import NamedDependency
from litestar.openapi.spec import Example
from litestar.params import PathParameter, QueryParameter

from kaiten.api.auth import credential
from kaiten.api.request_body import KaitenRequest
from kaiten.api.routes.params import GamesDep
from kaiten.domain.lobby import Status
from kaiten.services.commands import ErasePlayer
from kaiten.services.history import MAX_PAGE, HistoryQueries
from kaiten.services.seasons import MAX_SEASON_ID
from kaiten.services.stats import GameStats, Leaderboard, PlayerStats, RatingHistory
from kaiten.services.text_rules import MAX_PLAYER_ID

LIST_DESCRIPTION = """\
Games newest first (by creation time), filtered by any of `game`, `status` and `player_id` (a game
lists under a player_id once that player took a seat in it). Pages follow `next_cursor`, which is
opaque: pages already read stay the same when games are created meanwhile (new games appear on the
first page), and the last page's `next_cursor` is null. The history is a read model that trails the
log by the projections' lag (typically a fraction of a second): `getTable` is always current.
"""

GAME_STATS_DESCRIPTION = """\
Over this game's finished games. `pick_rates` counts picks: a pick is one card a seat takes in play
(in Sushi Go! and Sushi Go Party! every card played into a tableau, whether revealed, the second card
of chopsticks, ordered from a menu or brought by a spoon; in Spin Some for Dim Sum every card taken
onto a menu; in Dim Sum Derby every portion eaten, by dish, and every Derby card played). A card's
`pick_rate` is its share of all picks (the rates of a game sum to 1), `picks_per_player` the copies
one seat takes per game on average.
"""

PLAYER_STATS_DESCRIPTION = """\
Players are the `player_id`s given in the seats: bots and seats without a player_id count in the
game statistics but in no player's. A player seated more than once in one game counts it once, with
their best seat. Ratings are openskill's Plackett-Luce model, updated once per finished game between
the player_ids at its table (by place: the winners first, then by total), so a game against bots
alone leaves the rating as it was; `rating` is the conservative mu - 3 sigma, and leaderboards list
the players with at least one rated game.
"""

LEADERBOARD_DESCRIPTION = (
    PLAYER_STATS_DESCRIPTION
    + """
Rows run by rating, best first; players of equal rating keep one order (by an internal id), so a
page never repeats nor skips a player of a tie. Pages follow `next_cursor` (opaque; null on the last
page); `rank` counts on from the page before. A cursor holds its place while ratings move: the next
page starts after the last row's rating as it was, so a player whose rating moved meanwhile may show
twice or not at all, as on any live leaderboard. Each row names the player by `display_name` (the
name they last sat down with, else their player_id). Erased players are never shown. With `season`
(a season of the caller's app: defineSeason), the ratings are the season's: its games alone, every
player starting anew; an unknown season answers 404 `season-not-found`.
"""
)


ERASE_DESCRIPTION = """\
For an app honouring its user's erasure request (its key; an open server's built-in app without
one). The player's id and name leave every answer, read model and export at once on this server
process (within a second on others): their seats show a neutral label (`"Player 2"`, `erased:
true`). Their games stay and replay to the same results, because the log never held the name or the
id, only an opaque reference to them, whose row this deletes. The player's anonymous ratings stay
too, so that nobody else's change, but no leaderboard shows them. Another app's player, like a
player never seen, answers 404 `player-not-found`.
"""


def one_example(value: str) -> list[Example]:
    return [Example(id=value, summary=value, value=value)]


HistoryDep = NamedDependency[HistoryQueries]
GAME_DESCRIPTION = "A game id of the catalog"
PLAYER_DESCRIPTION = "The integrating app's user id, as given in the seats"
GameName = Annotated[str, PathParameter(description=GAME_DESCRIPTION, max_length=64, examples=one_example("sushi-go"))]
#: The match history's filters and page (`GamesController.list_games` serves it).
GameFilter = Annotated[
    str | None, QueryParameter(description=GAME_DESCRIPTION, max_length=64, examples=one_example("sushi-go"))
]
StatusFilter = Annotated[Status | None, QueryParameter(examples=one_example("finished"))]
PlayerFilter = Annotated[
    str | None,
    QueryParameter(description=PLAYER_DESCRIPTION, max_length=MAX_PLAYER_ID, examples=one_example("app-user-17")),
]
PageLimit = Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)]
Cursor = Annotated[
    str | None,
    QueryParameter(
        description="The last page's `next_cursor`",
        max_length=200,
        # Stated in the schema, checked by `decode_cursor` (whose refusal has its own code).
        schema_extra={"pattern": "^[A-Za-z0-9_-]+$"},
    ),
]
#: A leaderboard's cursor names a rating and a person: longer than the history's.
BoardCursor = Annotated[
    str | None,
    QueryParameter(
        description="The last page's `next_cursor`",
        max_length=400,
        schema_extra={"pattern": "^[A-Za-z0-9_-]+$"},
    ),
]
SeasonFilter = Annotated[
    str | None,
    QueryParameter(
        description="A season of the caller's app (defineSeason): the ratings in its games alone",
        max_length=MAX_SEASON_ID,
        # Stated in the schema, checked by the service (whose refusal has its own code).
        schema_extra={"pattern": "^[A-Za-z0-9][A-Za-z0-9._-]*$"},
    ),
]
PlayerId = Annotated[
    str, PathParameter(description=PLAYER_DESCRIPTION, max_length=MAX_PLAYER_ID, examples=one_example("app-user-17"))
]


@get(
    "/v1/players/{player_id:str}/stats",
    operation_id="getPlayerStats",
    summary="A player's finished games, wins, scores and rating, per game",
    description=PLAYER_STATS_DESCRIPTION,
    tags=["history"],
)
async def player_stats(history: HistoryDep, request: KaitenRequest, player_id: PlayerId) -> PlayerStats:
    caller = credential(request)
    return await history.player_stats(player_id, caller)


@get(
    "/v1/stats/{game:str}",
    operation_id="getGameStats",
    summary="A game's statistics: scores, seats, categories and pick rates",
    description=GAME_STATS_DESCRIPTION,
    tags=["history"],
)
async def game_stats(history: HistoryDep, request: KaitenRequest, game: GameName) -> GameStats:
    caller = credential(request)
    return await history.game_stats(game, caller)


@get(
    "/v1/leaderboard/{game:str}",
    operation_id="getLeaderboard",
    summary="A game's rated players, best rating first, a page at a time",
    description=LEADERBOARD_DESCRIPTION,
    tags=["history"],
)
async def leaderboard(
    history: HistoryDep,
    request: KaitenRequest,
    game: GameName,
    limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = 10,
    cursor: BoardCursor = None,
    season: SeasonFilter = None,
) -> Leaderboard:
    caller = credential(request)
    return await history.leaderboard(game, limit, caller, cursor, season)


RATING_HISTORY_DESCRIPTION = """\
The player's rating in this game of the catalog after each finished game that moved it (a game with
another player_id at the table), newest first: the game, when it finished, the conservative rating
(mu - 3 sigma) before and after it, and openskill's mu and sigma after it. `rated_game` numbers
them from 1, in the order the ratings were folded (the log's), so a page's `rating_before` is the
`rating_after` of the row below it. Pages follow `next_cursor` (opaque; null on the last page); games
rated meanwhile appear on the first page only. Like the statistics, it is the caller's app's own
(without its key, the built-in app's public games): another app's player, an erased player and a
player who never played answer an empty list.
"""


@get(
    "/v1/players/{player_id:str}/ratings/{game:str}",
    operation_id="getPlayerRatingHistory",
    summary="A player's rating after each rated game of one game, newest first, a page at a time",
    description=RATING_HISTORY_DESCRIPTION,
    tags=["history"],
)
async def rating_history(
    history: HistoryDep,
    request: KaitenRequest,
    player_id: PlayerId,
    game: GameName,
    limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = 20,
    cursor: Cursor = None,
) -> RatingHistory:
    caller = credential(request)
    return await history.rating_history(player_id, game, caller, limit, cursor)


@delete(
    "/v1/players/{player_id:str}",
    operation_id="erasePlayer",
    summary="Erase a player: their id and name leave every answer; their games stay",
    description=ERASE_DESCRIPTION,
    tags=["history"],
)
async def erase_player(games: GamesDep, request: KaitenRequest, player_id: PlayerId) -> None:
    caller = credential(request)
    await games.erase_player(ErasePlayer(player_id, caller))


HISTORY_HANDLERS = (player_stats, rating_history, game_stats, leaderboard, erase_player)
