"""What each operation takes and answers, as the types the services build and the API decodes.

Litestar lays out the paths and parameters from the routes; the schemas of bodies and answers are
stated here, because they are unions over the games (a table view is one game's table view, told
apart by `game`) that the route signatures cannot say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import msgspec

from kaiten.api.contract.views import TypedMatchPage, views_of
from kaiten.api.routes.admin import NewApp, QuotaChanges, Rotation
from kaiten.api.routes.players import PlayerWebhookRequest
from kaiten.api.routes.queues import JoinQueueRequest
from kaiten.api.routes.seasons import DefineSeasonRequest
from kaiten.api.schemas import (
    CreateGameRequest,
    Health,
    Invitation,
    TakeSeatRequest,
    TypedCatalog,
    WebhookRequest,
    catalog_types,
)
from kaiten.domain.catalog import GAMES
from kaiten.domain.engine import AnyGame
from kaiten.services.apps import AppList, AppView, IssuedKey
from kaiten.services.matchmaking import QueueEntry
from kaiten.services.players import PlayerItem, PlayerToken, PlayerTokenRequest
from kaiten.services.scoring import ScoreResponse
from kaiten.services.seasons import Season, SeasonList
from kaiten.services.seats import SeatGranted
from kaiten.services.stats import GameStats, Leaderboard, PlayerStats, RatingHistory
from kaiten.services.stream_tickets import StreamTicket
from kaiten.services.webhooks import Deliveries, PlayerWebhook, PlayerWebhookList, Webhook, WebhookList

#: The credentials an operation takes, each an HTTP bearer security scheme of the document.
Credential = Literal["appKey", "seatToken", "playerToken", "invitationCode", "adminKey"]


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
    #: Whether a request must send the body (else every field has its default).
    body_required: bool = True
    #: The credentials it takes, and whether a caller without one may call it (`anonymous`).
    credentials: tuple[Credential, ...] = ()
    anonymous: bool = True
    #: Who may call it and what each credential gets, for people (added to its description).
    who: str = ""
    #: Answers carry `ETag: "<version>-<digest>"` and `If-None-Match` with that tag answers 304.
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

#: Who may read one game, and as whom.
GAME_READERS: dict[str, Any] = {
    "credentials": ("appKey", "seatToken", "invitationCode"),
    "who": (
        "A seat token sees its seat's view; the game's app key, an invitation code of the game, or no "
        "credential at all (public games only) see the spectator's view. Another app's key, or no "
        "credential for a private game, gets 404 as for a game that does not exist."
    ),
}
#: Operations only a seat may call.
SEATS: dict[str, Any] = {
    "credentials": ("seatToken", "playerToken"),
    "anonymous": False,
    "who": "The seat's token acts for its seat; a player token for the seat its player holds in the game.",
}
#: A player's own stream: their token, or their app's key.
PLAYER_FOLLOWERS: dict[str, Any] = {
    "credentials": ("playerToken", "appKey"),
    "anonymous": False,
    "who": (
        "A player token follows its own player; the app's key any of its players. Another player, another "
        "app's player and a player never seen answer 404 alike."
    ),
}
#: Webhooks on a player's stream: the app's own.
PLAYER_HOOKS: dict[str, Any] = {
    "credentials": ("appKey",),
    "who": (
        "The app's key, for its own players (on an open server a caller without one acts as the built-in "
        "app); another app's player and a player never seen answer 404 alike; a player token is refused."
    ),
}
#: Operations of an app on its own records.
APPS: dict[str, Any] = {
    "credentials": ("appKey",),
    "who": (
        "An app key, for the app's own records; on an open server (`/ready` says `auth: open`) a caller "
        "without one acts as the built-in app."
    ),
}
#: The app's own history and statistics, or what anybody may see.
HISTORY: dict[str, Any] = {
    "credentials": ("appKey",),
    "who": (
        "With an app key, the app's own records, its private games included; without one, the built-in "
        "app's public games and the statistics and ratings of those alone."
    ),
}
WEBHOOK_OWNERS: dict[str, Any] = {
    "credentials": ("appKey", "seatToken"),
    "anonymous": False,
    "who": "A seat's token, for that seat's webhooks; the game's app key, for the app's own (`seat` null).",
}
ADMIN: dict[str, Any] = {
    "credentials": ("adminKey",),
    "anonymous": False,
    "who": "The server's admin key (`KAITEN_ADMIN_KEY`); a server without one answers 404.",
}

#: A player's place in a matchmaking queue.
QUEUERS: dict[str, Any] = {
    "credentials": ("appKey", "playerToken"),
    "who": (
        "An app key acts for any of the app's players, a player token for its own player alone (another "
        "player's entry answers 404 as a missing one, a join for another player 403); on an open server "
        "(`/ready` says `auth: open`) a caller without either acts as the built-in app. Another app's "
        "entries answer 404 as missing ones."
    ),
}

OPERATIONS: dict[str, Operation] = {
    "createGame": Operation(
        body=per_game(create_request),
        answers=(Answer(201, per_game(lambda game: views_of(game.id).created), "The new game's table"),),
        **APPS,
    ),
    "takeSeat": Operation(
        body=(TakeSeatRequest,),
        answers=(Answer(201, (SeatGranted,), "The seat taken"),),
        credentials=("appKey",),
        who=(
            "The game's app key seats anybody (a player_id, a bot); an `invitation` in the body seats a "
            "guest (a name only) without one. On an open server a caller without a key seats anybody in "
            "the built-in app's public games."
        ),
    ),
    "createInvitation": Operation(
        answers=(Answer(201, (Invitation,), "The invitation; its code is shown only now"),), **SEATS
    ),
    "revokeInvitation": Operation(answers=(Answer(204, (), "Revoked"),), **SEATS),
    "leaveSeat": Operation(answers=(Answer(204, (), "The seat is free again"),), **SEATS),
    "createRematch": Operation(
        answers=(
            Answer(201, per_game(lambda game: views_of(game.id).created), "The rematch, created now"),
            Answer(200, per_game(lambda game: views_of(game.id).created), "The rematch asked for before"),
        ),
        **SEATS,
    ),
    "getTable": Operation(answers=(TABLE,), conditional=True, **GAME_READERS),
    "replayGame": Operation(answers=(Answer(200, TABLES, "The table right after that version"),), **GAME_READERS),
    "listLegalCommands": Operation(
        answers=(Answer(200, per_game(lambda game: views_of(game.id).legal), "Every command the seat may send"),),
        conditional=True,
        **SEATS,
    ),
    "sendCommand": Operation(
        body=per_game(lambda game: game.command_type),
        answers=(Answer(200, per_game(lambda game: views_of(game.id).outcome), "The events the command led to"),),
        **SEATS,
    ),
    "resignSeat": Operation(
        answers=(
            Answer(200, per_game(lambda game: views_of(game.id).outcome), "The resignation and what followed it"),
        ),
        **SEATS,
    ),
    "listEvents": Operation(
        answers=(Answer(200, per_game(lambda game: views_of(game.id).events), "A page of the log"),),
        conditional=True,
        **GAME_READERS,
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
        **GAME_READERS,
    ),
    "createStreamTicket": Operation(
        answers=(Answer(201, (StreamTicket,), "The ticket: pass it as `?ticket=` to streamEvents, once, in 60 s"),),
        credentials=("seatToken", "playerToken", "invitationCode", "appKey"),
        anonymous=False,
        who=(
            "A seat's token (or a player token, for its player's seat) gets a ticket to follow the game as that "
            "seat; an invitation code of the game, or "
            "its app's key, one to follow it as a spectator (a private game's only way for a browser)."
        ),
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
    "listGames": Operation(answers=(Answer(200, (TypedMatchPage,), "A page of the match history"),), **HISTORY),
    "getPlayerStats": Operation(answers=(Answer(200, (PlayerStats,), "The player's statistics per game"),), **HISTORY),
    "getGameStats": Operation(answers=(Answer(200, (GameStats,), "The game's statistics"),), **HISTORY),
    "getLeaderboard": Operation(answers=(Answer(200, (Leaderboard,), "The rated players, best first"),), **HISTORY),
    "getPlayerRatingHistory": Operation(
        answers=(Answer(200, (RatingHistory,), "The player's rated games, newest first"),), **HISTORY
    ),
    "erasePlayer": Operation(answers=(Answer(204, (), "Erased"),), **APPS),
    "createPlayerToken": Operation(
        body=(PlayerTokenRequest,),
        body_required=False,
        answers=(Answer(201, (PlayerToken,), "The token, shown only now"),),
        **APPS,
    ),
    "createPlayerStreamTicket": Operation(
        answers=(Answer(201, (StreamTicket,), "The ticket: pass it as `?ticket=` to streamPlayer, once, in 60 s"),),
        **PLAYER_FOLLOWERS,
    ),
    "streamPlayer": Operation(
        answers=(
            Answer(
                200,
                (),
                "Server-Sent Events: each item's `event` is its type, its `id` its number, its `data` a PlayerItem",
                "text/event-stream",
                events_of=(PlayerItem,),
            ),
        ),
        **PLAYER_FOLLOWERS,
    ),
    "createPlayerWebhook": Operation(
        body=(PlayerWebhookRequest,), answers=(Answer(201, (PlayerWebhook,), "The webhook"),), **PLAYER_HOOKS
    ),
    "listPlayerWebhooks": Operation(
        answers=(Answer(200, (PlayerWebhookList,), "The player's webhooks, oldest first"),), **PLAYER_HOOKS
    ),
    "listPlayerWebhookDeliveries": Operation(
        answers=(Answer(200, (Deliveries,), "The deliveries and their attempts"),), **PLAYER_HOOKS
    ),
    "deletePlayerWebhook": Operation(answers=(Answer(204, (), "Removed"),), **PLAYER_HOOKS),
    "exportLog": Operation(
        answers=(Answer(200, per_game(lambda game: views_of(game.id).log), "The finished game's whole log"),),
        **GAME_READERS,
    ),
    "importLog": Operation(
        body=per_game(lambda game: views_of(game.id).log),
        answers=(
            Answer(201, TABLES, "The imported game's table: a new finished game, with `imported_from`"),
            Answer(200, TABLES, "The game this app imported from the very same log before"),
        ),
        **APPS,
    ),
    "createWebhook": Operation(
        body=(WebhookRequest,), answers=(Answer(201, (Webhook,), "The webhook"),), **WEBHOOK_OWNERS
    ),
    "listWebhooks": Operation(
        answers=(Answer(200, (WebhookList,), "The caller's webhooks in the game, oldest first"),), **WEBHOOK_OWNERS
    ),
    "listWebhookDeliveries": Operation(
        answers=(Answer(200, (Deliveries,), "The deliveries and their attempts"),), **WEBHOOK_OWNERS
    ),
    "deleteWebhook": Operation(answers=(Answer(204, (), "Removed"),), **WEBHOOK_OWNERS),
    "createApp": Operation(
        body=(NewApp,), answers=(Answer(201, (IssuedKey,), "The app and its first key, shown only now"),), **ADMIN
    ),
    "listApps": Operation(answers=(Answer(200, (AppList,), "Every app, oldest first"),), **ADMIN),
    "getApp": Operation(answers=(Answer(200, (AppView,), "The app"),), **ADMIN),
    "setAppQuotas": Operation(
        body=(QuotaChanges,), answers=(Answer(200, (AppView,), "The app, with its quotas"),), **ADMIN
    ),
    "rotateAppKey": Operation(
        body=(Rotation,), answers=(Answer(201, (IssuedKey,), "The app and its new key, shown only now"),), **ADMIN
    ),
    "revokeAppKeys": Operation(answers=(Answer(200, (AppView,), "The app, every key revoked"),), **ADMIN),
    "health": Operation(answers=(Answer(200, (Health,), "The process is up"),)),
    "ready": Operation(answers=(Answer(200, (Health,), "The database is reachable and migrated"),)),
    "joinQueue": Operation(
        body=(JoinQueueRequest,),
        answers=(Answer(201, (QueueEntry,), "The entry: waiting, or matched already"),),
        **QUEUERS,
    ),
    "getQueueEntry": Operation(
        answers=(Answer(200, (QueueEntry,), "The entry: once matched, with its game, seat and seat token"),),
        **QUEUERS,
    ),
    "leaveQueue": Operation(answers=(Answer(204, (), "The entry left the queue (or had left it)"),), **QUEUERS),
    "defineSeason": Operation(
        body=(DefineSeasonRequest,),
        answers=(
            Answer(201, (Season,), "The season, defined now"),
            Answer(200, (Season,), "The season as it stood: the same definition was sent before"),
        ),
        **APPS,
    ),
    "getSeason": Operation(answers=(Answer(200, (Season,), "The season"),), **HISTORY),
    "listSeasons": Operation(answers=(Answer(200, (SeasonList,), "The app's seasons, latest start first"),), **HISTORY),
}
