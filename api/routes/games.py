"""Playing: create a game, take seats, send commands, read the table, the log and its replays."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Response, get, post
from litestar.params import HeaderParameter, JSONBody, QueryParameter

from kaiten.api.auth import credential, presented, seat_token
from kaiten.api.conditional import IfNoneMatch, MinVersion, conditional, parse_if_match, seen_version
from kaiten.api.contract import presenting
from kaiten.api.contract.views import CommandOutcome, CreatedGame, EventPage, LegalCommands, MatchPage, TableView
from kaiten.api.request_body import KaitenRequest
from kaiten.api.routes.allow import options_allowing
from kaiten.api.routes.history import (
    LIST_DESCRIPTION,
    Cursor,
    GameFilter,
    HistoryDep,
    PageLimit,
    PlayerFilter,
    StatusFilter,
)
from kaiten.api.routes.params import GameId, GamesDep
from kaiten.api.schemas import CreateGameRequest, TakeSeatRequest
from kaiten.domain.catalog import GAMES
from kaiten.services.commands import Act, GetTable, ListEvents, ListLegalCommands, ReplayGame, Resign, TakeSeat
from kaiten.services.errors import ServiceError
from kaiten.services.ports import MAX_VERSION
from kaiten.services.reading import MAX_EVENTS_PAGE
from kaiten.services.seats import SeatGranted

MAX_KEY_LENGTH = 200
#: The highest seat number of any game of the catalog.
MAX_SEAT = max(game.max_players for game in GAMES.values()) - 1


def check_idempotency_key(value: str | None) -> str | None:
    if value is not None and not 1 <= len(value) <= MAX_KEY_LENGTH:
        raise ServiceError(
            "invalid", "invalid-idempotency-key", f"Idempotency-Key takes 1..{MAX_KEY_LENGTH} characters"
        )
    return value


IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        required=False,
        description="a retry returns the first answer",
        # Stated in the schema, checked by `check_idempotency_key` (whose refusal has its own code).
        schema_extra={"minLength": 1, "maxLength": MAX_KEY_LENGTH},
    ),
]


class GamesController(Controller):
    path = "/v1/games"
    tags = ["games"]

    @post(
        "/",
        operation_id="createGame",
        summary="Create a game, optionally filling seats",
        description=(
            "Answers once the game is created: bots seated in it move afterwards, in the background, each "
            "move an append of its own (a game of bots only is `active` in this answer and plays to its end "
            "without anyone), seen through `getTable`, `streamEvents` and webhooks like any other move. "
            "`awaiting` lists the seats, bots included, still to move."
        ),
    )
    async def create_game(
        self, games: GamesDep, request: KaitenRequest, data: JSONBody[CreateGameRequest]
    ) -> Response[CreatedGame]:
        caller = credential(request)
        created = presenting.created_game(await games.create(data.as_command(caller)))
        return Response(created, status_code=201, headers={"Location": f"/v1/games/{created.id}"})

    allowed_on_games = options_allowing("GET", "POST")

    @get(
        "/",
        operation_id="listGames",
        summary="Match history, newest first",
        description=LIST_DESCRIPTION,
        tags=["history"],
    )
    async def list_games(
        self,
        history: HistoryDep,
        request: KaitenRequest,
        game: GameFilter = None,
        status: StatusFilter = None,
        player_id: PlayerFilter = None,
        limit: PageLimit = 20,
        cursor: Cursor = None,
    ) -> MatchPage:
        caller = credential(request)
        page = await history.matches(caller, game=game, status=status, player_id=player_id, limit=limit, cursor=cursor)
        return presenting.match_page(page)

    @post("/{game_id:str}/seats", operation_id="takeSeat", summary="Seat a person or a bot", status_code=201)
    async def take_seat(
        self, games: GamesDep, game_id: GameId, request: KaitenRequest, data: JSONBody[TakeSeatRequest]
    ) -> SeatGranted:
        caller = credential(request)
        seat = TakeSeat(game_id=game_id, seat=data.as_new_seat(), invitation=data.invitation, caller=caller)
        return await games.take_seat(seat)

    @get("/{game_id:str}", operation_id="getTable", summary="The table as the caller may see it")
    async def get_table(
        self,
        games: GamesDep,
        game_id: GameId,
        request: KaitenRequest,
        if_none_match: IfNoneMatch = None,
        min_version: MinVersion = None,
    ) -> Response[TableView | None]:
        caller = credential(request)
        seen = await games.view(GetTable(game_id, caller, seen_version(if_none_match, min_version)))
        return conditional(presenting.table_view(seen), seen.version, if_none_match)

    @get(
        "/{game_id:str}/legal-commands",
        operation_id="listLegalCommands",
        summary="Every command the caller's seat may send now",
    )
    async def legal_commands(
        self,
        games: GamesDep,
        game_id: GameId,
        request: KaitenRequest,
        if_none_match: IfNoneMatch = None,
        min_version: MinVersion = None,
    ) -> Response[LegalCommands | None]:
        seat_caller = presented(request)
        seen = seen_version(if_none_match, min_version)
        legal = await games.legal_commands(
            ListLegalCommands(game_id, await seat_token(games, game_id, seat_caller), seen)
        )
        return conditional(presenting.legal_commands(legal), legal.version, if_none_match)

    @post(
        "/{game_id:str}/commands",
        operation_id="sendCommand",
        summary="Send one command for the caller's seat",
        description=(
            "Answers once this command's events are appended: `version` is the log's length after them and "
            "`events` are this command's alone. The bots it leaves awaited move afterwards, in appends of their "
            "own (follow `streamEvents`, or read the table again; its `awaiting` lists the bots still to move)."
        ),
        status_code=200,
    )
    async def send_command(
        self,
        games: GamesDep,
        game_id: GameId,
        request: KaitenRequest,
        if_match: Annotated[
            str | None,
            HeaderParameter(
                name="If-Match",
                required=False,
                description='"<version>" (or an answer\'s ETag): 409 if the game moved on',
                # Stated in the schema, checked by `parse_if_match` (whose refusal has its own code).
                schema_extra={"pattern": '^(W/)?"?[0-9]{1,10}(-[0-9a-f]{16})?"?$', "maxLength": 40},
            ),
        ] = None,
        idempotency_key: IdempotencyKey = None,
    ) -> CommandOutcome:
        seat_caller = presented(request)
        body = await request.checked_body()
        pinned, key = parse_if_match(if_match), check_idempotency_key(idempotency_key)
        token = await seat_token(games, game_id, seat_caller)
        act = Act(game_id=game_id, token=token, body=body, if_match=pinned, idempotency_key=key)
        return presenting.command_outcome(await games.act(act))

    @post(
        "/{game_id:str}/resign",
        operation_id="resignSeat",
        summary="Leave the game: the caller's seat resigns and a bot plays it to the end",
        description=(
            "Records `SeatResigned`, then `SeatTakenOver` by the greedy bot, which plays the seat from then "
            "on. The seat ranks last whatever its score, and ratings count a loss for it alone. When no "
            "person is left at the table, the game is abandoned (`GameAbandoned`) instead."
        ),
        status_code=200,
    )
    async def resign(
        self,
        games: GamesDep,
        game_id: GameId,
        request: KaitenRequest,
        idempotency_key: IdempotencyKey = None,
    ) -> CommandOutcome:
        seat_caller = presented(request)
        key = check_idempotency_key(idempotency_key)
        token = await seat_token(games, game_id, seat_caller)
        return presenting.command_outcome(await games.resign(Resign(game_id=game_id, token=token, idempotency_key=key)))

    @get("/{game_id:str}/events", operation_id="listEvents", summary="The log, redacted for the caller")
    async def list_events(
        self,
        games: GamesDep,
        game_id: GameId,
        request: KaitenRequest,
        after: Annotated[int, QueryParameter(ge=0, le=MAX_VERSION, description="versions after this one")] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_EVENTS_PAGE)] = 500,
        if_none_match: IfNoneMatch = None,
        min_version: MinVersion = None,
    ) -> Response[EventPage | None]:
        caller = credential(request)
        seen = await games.events(ListEvents(game_id, after, limit, caller, seen_version(if_none_match, min_version)))
        return conditional(presenting.event_page(seen), seen.version, if_none_match)

    @get(
        "/{game_id:str}/replay",
        operation_id="replayGame",
        summary="The table right after version `at`",
        description=(
            "As the caller's seat saw it then (a spectator without a token). Once the game is over, "
            "anyone may replay it as any seat (`as_seat`): nothing is secret any more, and a replay "
            "shows that seat's hand as it was at each version."
        ),
    )
    async def replay(
        self,
        games: GamesDep,
        game_id: GameId,
        request: KaitenRequest,
        at: Annotated[int, QueryParameter(ge=1, le=MAX_VERSION)],
        as_seat: Annotated[
            int | None,
            QueryParameter(ge=0, le=MAX_SEAT, description="the seat to see the table as (a game that is over)"),
        ] = None,
    ) -> TableView:
        caller = credential(request)
        return presenting.table_view(await games.replay(ReplayGame(game_id, at, caller, as_seat)))
