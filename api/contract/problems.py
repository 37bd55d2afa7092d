"""Every failure an operation can answer, by status and stable `code` (RFC 9457 problem details).

The lists are declared here, where a reader finds them; tests/unit/test_problem_codes.py derives
the codes from the code that raises them (every `RuleViolation` and `ServiceError`) and fails when
the two disagree, so neither can drift from the other.
"""

from __future__ import annotations

from msgspec import UNSET, Struct, UnsetType


class FieldError(Struct, frozen=True):
    #: The field, as a path into the body (`seats[0].name`) or a parameter's name (`after`).
    field: str
    message: str


class Problem(Struct, frozen=True, omit_defaults=True):
    """RFC 9457 problem details, with the stable `code` a client switches on."""

    #: `urn:kaiten:problem:<code>`.
    type: str
    title: str
    status: int
    #: A sentence for people; it never repeats more than a few hundred characters of the request.
    detail: str
    code: str
    #: The path of the request.
    instance: str
    #: Validation problems only: each invalid field with a plain message.
    errors: list[FieldError] | UnsetType = UNSET
    #: A refused log only (importLog): the version of the first event that fails, null when the
    #: body is no log at all.
    version: int | UnsetType | None = UNSET


#: Answers any operation may give: a request the server cannot read, too many requests (from the
#: caller's address or seat, or over its app's quota), a database out of reach, or every database
#: connection of the serving process in use for as long as a request waits for one.
EVERY_OPERATION: dict[int, tuple[str, ...]] = {
    400: ("malformed-request",),
    429: ("rate-limited", "requests-per-minute"),
    503: ("database-unavailable", "database-busy"),
}

LOBBY_CODES = (
    "invalid-name",
    "invalid-player-id",
    "invalid-salt",
    "invalid-player-count",
    "invalid-options",
    "too-many-seats",
    "unknown-bot",
    "invalid-seat",
    "invalid-visibility",
)
PARTY_MENU_CODES = ("unknown-menu", "invalid-menu", "menu-not-for-player-count", "card-not-for-player-count")
GAME_ID = {404: ("game-not-found",)}
#: A credential that does not work: a header that is no Bearer, an app key unknown, revoked or expired,
#: a player token unknown or expired (or its player erased).
BAD_CREDENTIAL = ("invalid-token", "invalid-app-key", "invalid-player-token")
OPTIONAL_TOKEN = {401: BAD_CREDENTIAL}
#: Only a seat may call it: an app key is told to send the seat's token.
REQUIRED_TOKEN = {401: ("missing-token", *BAD_CREDENTIAL), 403: ("seat-token-required",)}
#: An app's write: on a server that needs keys, no key is refused.
APP_WRITE = {401: ("app-key-required", *BAD_CREDENTIAL), 403: ("player-token-refused",)}
ADMIN: dict[int, tuple[str, ...]] = {401: ("invalid-admin-key",), 404: ("not-found",)}

#: The rules' refusals of a command, by game (422), and those that mean "not now" (409).
RULE_CODES: dict[str, tuple[str, ...]] = {
    "sushi-go": ("already-picked", "card-not-in-hand", "invalid-command", "no-chopsticks", "unknown-card"),
    "sushi-go-party": (
        "already-picked",
        "cannot-copy",
        "cannot-flip",
        "cannot-play-menu",
        "card-does-not-match",
        "card-not-drawn",
        "card-not-in-hand",
        "card-not-in-tableau",
        "chopsticks-need-a-card",
        "duplicate-card",
        "invalid-command",
        "invalid-menu",
        "not-callable",
        "not-on-menu",
        "unexpected-command",
        "unknown-card",
        "unknown-menu",
        "card-not-for-player-count",
        "menu-not-for-player-count",
    ),
    "spin-some-for-dim-sum": (
        "empty-basket",
        "invalid-command",
        "invalid-steps",
        "no-squishy-bun",
        "no-tokens",
        "not-enough-tokens",
        "target-basket-empty",
    ),
    "dim-sum-derby": (
        "arrange-pending",
        "card-not-in-hand",
        "cart-empty",
        "derby-deck-empty",
        "derby-hand-full",
        "dish-full",
        "dish-has-markers",
        "dish-not-on-table",
        "invalid-arrangement",
        "invalid-command",
        "invalid-target",
        "no-marker-on-dish",
        "no-markers-left",
        "not-enough-actions",
        "not-enough-markers",
        "not-enough-room",
        "nothing-to-arrange",
        "same-dish",
        "table-full",
        "unknown-card",
        "yen-deck-empty",
        "yen-has-portions",
        "yen-not-yours",
    ),
}
#: The rules' "not now" (domain.engine.NotNow, 409): the client may retry after a change.
NOT_NOW = ("not-your-turn", "game-finished", "game-not-started", "game-abandoned", "seat-resigned")
SCORE_CODES = ("invalid-score-request", "unknown-card", "not-a-dessert", "invalid-player-count", "invalid-yen")


