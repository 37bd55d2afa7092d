"""What each operation takes and answers, as the types the services build and the API decodes.

Litestar lays out the paths and parameters from the routes; the schemas of bodies and answers are
stated here, because they are unions over the games (a table view is one game's table view, told
apart by `game`) that the route signatures cannot say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import msgspec

from api.schemas import CreateGameRequest, Health, TakeSeatRequest, TypedCatalog, WebhookRequest, catalog_types
from domain.catalog import GAMES
from domain.engine import AnyGame
from services.history_views import GameStats, Leaderboard, PlayerStats, TypedMatchPage
from services.scoring import ScoreResponse
from services.stream_tickets import StreamTicket
from services.views import Invitation, SeatGranted, views_of
from services.webhooks import Deliveries, Webhook, WebhookList

Auth = Literal["none", "optional", "required"]


@dataclass(frozen=True)
class Answer:
    status: int
    #: One type, or one per game (a union the client tells apart by `game`).
    types: tuple[Any, ...]
    description: str
    media_type: str = "application/json"
    #: For `text/event-stream`: each event's `data` is JSON of one of these types.
    events_of: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Operation:
    answers: tuple[Answer, ...]
    #: The body: one type, or one per game (any of them; the path or the body names the game).
    body: tuple[Any, ...] = ()
    auth: Auth = "none"
    #: Answers carry `ETag: "<version>"` and `If-None-Match` with that tag answers 304.
    conditional: bool = False


def per_game(build: Any) -> tuple[Any, ...]:
    return tuple(build(game) for game in GAMES.values())


def create_request(game: AnyGame) -> Any:
    """The creation body for one game: the general one, its player count and options typed."""
    typed = {
        "players": Annotated[int, msgspec.Meta(ge=game.min_players, le=game.max_players)],
        "options": game.options_type,
    }
    fields: list[Any] = [
        (f.name, typed.get(f.name, f.type)) if f.required else (f.name, typed.get(f.name, f.type), _default(f))
        for f in msgspec.structs.fields(CreateGameRequest)
        if f.name != "game"
    ]
    return msgspec.defstruct(
        f"{game.type_prefix}CreateGame", fields, tag_field="game", tag=game.id, frozen=True, forbid_unknown_fields=True
    )


def _default(field: msgspec.structs.FieldInfo) -> Any:
    if field.default_factory is not msgspec.NODEFAULT:
        return msgspec.field(default_factory=field.default_factory)
    return field.default


TABLES = per_game(lambda game: views_of(game.id).table)
TABLE = Answer(200, TABLES, "The table as the caller may see it")

OPERATIONS: dict[str, Operation] = {
    "createGame": Operation(
        body=per_game(create_request),
        answers=(Answer(201, per_game(lambda game: views_of(game.id).created), "The new game's table"),),
    ),
    "takeSeat": Operation(body=(TakeSeatRequest,), answers=(Answer(201, (SeatGranted,), "The seat taken"),)),
    "createInvitation": Operation(
        answers=(Answer(201, (Invitation,), "The invitation; its code is shown only now"),), auth="required"
    ),
    "revokeInvitation": Operation(answers=(Answer(204, (), "Revoked"),), auth="required"),
    "createRematch": Operation(
        answers=(
            Answer(201, per_game(lambda game: views_of(game.id).created), "The rematch, created now"),
            Answer(200, per_game(lambda game: views_of(game.id).created), "The rematch asked for before"),
        ),
        auth="required",
    ),
    "getTable": Operation(answers=(TABLE,), auth="optional", conditional=True),
    "replayGame": Operation(answers=(Answer(200, TABLES, "The table right after that version"),), auth="optional"),
    "listLegalCommands": Operation(
        answers=(Answer(200, per_game(lambda game: views_of(game.id).legal), "Every command the seat may send"),),
        auth="required",
        conditional=True,
    ),
    "sendCommand": Operation(
        body=per_game(lambda game: game.command_type),
        answers=(Answer(200, per_game(lambda game: views_of(game.id).outcome), "The events the command led to"),),
        auth="required",
    ),
    "resignSeat": Operation(
        answers=(
            Answer(200, per_game(lambda game: views_of(game.id).outcome), "The resignation and what followed it"),
        ),
        auth="required",
    ),
    "listEvents": Operation(
        answers=(Answer(200, per_game(lambda game: views_of(game.id).events), "A page of the log"),),
        auth="optional",
        conditional=True,
    ),
    "streamEvents": Operation(
        answers=(
            Answer(
                200,
                (),
                "Server-Sent Events: each event's `id` is its version and its `data` an event view, as JSON",
                "text/event-stream",
                events_of=per_game(lambda game: views_of(game.id).event),
            ),
            Answer(204, (), "The game is over and its end was already sent"),
        ),
        auth="optional",
    ),
    "createStreamTicket": Operation(
        answers=(Answer(201, (StreamTicket,), "The ticket: pass it as `?ticket=` to streamEvents, once, in 60 s"),),
        auth="required",
    ),
    "listCatalog": Operation(answers=(Answer(200, (TypedCatalog,), "The games of the catalog"),)),
    "getCatalogGame": Operation(
        answers=(Answer(200, per_game(lambda game: catalog_types(game.id)[1]), "One game's cards, options and bots"),)
    ),
    "scoreTableaus": Operation(
        body=per_game(lambda game: game.score_request_type),
        answers=(
            Answer(
                200,
                per_game(lambda game: views_of(game.id).shown.type_of(ScoreResponse)),
                "Each player's total and breakdown",
            ),
        ),
    ),
    "listGames": Operation(answers=(Answer(200, (TypedMatchPage,), "A page of the match history"),)),
    "getPlayerStats": Operation(answers=(Answer(200, (PlayerStats,), "The player's statistics per game"),)),
    "getGameStats": Operation(answers=(Answer(200, (GameStats,), "The game's statistics"),)),
    "getLeaderboard": Operation(answers=(Answer(200, (Leaderboard,), "The rated players, best first"),)),
    "exportLog": Operation(
        answers=(Answer(200, per_game(lambda game: views_of(game.id).log), "The finished game's whole log"),)
    ),
    "importLog": Operation(
        body=per_game(lambda game: views_of(game.id).log),
        answers=(Answer(201, TABLES, "The imported game's table: a new finished game, with `imported_from`"),),
    ),
    "createWebhook": Operation(
        body=(WebhookRequest,), answers=(Answer(201, (Webhook,), "The webhook"),), auth="required"
    ),
    "listWebhooks": Operation(
        answers=(Answer(200, (WebhookList,), "The seat's webhooks, oldest first"),), auth="required"
    ),
    "listWebhookDeliveries": Operation(
        answers=(Answer(200, (Deliveries,), "The deliveries and their attempts"),), auth="required"
    ),
    "deleteWebhook": Operation(answers=(Answer(204, (), "Removed"),), auth="required"),
    "health": Operation(answers=(Answer(200, (Health,), "The process is up"),)),
    "ready": Operation(answers=(Answer(200, (Health,), "The database is reachable and migrated"),)),
}