#: Why a log is refused (services/logs.py); the problem names the first failing `version`.
IMPORT_CODES = (
    "invalid-log",
    "unknown-format",
    "version-gap",
    "not-game-created",
    "unknown-game",
    "unknown-rules-version",
    "rules-version-mismatch",
    "game-mismatch",
    "unknown-event-type",
    "unknown-schema-version",
    "invalid-event",
    "does-not-fold",
    "events-after-the-end",
    "log-not-finished",
    "seed-mismatch",
    "result-mismatch",
    "too-many-events",
    "invalid-text",
    "import-not-reproducible",
    "invalid-name",
    "invalid-player-id",
)


def _all_rule_codes() -> tuple[str, ...]:
    return tuple(sorted({code for codes in RULE_CODES.values() for code in codes}))


#: A new game with bots, refused while its app's bots spent their CPU time of the minute, or while the
#: server owes more bot moves than its workers can soon make (services/bot_moves.py).
BOT_LOAD = ("bot-cpu-seconds-per-minute", "bots-busy")

#: Each operation's problems beyond EVERY_OPERATION, by status.
OPERATION_PROBLEMS: dict[str, dict[int, tuple[str, ...]]] = {
    "createGame": {
        **APP_WRITE,
        422: ("unknown-game", *LOBBY_CODES, *PARTY_MENU_CODES),
        429: ("games-per-hour", "open-games", *BOT_LOAD),
    },
    "takeSeat": {
        **GAME_ID,
        **APP_WRITE,
        403: ("invitation-required", "invalid-invitation"),
        409: ("game-full",),
        422: ("unknown-bot", "invalid-seat", "invalid-name", "invalid-player-id"),
        429: BOT_LOAD,
        503: ("too-much-contention",),
    },
    "leaveSeat": {
        **GAME_ID,
        **REQUIRED_TOKEN,
        409: ("game-started", "game-finished", "game-abandoned", "too-many-lobby-events"),
        503: ("too-much-contention",),
    },
    "createInvitation": {
        **GAME_ID,
        **REQUIRED_TOKEN,
        409: ("game-finished", "too-many-lobby-events"),
        503: ("too-much-contention",),
    },
    "revokeInvitation": {
        **GAME_ID,
        **REQUIRED_TOKEN,
        409: ("game-finished", "too-many-lobby-events"),
        422: ("unknown-invitation",),
        503: ("too-much-contention",),
    },
    "createRematch": {
        **GAME_ID,
        **REQUIRED_TOKEN,
        409: ("game-not-finished", "game-finished", "too-many-lobby-events"),
        422: (*LOBBY_CODES, *PARTY_MENU_CODES),
        429: ("games-per-hour", "open-games", *BOT_LOAD),
        503: ("too-much-contention",),
    },
    "getTable": {**GAME_ID, **OPTIONAL_TOKEN},
    "listLegalCommands": {**GAME_ID, **REQUIRED_TOKEN},
    "sendCommand": {
        **GAME_ID,
        **REQUIRED_TOKEN,
        409: ("version-conflict", "idempotency-key-reused", *NOT_NOW),
        422: ("invalid-if-match", "invalid-idempotency-key", *_all_rule_codes()),
        503: ("too-much-contention",),
    },
    "resignSeat": {
        **GAME_ID,
        **REQUIRED_TOKEN,
        409: ("game-not-started", "game-finished", "game-abandoned", "seat-resigned", "idempotency-key-reused"),
        422: ("invalid-idempotency-key",),
        503: ("too-much-contention",),
    },
    "listEvents": {**GAME_ID, **OPTIONAL_TOKEN, 422: ("invalid-page",)},
    "streamEvents": {
        **GAME_ID,
        401: (*BAD_CREDENTIAL, "invalid-ticket"),
        422: ("invalid-last-event-id", "invalid-stream-position"),
    },
    "createStreamTicket": {**GAME_ID, 401: ("missing-token", *BAD_CREDENTIAL)},
    "replayGame": {
        404: ("game-not-found", "version-out-of-range"),
        **OPTIONAL_TOKEN,
        403: ("seat-not-yours",),
        422: ("invalid-seat",),
    },
    "listCatalog": {},
    "getCatalogGame": {404: ("unknown-game",)},
    "scoreTableaus": {404: ("unknown-game",), 422: SCORE_CODES},
    "listGames": {
        **OPTIONAL_TOKEN,
        422: ("unknown-game", "invalid-status", "invalid-player-id", "invalid-page", "invalid-cursor"),
        503: ("history-unavailable",),
    },
    "getPlayerStats": {**OPTIONAL_TOKEN, 422: ("invalid-player-id",), 503: ("history-unavailable",)},
    "getGameStats": {**OPTIONAL_TOKEN, 404: ("unknown-game",), 503: ("history-unavailable",)},
    "getLeaderboard": {
        **OPTIONAL_TOKEN,
        404: ("unknown-game", "season-not-found"),
        422: ("invalid-page", "invalid-cursor", "invalid-season-id"),
        503: ("history-unavailable",),
    },
    "getPlayerRatingHistory": {
        **OPTIONAL_TOKEN,
        404: ("unknown-game",),
        422: ("invalid-player-id", "invalid-page", "invalid-cursor"),
        503: ("history-unavailable",),
    },
    "erasePlayer": {**APP_WRITE, 404: ("player-not-found",), 422: ("invalid-player-id",)},
    "createPlayerToken": {**APP_WRITE, 422: ("invalid-player-id", "invalid-expiry")},
    "createPlayerStreamTicket": {
        401: ("missing-token", *BAD_CREDENTIAL),
        404: ("player-not-found",),
        422: ("invalid-player-id",),
    },
    "streamPlayer": {
        401: ("missing-token", *BAD_CREDENTIAL, "invalid-ticket"),
        404: ("player-not-found",),
        422: ("invalid-player-id", "invalid-last-event-id", "invalid-stream-position"),
    },
    "createPlayerWebhook": {
        **APP_WRITE,
        404: ("player-not-found",),
        422: ("invalid-player-id", "webhook-url-refused"),
        503: ("webhooks-unavailable",),
    },
    "listPlayerWebhooks": {
        **APP_WRITE,
        404: ("player-not-found",),
        422: ("invalid-player-id",),
        503: ("webhooks-unavailable",),
    },
    "listPlayerWebhookDeliveries": {
        **APP_WRITE,
        404: ("player-not-found", "webhook-not-found"),
        422: ("invalid-player-id", "invalid-page"),
        503: ("webhooks-unavailable",),
    },
    "deletePlayerWebhook": {
        **APP_WRITE,
        404: ("player-not-found", "webhook-not-found"),
        422: ("invalid-player-id",),
        503: ("webhooks-unavailable",),
    },
    "exportLog": {**OPTIONAL_TOKEN, 404: ("game-not-found",), 409: ("game-not-finished",)},
    "importLog": {**APP_WRITE, 422: IMPORT_CODES, 429: ("imports-per-hour",)},
    "createWebhook": {
        **GAME_ID,
        **REQUIRED_TOKEN,
        403: ("player-token-refused",),
        409: ("game-finished",),
        422: ("webhook-url-refused",),
        503: ("webhooks-unavailable",),
    },
    "listWebhooks": {**GAME_ID, **REQUIRED_TOKEN, 503: ("webhooks-unavailable",)},
    "listWebhookDeliveries": {
        404: ("game-not-found", "webhook-not-found"),
        **REQUIRED_TOKEN,
        422: ("invalid-page",),
        503: ("webhooks-unavailable",),
    },
    "deleteWebhook": {404: ("game-not-found", "webhook-not-found"), **REQUIRED_TOKEN, 503: ("webhooks-unavailable",)},
    "createApp": {**ADMIN, 409: ("app-exists",), 422: ("invalid-app-name",)},
    "listApps": ADMIN,
    "getApp": {401: ADMIN[401], 404: ("not-found", "app-not-found")},
    "setAppQuotas": {401: ADMIN[401], 404: ("not-found", "app-not-found")},
    "rotateAppKey": {401: ADMIN[401], 404: ("not-found", "app-not-found"), 422: ("invalid-grace",)},
    "revokeAppKeys": {401: ADMIN[401], 404: ("not-found", "app-not-found")},
    "health": {},
    "ready": {503: ("not-ready",)},
    "joinQueue": {
        **APP_WRITE,
        404: ("unknown-game",),
        409: ("already-queued", "idempotency-key-reused"),
        422: (
            "invalid-idempotency-key",
            "invalid-player-range",
            "invalid-options",
            *PARTY_MENU_CODES,
            "invalid-player-id",
            "invalid-name",
            "invalid-rating-window",
            "invalid-bots",
            "unknown-bot",
        ),
        503: ("matchmaking-unavailable",),
    },
    "getQueueEntry": {**APP_WRITE, 404: ("unknown-game", "queue-entry-not-found"), 503: ("matchmaking-unavailable",)},
    "leaveQueue": {
        **APP_WRITE,
        404: ("unknown-game", "queue-entry-not-found"),
        409: ("queue-entry-matched",),
        503: ("matchmaking-unavailable",),
    },
    "defineSeason": {
        **APP_WRITE,
        409: ("season-exists",),
        422: ("invalid-season-id", "invalid-season-name", "invalid-season-window"),
        429: ("too-many-seasons",),
        503: ("seasons-unavailable",),
    },
    "getSeason": {
        **OPTIONAL_TOKEN,
        404: ("season-not-found",),
        422: ("invalid-season-id",),
        503: ("seasons-unavailable",),
    },
    "listSeasons": {**OPTIONAL_TOKEN, 503: ("seasons-unavailable",)},
}


def problems_of(operation_id: str) -> dict[int, tuple[str, ...]]:
    """Every problem the operation may answer, by status, each code once."""
    merged: dict[int, list[str]] = {}
    for problems in (EVERY_OPERATION, OPERATION_PROBLEMS[operation_id]):
        for status, codes in problems.items():
            merged.setdefault(status, []).extend(code for code in codes if code not in merged.get(status, []))
    return {status: tuple(codes) for status, codes in sorted(merged.items())}
