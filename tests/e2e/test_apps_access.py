"""Apps and keys (issue 24) on every route of the OpenAPI document, on SQLite and PostgreSQL.

The rules are services/access.py's: an app key's app owns what it makes, and another app's game,
webhook, player or invitation answers exactly as one that does not exist; a seat token acts for its
seat; an invitation code watches its game; no credential reads public games only and writes nothing
on a server that needs keys; history and statistics are the key's app's own, or else the built-in
app's public ones.

1. Non-interference: app B's key, and a caller without a credential, send every operation of the
   document at app A's resources, on a server where A made them (world 1) and on one where A never
   existed (world 2); the answers must be the same (once each world's own new ids, secrets and times
   are named alike), but for what the rules grant anybody: the spectator's view of A's public games.
   Nothing of A's may change meanwhile.
2. Every credential kind against every operation gets the answer the table `EXPECTED` says, which
   is always one the document lists for the operation; a refused write writes nothing.
3. Reproductions of the issue's reports.

Each test of 1 and 2 builds its own databases (a copied SQLite file, or a new PostgreSQL database),
so their history and statistics hold their own games alone; those of 3 use the fixtures' servers
with app names of their own.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from kaiten.adapters.migrate import upgrade
from kaiten.api.app import create_app
from kaiten.api.bootstrap import Services
from kaiten.api.settings import Settings, WebhookOptions
from kaiten.services.ports import PlayerTokenRecord
from kaiten.services.secrets import hash_secret
from tests.app_client import AppClient
from tests.conftest import _new_postgres_database
from tests.e2e.apps import app_headers, new_app_key
from tests.e2e.play import bearer, bots_owe_nothing, until
from tests.e2e.serving import serving
from tests.projecting import settle_all

Client = AppClient

# --- the document ---------------------------------------------------------------------------------

DOCUMENT: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "openapi" / "openapi.json").read_text(encoding="utf-8")
)
#: Served, but no operations of the API: the document itself, Prometheus' metrics, the web client.
NOT_OPERATIONS = ("/schema", "/metrics", "/play")
HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def document_operations() -> dict[str, tuple[str, str]]:
    """Every operation of the document: its method and path template, by operationId."""
    operations: dict[str, tuple[str, str]] = {}
    for path, item in DOCUMENT["paths"].items():
        if path.startswith(NOT_OPERATIONS):
            continue
        for method, operation in item.items():
            if method in HTTP_METHODS:
                operations[operation["operationId"]] = (method.upper(), path)
    return operations


OPERATIONS = document_operations()


def responses_of(operation: str) -> dict[str, Any]:
    method, path = OPERATIONS[operation]
    responses: dict[str, Any] = DOCUMENT["paths"][path][method.lower()]["responses"]
    return responses


# --- what app A makes -----------------------------------------------------------------------------

GAME = "sushi-go"
PLAYER = "alice"
ALICE = {"name": "Alice", "player_id": PLAYER}
BOB = {"name": "Bob", "player_id": "bob"}
BOT = {"bot": "greedy"}
#: A's games, by role: running (public and private), open with free seats (private), finished
#: (public: Alice against a bot; private: Alice against Bob, so that both are rated).
PUBLIC, PRIVATE, OPEN, FINISHED, FINISHED_PRIVATE = "public", "private", "open", "finished", "finished-private"
ROLES = (PUBLIC, PRIVATE, OPEN, FINISHED, FINISHED_PRIVATE)
#: The roles whose games anybody may watch, and those with invitations (the private ones).
PUBLIC_ROLES = (PUBLIC, FINISHED)
PRIVATE_ROLES = (PRIVATE, OPEN, FINISHED_PRIVATE)
ADMIN_KEY = "test-apps-access-admin-key-0123456789"
UNKNOWN_APP_KEY = "kaiten_app_0123456789abcdef_xxxxxxxxxxxxxxxxxxxxxxxxxx"
UNKNOWN_PLAYER_TOKEN = "kaiten_player_0123456789abcdef_xxxxxxxxxxxxxxxxxxxxxxxxxx"
PLAYER_WEBHOOK = {"url": "http://127.0.0.1:9/kaiten-player", "events": ["your-turn"], "secret": "p" * 24}
WEBHOOK = {"url": "http://127.0.0.1:9/kaiten-webhook", "events": ["turn", "finished"], "secret": "s" * 24}
QUEUE = f"/v1/queues/{GAME}/entries"
#: A season A defines.
SEASON = "all-of-it"
SEASON_WINDOW = {"starts_at": "2026-01-01T00:00:00Z", "ends_at": "2100-01-01T00:00:00Z"}
QUEUER = {"player_id": "queuer", "min_players": 3, "max_players": 3}
#: Waits for a two-player game: joinQueue's first success (A's key, for Alice) completes it with her,
#: so that Alice's own token may join next.
PARTNER = {"player_id": "partner", "min_players": 2, "max_players": 2}
NEW_GAME = {"game": GAME, "players": 2, "seed": 7, "seats": [{"name": "Guest"}, BOT]}
SCORE = {"players": [{"cards": ["wasabi", "squid-nigiri"]}, {"cards": ["tempura", "tempura"]}]}
#: A command of a game that is not running (the rules refuse it, if the caller gets that far).
ANY_COMMAND = {"type": "pick", "cards": [0]}
MAX_COMMANDS = 500
#: The version right after the first deal of a game created with two seats taken (every game of A's
#: has at least this many events).
DEALT = 5


@dataclass(frozen=True)
class Invitations:
    #: Each an invitation's `id` and `code`: `spare` is live too, for revokeInvitation to revoke.
    live: dict[str, str]
    revoked: dict[str, str]
    spare: dict[str, str]


@dataclass
class AppA:
    name: str
    key: str
    #: The creation answers (id and seat tokens) of A's games, by role.
    games: dict[str, dict[str, Any]]
    invitations: dict[str, Invitations]
    #: A webhook registered with A's key in the private running game.
    webhook_id: str
    #: A command seat 0 may send now, by role.
    commands: dict[str, dict[str, Any]]
    #: The finished public game's export.
    export: dict[str, Any]
    #: Player tokens of A's players (`alice` and `bob`), one of Alice's expired, by kind (`KINDS`).
    player_tokens: dict[str, str] = field(default_factory=dict)
    #: A webhook registered with A's key on Alice's stream.
    player_webhook_id: str = ""
    #: A's player waiting in a matchmaking queue (for three players: nobody else joins them).
    queue_entry: dict[str, Any] = field(default_factory=dict)
    #: A season A defined.
    season_id: str = ""

    @property
    def owner(self) -> dict[str, str]:
        return app_headers(self.key)

    def game_id(self, role: str) -> str:
        game_id: str = self.games[role]["id"]
        return game_id

    def seat_token(self, role: str) -> str:
        token: str = self.games[role]["tokens"]["0"]
        return token

    def invitations_of(self, role: str) -> Invitations:
        """The role's invitations (a public game's: the private game's, which are not of that game)."""
        return self.invitations.get(role, self.invitations[PRIVATE])


async def created(client: Client, headers: Mapping[str, str], players: int, seats: list[Any], **extra: Any) -> Any:
    body = {"game": GAME, "players": players, "seats": seats, **extra}
    response = await client.post("/v1/games", json=body, headers=dict(headers))
    assert response.status_code == 201, response.text
    game = response.json()
    # The bots' moves follow in the background: the game stands still once they made those they owe
    # (read with the creator's key, else a seat's token: a private game is no game to anybody else).
    if not bots_owe_nothing(game):
        reader = dict(headers) if headers else bearer(next(iter(game["tokens"].values())))
        await until(client, game["id"], bots_owe_nothing, reader)
    return game


async def invited(client: Client, game_id: str, token: str) -> dict[str, str]:
    response = await client.post(f"/v1/games/{game_id}/invitations", headers=bearer(token))
    assert response.status_code == 201, response.text
    invitation: dict[str, str] = response.json()
    return invitation


async def revoked(client: Client, game_id: str, token: str, invitation_id: str) -> None:
    response = await client.delete(f"/v1/games/{game_id}/invitations/{invitation_id}", headers=bearer(token))
    assert response.status_code == 204, response.text


async def resigned(client: Client, game_id: str, token: str) -> None:
    response = await client.post(f"/v1/games/{game_id}/resign", headers=bearer(token))
    assert response.status_code == 200, response.text


async def played_out(client: Client, game: Mapping[str, Any]) -> None:
    """Each person's seat sends its first legal command until the game ends (bots play the others, in
    the background)."""
    game_id, seats = game["id"], [bearer(token) for token in game["tokens"].values()]
    for _ in range(MAX_COMMANDS):
        if (await until(client, game_id, bots_owe_nothing, seats[0]))["status"] != "active":
            break
        for headers in seats:
            legal = await client.get(f"/v1/games/{game_id}/legal-commands", headers=headers)
            assert legal.status_code == 200, legal.text
            if commands := legal.json()["commands"]:
                sent = await client.post(f"/v1/games/{game_id}/commands", json=commands[0], headers=headers)
                assert sent.status_code == 200, sent.text
    table = (await client.get(f"/v1/games/{game_id}", headers=seats[0])).json()
    assert table["status"] == "finished", table


async def first_legal(client: Client, game_id: str, token: str) -> dict[str, Any]:
    legal = (await client.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(token))).json()
    commands: list[dict[str, Any]] = legal["commands"]
    return commands[0] if commands else ANY_COMMAND


async def build_app_a(client: Client, services: Services) -> AppA:
    """App A and all it makes: games of every role, invitations, a webhook, Alice with rated games."""
    name = f"app-a-{uuid.uuid4().hex[:8]}"
    key = await new_app_key(services, name)
    owner = app_headers(key)
    games = {
        PUBLIC: await created(client, owner, 2, [ALICE, BOT]),
        PRIVATE: await created(client, owner, 2, [{"name": "Pat"}, BOT], visibility="private"),
        OPEN: await created(client, owner, 3, [{"name": "Olive"}], visibility="private"),
        FINISHED: await created(client, owner, 2, [ALICE, BOT]),
        FINISHED_PRIVATE: await created(client, owner, 2, [ALICE, BOB], visibility="private"),
    }
    invitations: dict[str, Invitations] = {}
    for role in PRIVATE_ROLES:
        game_id, token = games[role]["id"], games[role]["tokens"]["0"]
        live, gone, spare = [await invited(client, game_id, token) for _ in range(3)]
        await revoked(client, game_id, token, gone["id"])
        invitations[role] = Invitations(live=live, revoked=gone, spare=spare)
    hook = await client.post(f"/v1/games/{games[PRIVATE]['id']}/webhooks", json=WEBHOOK, headers=owner)
    assert hook.status_code == 201, hook.text
    for role in (FINISHED, FINISHED_PRIVATE):
        await played_out(client, games[role])
    commands = {role: await first_legal(client, games[role]["id"], games[role]["tokens"]["0"]) for role in ROLES}
    export = await client.get(f"/v1/games/{games[FINISHED]['id']}/export", headers=owner)
    assert export.status_code == 200, export.text
    queued = await client.post(QUEUE, json=QUEUER, headers=owner)
    assert queued.status_code == 201 and queued.json()["status"] == "waiting", queued.text
    partner = await client.post(QUEUE, json=PARTNER, headers=owner)
    assert partner.status_code == 201 and partner.json()["status"] == "waiting", partner.text
    player_tokens = {
        "player token": await player_token(client, owner, PLAYER),
        "other player's token": await player_token(client, owner, "bob"),
        "expired player token": await expired_player_token(services, key),
        "unknown player token": UNKNOWN_PLAYER_TOKEN,
    }
    player_hook = await client.post(f"/v1/players/{PLAYER}/webhooks", json=PLAYER_WEBHOOK, headers=owner)
    assert player_hook.status_code == 201, player_hook.text
    season = await client.put(f"/v1/seasons/{SEASON}", json=SEASON_WINDOW, headers=owner)
    assert season.status_code == 201, season.text
    return AppA(
        season_id=season.json()["id"],
        player_tokens=player_tokens,
        player_webhook_id=player_hook.json()["id"],
        name=name,
        key=key,
        games=games,
        invitations=invitations,
        webhook_id=hook.json()["id"],
        commands=commands,
        export=export.json(),
        queue_entry=queued.json(),
    )


async def player_token(client: Client, owner: Mapping[str, str], player_id: str) -> str:
    minted = await client.post(f"/v1/players/{player_id}/tokens", headers=dict(owner))
    assert minted.status_code == 201, minted.text
    token: str = minted.json()["token"]
    return token


async def expired_player_token(services: Services, key: str) -> str:
    """A token of Alice's that expired a minute ago (kept as a token is, in the store)."""
    app = await services.apps.authenticate(key)
    person = await services.games.people.of_player(app.app_id, PLAYER)
    assert person is not None
    token_id = "00000000deadbeef"
    token = f"kaiten_player_{token_id}_{'e' * 40}"
    ago = datetime.now(UTC) - timedelta(minutes=2)
    record = PlayerTokenRecord(
        token_id=token_id,
        app_id=app.app_id,
        person_id=person.person_id,
        token_hash=hash_secret(token),
        created_at=ago,
        expires_at=ago + timedelta(minutes=1),
    )
    await services.players.tokens.add(record)
    return token


# --- how to call each operation at A's resources --------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One request of an operation."""

    operation: str
    method: str
    path: str
    query: Mapping[str, Any] = field(default_factory=dict)
    #: A JSON body (None: none).
    body: Any = None
    #: The role of A's game in the path (None: no game in the path).
    role: str | None = None

    def __str__(self) -> str:
        query = f"?{urlencode(self.query)}" if self.query else ""
        return f"{self.operation} {self.method} {self.path}{query}"


def no_params(_a: AppA, _role: str | None) -> dict[str, str]:
    return {}


def no_body(_a: AppA, _role: str | None) -> Any:
    return None


@dataclass(frozen=True)
class Recipe:
    """How to build a request of an operation that aims at app A's resources."""

    #: The role of the game the credential test aims at (its seat token and invitations are the
    #: credentials tried); None for a path without a game (the private running game's credentials).
    #: The non-interference test aims at every game of A.
    target: str | None = None
    #: The path parameters besides `game_id`.
    params: Callable[[AppA, str | None], dict[str, str]] = no_params
    query: Mapping[str, Any] = field(default_factory=dict)
    #: A body that would be valid for A's resource.
    body: Callable[[AppA, str | None], Any] = no_body

    def call(self, operation: str, a: AppA, role: str | None) -> Call:
        method, template = OPERATIONS[operation]
        params = self.params(a, role)
        if "{game_id}" in template:
            assert role is not None, f"{operation} needs a game"
            params = {**params, "game_id": a.game_id(role)}
        path = template.format(**params)
        assert "{" not in path, f"{operation}: a path parameter of {template} has no value"
        return Call(operation, method, path, self.query, self.body(a, role), role if "{game_id}" in template else None)


def webhook(a: AppA, _role: str | None) -> dict[str, str]:
    return {"webhook_id": a.webhook_id}


def player_webhook(a: AppA, _role: str | None) -> dict[str, str]:
    return {"player_id": PLAYER, "webhook_id": a.player_webhook_id}


#: Every operation of the document, in the order the tests send them (reads first; A's own
#: successful writes in the credential test last: erasePlayer erases Alice, and, in the
#: non-interference test, B's import makes B a player named alice, which erasePlayer must not find).
RECIPES: dict[str, Recipe] = {
    "health": Recipe(),
    "ready": Recipe(),
    "listCatalog": Recipe(),
    "getCatalogGame": Recipe(params=lambda a, r: {"game": GAME}),
    "scoreTableaus": Recipe(params=lambda a, r: {"game": GAME}, body=lambda a, r: SCORE),
    "listApps": Recipe(),
    "getApp": Recipe(params=lambda a, r: {"name": a.name}),
    "createApp": Recipe(body=lambda a, r: {"name": a.name}),
    "setAppQuotas": Recipe(params=lambda a, r: {"name": a.name}, body=lambda a, r: {"open_games": 1}),
    "rotateAppKey": Recipe(params=lambda a, r: {"name": a.name}, body=lambda a, r: {"grace_seconds": 0}),
    "revokeAppKeys": Recipe(params=lambda a, r: {"name": a.name}),
    "listGames": Recipe(query={"game": GAME}),
    "listSeasons": Recipe(),
    "getSeason": Recipe(params=lambda a, r: {"season_id": a.season_id}),
    "getPlayerStats": Recipe(params=lambda a, r: {"player_id": PLAYER}),
    "getGameStats": Recipe(params=lambda a, r: {"game": GAME}),
    "getLeaderboard": Recipe(params=lambda a, r: {"game": GAME}),
    "getPlayerRatingHistory": Recipe(params=lambda a, r: {"player_id": PLAYER, "game": GAME}),
    "getTable": Recipe(target=PRIVATE),
    "listEvents": Recipe(target=PRIVATE),
    "replayGame": Recipe(target=PRIVATE, query={"at": DEALT}),
    "streamEvents": Recipe(target=PRIVATE),
    "exportLog": Recipe(target=FINISHED_PRIVATE),
    "takeSeat": Recipe(target=OPEN, body=lambda a, r: {"name": "Mallory", "player_id": "mallory"}),
    "listLegalCommands": Recipe(target=PRIVATE),
    "createStreamTicket": Recipe(target=PRIVATE),
    "createInvitation": Recipe(target=PRIVATE),
    "revokeInvitation": Recipe(
        target=PRIVATE, params=lambda a, r: {"invitation_id": a.invitations_of(r or PRIVATE).spare["id"]}
    ),
    "listWebhooks": Recipe(target=PRIVATE),
    "listWebhookDeliveries": Recipe(target=PRIVATE, params=webhook),
    "createWebhook": Recipe(target=PRIVATE, body=lambda a, r: WEBHOOK),
    "deleteWebhook": Recipe(target=PRIVATE, params=webhook),
    "sendCommand": Recipe(target=PRIVATE, body=lambda a, r: a.commands[r or PRIVATE]),
    "createRematch": Recipe(target=FINISHED_PRIVATE),
    "leaveSeat": Recipe(target=PRIVATE),
    "resignSeat": Recipe(target=PRIVATE),
    # Tokens for bob (B's key would otherwise make B a player named alice, which erasePlayer must not find).
    "createPlayerToken": Recipe(params=lambda a, r: {"player_id": "bob"}),
    "createPlayerStreamTicket": Recipe(params=lambda a, r: {"player_id": PLAYER}),
    "streamPlayer": Recipe(params=lambda a, r: {"player_id": PLAYER}),
    # After the player's stream is read: the game joinQueue forms seats Alice at seat 1.
    "getQueueEntry": Recipe(params=lambda a, r: {"game": GAME, "entry_id": a.queue_entry["id"]}),
    "leaveQueue": Recipe(params=lambda a, r: {"game": GAME, "entry_id": a.queue_entry["id"]}),
    "joinQueue": Recipe(
        params=lambda a, r: {"game": GAME}, body=lambda a, r: {"player_id": PLAYER, "min_players": 2, "max_players": 2}
    ),
    "createPlayerWebhook": Recipe(params=lambda a, r: {"player_id": PLAYER}, body=lambda a, r: PLAYER_WEBHOOK),
    "listPlayerWebhooks": Recipe(params=lambda a, r: {"player_id": PLAYER}),
    "listPlayerWebhookDeliveries": Recipe(params=player_webhook),
    "deletePlayerWebhook": Recipe(params=player_webhook),
    "erasePlayer": Recipe(params=lambda a, r: {"player_id": PLAYER}),
    "createGame": Recipe(body=lambda a, r: NEW_GAME),
    # Another season than A's: A's key defines it anew (201), as B's key does B's own.
    "defineSeason": Recipe(params=lambda a, r: {"season_id": "next"}, body=lambda a, r: SEASON_WINDOW),
    "importLog": Recipe(body=lambda a, r: a.export),
}


def test_every_operation_of_the_document_has_a_recipe_and_expected_answers() -> None:
    """A new operation fails here until both tables say how to call it and what each caller gets."""
    assert set(RECIPES) == set(OPERATIONS), (
        f"without a recipe: {sorted(set(OPERATIONS) - set(RECIPES))}; "
        f"not in the document: {sorted(set(RECIPES) - set(OPERATIONS))}"
    )
    assert set(EXPECTED) == set(OPERATIONS), (
        f"without expected answers: {sorted(set(OPERATIONS) - set(EXPECTED))}; "
        f"not in the document: {sorted(set(EXPECTED) - set(OPERATIONS))}"
    )
    for operation, outcomes in EXPECTED.items():
        assert len(outcomes) == len(KINDS), operation
        for kind, outcome in zip(KINDS, outcomes, strict=True):
            assert documented(operation, outcome) is None, (operation, kind, documented(operation, outcome))


# --- answers --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    status: int
    #: JSON; for an event stream, {"events": [...]} (those sent until the game's current version).
    body: Any

    @property
    def code(self) -> str | None:
        return self.body.get("code") if isinstance(self.body, dict) else None

    @property
    def outcome(self) -> Outcome:
        return self.status if 200 <= self.status < 300 else (self.status, str(self.code))

    def __str__(self) -> str:
        return f"{self.status} {short(self.body)}"


def short(value: Any, limit: int = 400) -> str:
    text = json.dumps(value, sort_keys=True)
    return f"{text[:limit]}..." if len(text) > limit else text


#: A success status, or a problem's status and code.
Outcome = int | tuple[int, str]


def _decoded(content_type: str, content: bytes) -> Any:
    if not content:
        return None
    if "json" in content_type:
        return json.loads(content)
    return content.decode()


def sse_events(content: bytes) -> list[Any]:
    text = content.decode().replace("\r\n", "\n")
    events: list[Any] = []
    for block in text.split("\n\n"):
        for line in block.split("\n"):
            if line.startswith("data:"):
                events.append(json.loads(line.removeprefix("data:").strip()))
    return events


async def _stream_until(app: Any, scope: dict[str, Any], version: int) -> tuple[int, str, bytes]:
    """Run one request through the app until its stream sent the event of `version` (or ended),
    then disconnect, as a browser closing its EventSource would."""
    started: dict[str, Any] = {}
    body = bytearray()
    enough, disconnected = asyncio.Event(), asyncio.Event()
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await disconnected.wait()
        return {"type": "http.disconnect"}

    async def send(message: Mapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            started["status"] = message["status"]
            headers = {name.decode().lower(): value.decode() for name, value in message.get("headers", [])}
            started["content_type"] = headers.get("content-type", "")
        elif message["type"] == "http.response.body":
            body.extend(message.get("body", b""))
            # A player's stream (version 0) is read to its first item.
            first = version == 0 and b"\r\n\r\n" in body
            if not message.get("more_body", False) or f"id: {version}\r\n".encode() in body or first:
                enough.set()

    async def serve() -> None:
        try:
            await app(scope, receive, send)
        finally:
            enough.set()

    serving = asyncio.create_task(serve())
    try:
        async with asyncio.timeout(10):
            await enough.wait()
    finally:
        disconnected.set()
        try:
            async with asyncio.timeout(5):
                await serving
        except TimeoutError:
            serving.cancel()
    return started["status"], started.get("content_type", ""), bytes(body)


async def streamed(client: Client, call: Call, headers: Mapping[str, str], version: int) -> Answer:
    """streamEvents through the app itself: the test client would wait for a live stream's end."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": call.method,
        "scheme": "http",
        "path": call.path,
        "raw_path": call.path.encode(),
        "root_path": "",
        "query_string": urlencode(call.query).encode(),
        "headers": [(b"host", b"testserver.local")]
        + [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers.items()],
        "client": ("testclient", 50000),
        "server": ("testserver.local", 80),
        "extensions": {},
    }
    status, content_type, content = await _stream_until(client.app, scope, version)
    if content_type.startswith("text/event-stream"):
        return Answer(status, {"events": sse_events(content)})
    return Answer(status, _decoded(content_type, content))


async def send(client: Client, call: Call, headers: Mapping[str, str], version: int = 0) -> Answer:
    """The answer to the call; a stream is read up to `version` (the game's current one)."""
    if call.operation in ("streamEvents", "streamPlayer"):
        return await streamed(client, call, headers, version)
    response = await client.request(
        call.method, call.path, params=dict(call.query), json=call.body, headers=dict(headers)
    )
    return Answer(response.status_code, _decoded(response.headers.get("content-type", ""), response.content))


def documented(operation: str, answer: Answer | Outcome) -> str | None:
    """Why the answer is not one the document lists for the operation (None: it is)."""
    outcome = answer.outcome if isinstance(answer, Answer) else answer
    status, code = (outcome, None) if isinstance(outcome, int) else outcome
    listed = responses_of(operation).get(str(status))
    if listed is None:
        return f"the document lists no {status} for {operation}"
    if 200 <= status < 300:
        return None
    codes = listed.get("x-problem-codes", [])
    return None if code in codes else f"the document lists {codes} under {status} for {operation}, not {code!r}"


# --- one world's id, secret and time, named alike ---------------------------------------------

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
SECRET = re.compile(r"kaiten_[a-z]+_[A-Za-z0-9_-]+")
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)")
HEX = re.compile(r"\b[0-9a-f]{64}\b")


class Names:
    """Names each new id, secret and commitment of one answer by its order of appearance (ids the
    request named, which both worlds were sent, stay as they are), and every time `<time>`."""

    def __init__(self, shared: set[str]) -> None:
        self.shared = shared
        self.names: dict[str, str] = {}

    def __call__(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {key: self(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self(item) for item in value]
        if isinstance(value, str):
            value = SECRET.sub(lambda match: self.name("secret", match.group()), value)
            value = UUID.sub(
                lambda match: match.group() if match.group() in self.shared else self.name("id", match.group()), value
            )
            value = HEX.sub(lambda match: self.name("hex", match.group()), value)
            return TIME.sub("<time>", value)
        return value

    def name(self, kind: str, text: str) -> str:
        return self.names.setdefault(text, f"<{kind} {len(self.names) + 1}>")


def alike(answer: Answer, call: Call) -> tuple[int, Any]:
    shared = set(UUID.findall(call.path + json.dumps(call.body)))
    return answer.status, Names(shared)(answer.body)


# --- the databases and servers --------------------------------------------------------------------

STORES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


@asynccontextmanager
async def fresh_database(request: pytest.FixtureRequest, store: str) -> AsyncIterator[str]:
    """A new migrated database of its own: a copy of the migrated SQLite file, or a new PostgreSQL
    database (dropped on exit)."""
    if store == "sqlite":
        copy: Callable[[Path], str] = request.getfixturevalue("sqlite_copy")
        factory: pytest.TempPathFactory = request.getfixturevalue("tmp_path_factory")
        yield copy(factory.mktemp("world") / "kaiten.sqlite3")
        return
    with _new_postgres_database(request.getfixturevalue("_postgres_server")) as url:
        await upgrade(url)
        yield url


@dataclass(frozen=True)
class Server:
    services: Services
    client: Client


@asynccontextmanager
async def closed_server(url: str) -> AsyncIterator[Server]:
    """A server that needs app keys, with the admin API, whose webhooks may point at this machine."""
    async with (
        serving(url, open_app=None, webhooks=WebhookOptions(allow_private=True)) as services,
        AppClient(app=create_app(services, Settings(admin_key=ADMIN_KEY))) as client,
    ):
        yield Server(services, client)


# --- 1. another app, and nobody, cannot tell A's resources exist ---------------------------------

#: The operations a caller without a credential may call on a public game, and gets what the game's
#: app gets (a spectator's view; exportLog's 409 for a running game; takeSeat's own refusal).
SPECTATOR_OPERATIONS = ("getTable", "listEvents", "replayGame", "streamEvents", "exportLog")
NOT_FOUND = (404, "game-not-found")


def hidden_cards_shown(call: Call, body: Any) -> bool:
    """Whether a view of a running Sushi Go! game shows cards a spectator may not see: a hand, a
    pick not revealed yet, the full state, or a hand or pick in the log."""
    if call.operation in ("getTable", "replayGame"):
        state = body["state"] or {}
        return bool(state.get("hand") or state.get("pick") or body["full_state"])
    if call.operation in ("listEvents", "streamEvents"):
        for event in body["events"]:
            data = event["data"]
            if data["type"] == "HandsDealt" and any(hand is not None for hand in data["hands"]):
                return True
            if data["type"] == "CardPicked" and data["cards"] is not None:
                return True
    return False


async def granted_to_anybody(client: Client, a: AppA, call: Call, answer: Answer, version: int) -> list[str]:
    """What is wrong with a caller without a credential's answer on A's public game: the rules let it
    watch the game as a spectator (what A's own key sees), and refuse it a seat (no app key)."""
    if call.operation == "takeSeat":
        expected: Outcome = (401, "app-key-required")
        return [] if answer.outcome == expected else [f"{call} anonymously: {answer}, expected {expected}"]
    owner = await send(client, call, a.owner, version)
    problems = []
    if answer != owner:
        problems.append(f"{call} anonymously: {answer}\n    but A's key, a spectator too, gets {owner}")
    running = call.role == PUBLIC
    if call.operation == "exportLog" and running:
        if answer.outcome != (409, "game-not-finished"):
            problems.append(f"{call} anonymously: {answer}, expected 409 game-not-finished")
        return problems
    if answer.status != 200:
        problems.append(f"{call} anonymously: {answer}, expected 200")
    elif call.operation in ("getTable", "replayGame") and answer.body["viewer"] != {"seat": None}:
        problems.append(f"{call} anonymously: viewer {answer.body['viewer']}, expected a spectator")
    elif running and hidden_cards_shown(call, answer.body):
        problems.append(f"{call} anonymously shows hidden cards: {answer}")
    return problems


async def state_of_a(server: Server, a: AppA) -> dict[str, Any]:
    """Everything of A's the other callers might change, as A's key (and the admin key) read it."""
    await settle_all(server.services.projection_runners)
    client, owner = server.client, a.owner
    private = a.game_id(PRIVATE)
    reads = {
        **{f"table of the {role} game": f"/v1/games/{a.game_id(role)}" for role in ROLES},
        "webhooks": f"/v1/games/{private}/webhooks",
        "deliveries": f"/v1/games/{private}/webhooks/{a.webhook_id}/deliveries",
        "history": "/v1/games",
        "Alice's statistics": f"/v1/players/{PLAYER}/stats",
        "game statistics": f"/v1/stats/{GAME}",
        "leaderboard": f"/v1/leaderboard/{GAME}",
        "queue entry": f"{QUEUE}/{a.queue_entry['id']}",
    }
    state: dict[str, Any] = {}
    for what, path in reads.items():
        response = await client.get(path, headers=owner)
        assert response.status_code == 200, (what, response.text)
        state[what] = response.json()
    app = await client.get(f"/v1/admin/apps/{a.name}", headers=bearer(ADMIN_KEY))
    state["the app"] = app.json()
    # What is checked is worth checking: A has rated players, webhooks, private games in its history.
    assert state["Alice's statistics"]["games"] and len(state["leaderboard"]["players"]) == 2, state
    assert state["webhooks"]["webhooks"] and len(state["history"]["items"]) == len(ROLES), state
    return state


@pytest.mark.parametrize("store", STORES)
async def test_another_app_and_anonymous_callers_cannot_tell_that_an_apps_resources_exist(
    request: pytest.FixtureRequest, store: str
) -> None:
    async with (
        fresh_database(request, store) as url_1,
        fresh_database(request, store) as url_2,
        closed_server(url_1) as world_1,
        closed_server(url_2) as world_2,
    ):
        a = await build_app_a(world_1.client, world_1.services)
        # B is an app of both worlds; A exists only in world 1.
        b_1 = app_headers(await new_app_key(world_1.services, "app-b"))
        b_2 = app_headers(await new_app_key(world_2.services, "app-b"))
        before = await state_of_a(world_1, a)
        versions = {role: before[f"table of the {role} game"]["version"] for role in ROLES}
        problems: list[str] = []
        for operation, recipe in RECIPES.items():
            roles: Sequence[str | None] = ROLES if "{game_id}" in OPERATIONS[operation][1] else (None,)
            for role in roles:
                call = recipe.call(operation, a, role)
                version = versions[role] if role is not None else 0
                for caller, headers_1, headers_2 in (("B's key", b_1, b_2), ("no credential", {}, {})):
                    answer_1 = await send(world_1.client, call, headers_1, version)
                    answer_2 = await send(world_2.client, call, headers_2, version)
                    for world, answer in (("world 1", answer_1), ("world 2", answer_2)):
                        if (why := documented(operation, answer)) is not None:
                            problems.append(f"{call} with {caller} in {world}: {answer}: {why}")
                    if (
                        caller == "no credential"
                        and role in PUBLIC_ROLES
                        and (operation in SPECTATOR_OPERATIONS or operation == "takeSeat")
                    ):
                        problems += await granted_to_anybody(world_1.client, a, call, answer_1, version)
                        if answer_2.outcome != NOT_FOUND:
                            problems.append(f"{call} anonymously where A never was: {answer_2}")
                    elif alike(answer_1, call) != alike(answer_2, call):
                        problems.append(
                            f"{call} with {caller}:\n    where A is:       {answer_1}\n"
                            f"    where A never was: {answer_2}"
                        )
        after = await state_of_a(world_1, a)
        for what in before:
            if after[what] != before[what]:
                changed = f"\n    before {short(before[what], 1000)}\n    after  {short(after[what], 1000)}"
                problems.append(f"A's {what} changed:{changed}")
    assert not problems, "\n".join(problems)


# --- 2. every credential kind against every operation --------------------------------------------

KINDS = (
    "none",
    "A's key",
    "B's key",
    "seat token",
    "invitation",
    "revoked invitation",
    "junk bearer",
    "Basic header",
    "unknown app key",
    # Player tokens (issue 29 §1): Alice's (seated in A's public, finished and finished private games),
    # Bob's (in the finished private one), one of Alice's that expired, one that never was.
    "player token",
    "other player's token",
    "expired player token",
    "unknown player token",
)

#: A success status, or a problem's status and code (short names, for the table to read as one).
OK, NEW, EMPTY = 200, 201, 204
NF = NOT_FOUND
MISS = (401, "missing-token")
TOKEN = (401, "invalid-token")
BADKEY = (401, "invalid-app-key")
NEEDKEY = (401, "app-key-required")
ADMIN = (401, "invalid-admin-key")
SEAT = (403, "seat-token-required")
INVITE = (403, "invitation-required")
NOHOOK = (404, "webhook-not-found")
NOBODY = (404, "player-not-found")
PBAD = (401, "invalid-player-token")
REFUSED = (403, "player-token-refused")
STARTED = (409, "game-started")
NOENTRY = (404, "queue-entry-not-found")
NOSEASON = (404, "season-not-found")

# The seat token, invitation and revoked invitation are of the operation's target game (`RECIPES`),
# else of A's private running game. An unknown app key, or a header that is no Bearer, is refused by
# every operation that asks who calls, and by no other (health, catalog: they never ask).
# fmt: off
EXPECTED: dict[str, tuple[Outcome, ...]] = {
    #                         none     A key    B key    seat     invite   revoked  junk     Basic    unknown
    "health":                 (OK,      OK,      OK,      OK,      OK,      OK,      OK,      OK,      OK),
    "ready":                  (OK,      OK,      OK,      OK,      OK,      OK,      OK,      OK,      OK),
    "listCatalog":            (OK,      OK,      OK,      OK,      OK,      OK,      OK,      OK,      OK),
    "getCatalogGame":         (OK,      OK,      OK,      OK,      OK,      OK,      OK,      OK,      OK),
    "scoreTableaus":          (OK,      OK,      OK,      OK,      OK,      OK,      OK,      OK,      OK),
    "listApps":               (ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN),
    "getApp":                 (ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN),
    "createApp":              (ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN),
    "setAppQuotas":           (ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN),
    "rotateAppKey":           (ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN),
    "revokeAppKeys":          (ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN,   ADMIN),
    "listGames":              (OK,      OK,      OK,      OK,      OK,      OK,      OK,      TOKEN,   BADKEY),
    "listSeasons":            (OK,      OK,      OK,      OK,      OK,      OK,      OK,      TOKEN,   BADKEY),
    "getSeason":              (NOSEASON, OK,     NOSEASON, NOSEASON, NOSEASON, NOSEASON, NOSEASON, TOKEN, BADKEY),
    "getPlayerStats":         (OK,      OK,      OK,      OK,      OK,      OK,      OK,      TOKEN,   BADKEY),
    "getGameStats":           (OK,      OK,      OK,      OK,      OK,      OK,      OK,      TOKEN,   BADKEY),
    "getLeaderboard":         (OK,      OK,      OK,      OK,      OK,      OK,      OK,      TOKEN,   BADKEY),
    "getPlayerRatingHistory": (OK,      OK,      OK,      OK,      OK,      OK,      OK,      TOKEN,   BADKEY),
    "getTable":               (NF,      OK,      NF,      OK,      OK,      NF,      NF,      TOKEN,   BADKEY),
    "listEvents":             (NF,      OK,      NF,      OK,      OK,      NF,      NF,      TOKEN,   BADKEY),
    "replayGame":             (NF,      OK,      NF,      OK,      OK,      NF,      NF,      TOKEN,   BADKEY),
    "streamEvents":           (NF,      OK,      NF,      OK,      OK,      NF,      NF,      TOKEN,   BADKEY),
    "exportLog":              (NF,      OK,      NF,      OK,      OK,      NF,      NF,      TOKEN,   BADKEY),
    "takeSeat":               (NF,      NEW,     NF,      INVITE,  INVITE,  NF,      NF,      TOKEN,   BADKEY),
    "listLegalCommands":      (MISS,    SEAT,    NF,      OK,      TOKEN,   NF,      NF,      TOKEN,   BADKEY),
    "createStreamTicket":     (MISS,    NEW,     NF,      NEW,     NEW,     NF,      NF,      TOKEN,   BADKEY),
    "createInvitation":       (MISS,    SEAT,    NF,      NEW,     TOKEN,   NF,      NF,      TOKEN,   BADKEY),
    "revokeInvitation":       (MISS,    SEAT,    NF,      EMPTY,   TOKEN,   NF,      NF,      TOKEN,   BADKEY),
    "listWebhooks":           (MISS,    OK,      NF,      OK,      TOKEN,   NF,      NF,      TOKEN,   BADKEY),
    "listWebhookDeliveries":  (MISS,    OK,      NF,      NOHOOK,  TOKEN,   NF,      NF,      TOKEN,   BADKEY),
    "createWebhook":          (MISS,    NEW,     NF,      NEW,     TOKEN,   NF,      NF,      TOKEN,   BADKEY),
    "deleteWebhook":          (MISS,    EMPTY,   NF,      NOHOOK,  TOKEN,   NF,      NF,      TOKEN,   BADKEY),
    "sendCommand":            (MISS,    SEAT,    NF,      OK,      TOKEN,   NF,      NF,      TOKEN,   BADKEY),
    "createRematch":          (MISS,    SEAT,    NF,      NEW,     TOKEN,   NF,      NF,      TOKEN,   BADKEY),
    "resignSeat":             (MISS,    SEAT,    NF,      OK,      TOKEN,   NF,      NF,      TOKEN,   BADKEY),
    "leaveSeat":              (MISS,    SEAT,    NF,      STARTED, TOKEN,   NF,      NF,      TOKEN,   BADKEY),
    "getQueueEntry":          (NEEDKEY, OK,      NOENTRY, NEEDKEY, NEEDKEY, NEEDKEY, NEEDKEY, TOKEN,   BADKEY),
    "leaveQueue":             (NEEDKEY, EMPTY,   NOENTRY, NEEDKEY, NEEDKEY, NEEDKEY, NEEDKEY, TOKEN,   BADKEY),
    "joinQueue":              (NEEDKEY, NEW,     NEW,     NEEDKEY, NEEDKEY, NEEDKEY, NEEDKEY, TOKEN,   BADKEY),
    "createPlayerToken":      (NEEDKEY, NEW,     NEW,     NEEDKEY, NEEDKEY, NEEDKEY, NEEDKEY, TOKEN,   BADKEY),
    "createPlayerStreamTicket": (MISS,  NEW,     NOBODY,  TOKEN,   TOKEN,   TOKEN,   TOKEN,   TOKEN,   BADKEY),
    "streamPlayer":           (MISS,    OK,      NOBODY,  TOKEN,   TOKEN,   TOKEN,   TOKEN,   TOKEN,   BADKEY),
    "createPlayerWebhook":    (NEEDKEY, NEW,     NOBODY,  NEEDKEY, NEEDKEY, NEEDKEY, NEEDKEY, TOKEN,   BADKEY),
    "listPlayerWebhooks":     (NEEDKEY, OK,      NOBODY,  NEEDKEY, NEEDKEY, NEEDKEY, NEEDKEY, TOKEN,   BADKEY),
    "listPlayerWebhookDeliveries": (NEEDKEY, OK, NOBODY,  NEEDKEY, NEEDKEY, NEEDKEY, NEEDKEY, TOKEN,   BADKEY),
    "deletePlayerWebhook":    (NEEDKEY, EMPTY,   NOBODY,  NEEDKEY, NEEDKEY, NEEDKEY, NEEDKEY, TOKEN,   BADKEY),
    "erasePlayer":            (NEEDKEY, EMPTY,   NOBODY,  NEEDKEY, NEEDKEY, NEEDKEY, NEEDKEY, TOKEN,   BADKEY),
    "createGame":             (NEEDKEY, NEW,     NEW,     NEEDKEY, NEEDKEY, NEEDKEY, NEEDKEY, TOKEN,   BADKEY),
    "importLog":              (NEEDKEY, NEW,     NEW,     NEEDKEY, NEEDKEY, NEEDKEY, NEEDKEY, TOKEN,   BADKEY),
    "defineSeason":           (NEEDKEY, NEW,     NEW,     NEEDKEY, NEEDKEY, NEEDKEY, NEEDKEY, TOKEN,   BADKEY),
}
# fmt: on


# What Alice's and Bob's player tokens get (an expired or unknown player token is refused wherever an
# unknown app key is). Alice is erased by erasePlayer: her token works no more after it.
# fmt: off
PLAYER_EXPECTED: dict[str, tuple[Outcome, Outcome]] = {
    #                            Alice    Bob
    "health":                   (OK,      OK),
    "ready":                    (OK,      OK),
    "listCatalog":              (OK,      OK),
    "getCatalogGame":           (OK,      OK),
    "scoreTableaus":            (OK,      OK),
    "listApps":                 (ADMIN,   ADMIN),
    "getApp":                   (ADMIN,   ADMIN),
    "createApp":                (ADMIN,   ADMIN),
    "setAppQuotas":             (ADMIN,   ADMIN),
    "rotateAppKey":             (ADMIN,   ADMIN),
    "revokeAppKeys":            (ADMIN,   ADMIN),
    "listGames":                (OK,      OK),
    "listSeasons":              (OK,      OK),
    "getSeason":                (NOSEASON, NOSEASON),
    "getPlayerStats":           (OK,      OK),
    "getGameStats":             (OK,      OK),
    "getLeaderboard":           (OK,      OK),
    "getPlayerRatingHistory":   (OK,      OK),
    "getTable":                 (NF,      NF),
    "listEvents":               (NF,      NF),
    "replayGame":               (NF,      NF),
    "streamEvents":             (NF,      NF),
    "exportLog":                (OK,      OK),
    "takeSeat":                 (NF,      NF),
    "listLegalCommands":        (NF,      NF),
    "createStreamTicket":       (NF,      NF),
    "createInvitation":         (NF,      NF),
    "revokeInvitation":         (NF,      NF),
    "listWebhooks":             (NF,      NF),
    "listWebhookDeliveries":    (NF,      NF),
    "createWebhook":            (REFUSED, REFUSED),
    "deleteWebhook":            (NF,      NF),
    "sendCommand":              (NF,      NF),
    "createRematch":            (OK,      OK),
    "resignSeat":               (NF,      NF),
    "leaveSeat":                (NF,      NF),
    "getQueueEntry":            (NOENTRY, NOENTRY),
    "leaveQueue":               (NOENTRY, NOENTRY),
    "joinQueue":                (NEW,     REFUSED),
    "createPlayerToken":        (REFUSED, REFUSED),
    "createPlayerStreamTicket": (NEW,     NOBODY),
    "streamPlayer":             (OK,      NOBODY),
    "createPlayerWebhook":      (REFUSED, REFUSED),
    "listPlayerWebhooks":       (REFUSED, REFUSED),
    "listPlayerWebhookDeliveries": (REFUSED, REFUSED),
    "deletePlayerWebhook":      (REFUSED, REFUSED),
    "erasePlayer":              (REFUSED, REFUSED),
    "createGame":               (PBAD,    REFUSED),
    "importLog":                (PBAD,    REFUSED),
    "defineSeason":             (PBAD,    REFUSED),
}
# fmt: on
for _operation, _outcomes in PLAYER_EXPECTED.items():
    _bad = PBAD if EXPECTED[_operation][8] == BADKEY else EXPECTED[_operation][8]
    EXPECTED[_operation] = (*EXPECTED[_operation], *_outcomes, _bad, _bad)


def credential(kind: str, a: AppA, b_key: str, role: str) -> dict[str, str]:
    secrets = {
        "none": None,
        "A's key": a.key,
        "B's key": b_key,
        "seat token": a.seat_token(role),
        "invitation": a.invitations_of(role).live["code"],
        "revoked invitation": a.invitations_of(role).revoked["code"],
        "junk bearer": "nope",
        "unknown app key": UNKNOWN_APP_KEY,
        **a.player_tokens,
    }
    if kind == "Basic header":
        return {"Authorization": "Basic abc"}
    secret = secrets[kind]
    return {} if secret is None else bearer(secret)


async def what_a_write_would_change(client: Client, a: AppA, call: Call) -> Any:
    """What the call would change if it wrote: its game as A's key sees it (every write to a game
    appends to its log, which moves its version), A's webhooks and the seat's, Alice's statistics,
    the apps."""
    owner = a.owner
    if call.role is not None:
        game = (await client.get(f"/v1/games/{a.game_id(call.role)}", headers=owner)).json()
        if "Webhook" not in call.operation:
            return game, None
        hooks = [
            (await client.get(f"/v1/games/{a.game_id(call.role)}/webhooks", headers=headers)).json()
            for headers in (owner, bearer(a.seat_token(call.role)))
        ]
        return game, hooks
    if call.operation == "erasePlayer":
        return (await client.get(f"/v1/players/{PLAYER}/stats", headers=owner)).json()
    if "PlayerWebhook" in call.operation:
        return (await client.get(f"/v1/players/{PLAYER}/webhooks", headers=owner)).json()
    if call.operation in ("getQueueEntry", "leaveQueue"):
        return (await client.get(f"{QUEUE}/{a.queue_entry['id']}", headers=owner)).json()
    if call.operation == "defineSeason":
        return (await client.get("/v1/seasons", headers=owner)).json()
    if call.operation in ("setAppQuotas", "rotateAppKey", "revokeAppKeys", "createApp"):
        return (await client.get("/v1/admin/apps", headers=bearer(ADMIN_KEY))).json()
    return None


async def content_problems(
    client: Client, a: AppA, call: Call, kind: str, headers: dict[str, str], answer: Answer
) -> list[str]:
    """What is wrong with a successful read's content for this credential."""
    body, owner = answer.body, kind == "A's key"
    if call.operation in ("getTable", "replayGame"):
        seat = 0 if kind == "seat token" else None
        return [] if body["viewer"] == {"seat": seat} else [f"{call} with {kind}: viewer {body['viewer']}"]
    if call.operation == "streamEvents":
        page = await client.get(call.path.removesuffix("/stream"), headers=headers)
        same = body["events"] == page.json()["events"]
        return [] if same else [f"{call} with {kind}: the stream is not the events page: {answer}"]
    if call.operation == "createStreamTicket":
        # The ticket, spent by a caller sending nothing else, streams what its credential may see.
        events = f"{call.path.removesuffix('/stream-tickets')}/events"
        stream = Call("streamEvents", "GET", f"{events}/stream", {"ticket": body["ticket"]})
        version = await version_of(client, a.owner, a.game_id(call.role or PRIVATE))
        streamed = await send(client, stream, {}, version)
        page = await client.get(events, headers=headers)
        same = streamed.status == 200 and streamed.body["events"] == page.json()["events"]
        return [] if same else [f"{stream} (from {kind}'s ticket): {streamed}, not the events page {kind} sees"]
    if call.operation == "streamPlayer":
        # Alice's items (read to the first at least): the first is her seat in A's first game with her.
        items = body["events"]
        ok = items and items[0]["type"] == "invitation" and items[0]["game_id"] == a.game_id(PUBLIC)
        return [] if ok else [f"{call} with {kind}: {answer}"]
    if call.operation == "createPlayerStreamTicket":
        path = call.path.replace("/stream-tickets", "/stream")
        stream = Call("streamPlayer", "GET", path, {"ticket": body["ticket"]})
        streamed, owners = (
            await send(client, stream, {}),
            await send(client, Call("streamPlayer", "GET", path), a.owner),
        )
        same = streamed.status == 200 and streamed.body["events"][:1] == owners.body["events"][:1]
        return [] if same else [f"{stream} (from {kind}'s ticket): {streamed}, not what A's key streams: {owners}"]
    if call.operation == "listGames":
        listed = {item["id"] for item in body["items"]}
        mine = {a.game_id(role) for role in ROLES}
        ok = mine <= listed if owner else not mine & listed
        return [] if ok else [f"{call} with {kind} lists {listed}; A's games are {mine}"]
    if call.operation == "listSeasons":
        listed = [season["id"] for season in body["seasons"]]
        return [] if listed == ([a.season_id] if owner else []) else [f"{call} with {kind}: {answer}"]
    if call.operation == "getPlayerStats":
        ok = bool(body["games"]) == owner
        return [] if ok else [f"{call} with {kind}: {answer}"]
    if call.operation == "getLeaderboard":
        players = {player["player_id"] for player in body["players"]}
        return [] if players == ({PLAYER, "bob"} if owner else set()) else [f"{call} with {kind}: {answer}"]
    if call.operation == "getPlayerRatingHistory":
        ok = bool(body["items"]) == owner
        return [] if ok else [f"{call} with {kind}: {answer}"]
    if call.operation == "getGameStats":
        return [] if body["games"] == (2 if owner else 0) else [f"{call} with {kind}: {answer}"]
    return []


@pytest.mark.parametrize("store", STORES)
async def test_every_credential_gets_the_documented_answer_on_every_operation(
    request: pytest.FixtureRequest, store: str
) -> None:
    async with fresh_database(request, store) as url, closed_server(url) as server:
        client = server.client
        a = await build_app_a(client, server.services)
        b_key = await new_app_key(server.services, "app-b")
        await settle_all(server.services.projection_runners)
        problems: list[str] = []
        for operation, recipe in RECIPES.items():
            call = recipe.call(operation, a, recipe.target)
            role = recipe.target or PRIVATE
            expected = dict(zip(KINDS, EXPECTED[operation], strict=True))
            # The refusals first, then whatever succeeds (which may change what the others would get).
            kinds = sorted(KINDS, key=lambda kind: isinstance(expected[kind], int))
            before = await what_a_write_would_change(client, a, call)
            for kind in kinds:
                headers = credential(kind, a, b_key, role)
                version = before[0]["version"] if call.role is not None else 0
                answer = await send(client, call, headers, version)
                if (why := documented(operation, answer)) is not None:
                    problems.append(f"{call} with {kind}: {answer}: {why}")
                if answer.outcome != expected[kind]:
                    problems.append(f"{call} with {kind}: {answer}, expected {expected[kind]}")
                    continue
                if isinstance(expected[kind], int):
                    problems += await content_problems(client, a, call, kind, headers, answer)
                    if call.method != "GET":
                        if call.role is not None:
                            # The bots' moves a write leaves owed follow in the background.
                            await until(client, a.game_id(call.role), bots_owe_nothing, a.owner)
                        before = await what_a_write_would_change(client, a, call)
                elif (after := await what_a_write_would_change(client, a, call)) != before:
                    changed = f"\n    before {short(before, 1000)}\n    after  {short(after, 1000)}"
                    problems.append(f"{call} with {kind} was refused, yet wrote:{changed}")
    assert not problems, "\n".join(problems)


# --- 3. the reports -----------------------------------------------------------------------


def unique(name: str) -> str:
    """App names are unique per test: the session's PostgreSQL database is shared."""
    return f"{name}-{uuid.uuid4().hex[:10]}"


async def abandoned(client: Client, headers: dict[str, str], **extra: Any) -> dict[str, Any]:
    """A game over already: its one person resigns at once, so the game is abandoned."""
    game: dict[str, Any] = await created(client, headers, 2, [ALICE, BOT], **extra)
    await resigned(client, game["id"], game["tokens"]["0"])
    return game


async def version_of(client: Client, headers: dict[str, str], game_id: str) -> int:
    version: int = (await client.get(f"/v1/games/{game_id}", headers=headers)).json()["version"]
    return version


async def test_importing_without_a_credential_on_a_server_that_needs_keys_is_refused(
    closed_client: Client, closed_services: Services
) -> None:
    owner = app_headers(await new_app_key(closed_services, unique("importer")))
    game = await abandoned(closed_client, owner)
    log = (await closed_client.get(f"/v1/games/{game['id']}/export", headers=owner)).json()
    for headers in ({}, bearer(game["tokens"]["0"]), bearer("nope")):
        refused = await closed_client.post("/v1/games/import", json=log, headers=headers)
        assert (refused.status_code, refused.json()["code"]) == (401, "app-key-required"), (headers, refused.text)
    # The log itself was fine: the app's key imports it.
    imported = await closed_client.post("/v1/games/import", json=log, headers=owner)
    assert imported.status_code == 201, imported.text


async def test_a_caller_without_an_app_key_names_no_player_id(closed_client: Client, closed_services: Services) -> None:
    owner = app_headers(await new_app_key(closed_services, unique("namer")))
    # Creating a game is an app's write: a player_id in its seats changes nothing.
    refused = await closed_client.post("/v1/games", json={"game": GAME, "players": 2, "seats": [ALICE, BOT]})
    assert (refused.status_code, refused.json()["code"]) == (401, "app-key-required"), refused.text
    for visibility in ("public", "private"):
        game = await created(closed_client, owner, 3, [{"name": "Olive"}], visibility=visibility)
        seats = f"/v1/games/{game['id']}/seats"
        invitation = await invited(closed_client, game["id"], game["tokens"]["0"])
        version = await version_of(closed_client, owner, game["id"])
        # An invitation seats a guest, who gets no player_id of the app's (nor a bot); without one
        # nobody is seated at all.
        for body in (
            {"name": "Mallory", "player_id": PLAYER, "invitation": invitation["code"]},
            {"bot": "greedy", "invitation": invitation["code"]},
            *([{"name": "Mallory", "player_id": PLAYER}] if visibility == "public" else []),
        ):
            for headers in ({}, bearer(invitation["code"]), bearer(game["tokens"]["0"])):
                refused = await closed_client.post(seats, json=body, headers=headers)
                assert (refused.status_code, refused.json()["code"]) == (401, "app-key-required"), (body, refused.text)
        assert await version_of(closed_client, owner, game["id"]) == version, "a refused seat was taken"
        guest = await closed_client.post(seats, json={"name": "Mallory", "invitation": invitation["code"]})
        assert guest.status_code == 201, guest.text
        table = (await closed_client.get(f"/v1/games/{game['id']}", headers=owner)).json()
        assert table["seats"][1] == {"seat": 1, "name": "Mallory", "player_id": None, "bot": None}, table


async def test_on_an_open_server_a_caller_without_a_key_names_player_ids_in_built_in_games_only(
    client: Client, services: Services
) -> None:
    owner = app_headers(await new_app_key(services, unique("open-owner")))
    apps_game = await created(client, owner, 3, [{"name": "Olive"}])
    refused = await client.post(f"/v1/games/{apps_game['id']}/seats", json={"name": "Mallory", "player_id": PLAYER})
    assert (refused.status_code, refused.json()["code"]) == (401, "app-key-required"), refused.text
    # The built-in app's people are shared by the session's tests on PostgreSQL: a player of its own.
    built_in = await created(client, {}, 3, [{"name": "Olive"}])
    player = {"name": "Alice", "player_id": unique(PLAYER)}
    seated = await client.post(f"/v1/games/{built_in['id']}/seats", json=player)
    assert seated.status_code == 201, seated.text


#: The reads of one game (its table, log, a replay, its stream, its export): the path after the
#: game's and the query.
GAME_READS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("", {}),
    ("/events", {}),
    ("/replay", {"at": 1}),
    ("/events/stream", {}),
    ("/export", {}),
)


def game_read(game_id: str, read: str, query: dict[str, Any]) -> Call:
    operation = "streamEvents" if read == "/events/stream" else f"GET {read or '/'}"
    return Call(operation, "GET", f"/v1/games/{game_id}{read}", query)


async def as_if_no_game(client: Client, game_id: str, read: str, query: dict[str, Any]) -> Any:
    """The body of the answer for a game that does not exist, with this game's id in it."""
    missing = str(uuid.uuid4())
    answer = await send(client, game_read(missing, read, query), {})
    assert answer.outcome == NOT_FOUND, answer
    return json.loads(json.dumps(answer.body).replace(missing, game_id))


async def test_a_private_game_is_not_found_by_anonymous_callers_nor_by_other_apps(
    closed_client: Client, closed_services: Services
) -> None:
    owner = app_headers(await new_app_key(closed_services, unique("private-owner")))
    other = app_headers(await new_app_key(closed_services, unique("other")))
    running = await created(closed_client, owner, 2, [ALICE, BOT], visibility="private")
    over = await abandoned(closed_client, owner, visibility="private")
    for game in (running, over):
        version = await version_of(closed_client, owner, game["id"])
        for read, query in GAME_READS:
            missing = await as_if_no_game(closed_client, game["id"], read, query)
            call = game_read(game["id"], read, query)
            for who, headers in (("anonymous", {}), ("another app", other)):
                answer = await send(closed_client, call, headers, version)
                assert (answer.status, answer.body) == (404, missing), (str(call), who, str(answer))
            mine = await send(closed_client, call, owner, version)
            expected = 409 if read == "/export" and game is running else 200
            assert mine.status == expected, (str(call), str(mine))


async def test_revoking_an_invitation_stops_its_code_from_watching(
    closed_client: Client, closed_services: Services
) -> None:
    owner = app_headers(await new_app_key(closed_services, unique("inviter")))
    game = await created(closed_client, owner, 3, [ALICE, BOT], visibility="private")
    invitation = await invited(closed_client, game["id"], game["tokens"]["0"])
    watcher = bearer(invitation["code"])
    version = await version_of(closed_client, owner, game["id"])
    # Watching, but for the export: the game is not over.
    for read, query in GAME_READS[:-1]:
        watched = await send(closed_client, game_read(game["id"], read, query), watcher, version)
        assert watched.status == 200, (read, str(watched))
    await revoked(closed_client, game["id"], game["tokens"]["0"], invitation["id"])
    version = await version_of(closed_client, owner, game["id"])
    for read, query in GAME_READS:
        missing = await as_if_no_game(closed_client, game["id"], read, query)
        answer = await send(closed_client, game_read(game["id"], read, query), watcher, version)
        assert (answer.status, answer.body) == (404, missing), (read, str(answer))


@pytest.fixture
async def own_client(own_services: Services) -> AsyncIterator[Client]:
    """An open server over a database of its own: its statistics hold this test's games only."""
    async with AppClient(app=create_app(own_services)) as test_client:
        yield test_client


async def finished_between(client: Client, headers: dict[str, str], seats: list[Any], **extra: Any) -> None:
    """A finished game of these people, who all play it (so that it is rated between them)."""
    await played_out(client, await created(client, headers, len(seats), seats, **extra))


def player_ids(leaderboard: Any) -> set[str]:
    return {player["player_id"] for player in leaderboard["players"]}


async def test_a_private_games_players_count_in_their_apps_own_statistics_only(
    own_client: Client, own_services: Services
) -> None:
    # On an open server, callers without a key write as the built-in app, whose public records are
    # what anybody reads; the built-in app's key reads all of them.
    built_in = app_headers((await own_services.apps.rotate("built-in", timedelta(0))).key)
    carol, dave = {"name": "Carol", "player_id": "carol"}, {"name": "Dave", "player_id": "dave"}
    erin, frank = {"name": "Erin", "player_id": "erin"}, {"name": "Frank", "player_id": "frank"}
    await finished_between(own_client, {}, [erin, frank])
    await finished_between(own_client, {}, [carol, dave], visibility="private")
    await settle_all(own_services.projection_runners)
    for who, headers, players, games in (
        ("anybody", {}, {"erin", "frank"}, 1),
        ("the built-in app", built_in, {"carol", "dave", "erin", "frank"}, 2),
    ):
        leaderboard = (await own_client.get(f"/v1/leaderboard/{GAME}", headers=headers)).json()
        assert player_ids(leaderboard) == players, (who, leaderboard)
        stats = (await own_client.get(f"/v1/stats/{GAME}", headers=headers)).json()
        assert (stats["games"], stats["player_games"]) == (games, 2 * games), (who, stats)
        carols = (await own_client.get("/v1/players/carol/stats", headers=headers)).json()
        assert len(carols["games"]) == (games - 1), (who, carols)
        listed = (await own_client.get("/v1/games?player_id=carol", headers=headers)).json()
        assert len(listed["items"]) == games - 1, (who, listed)


async def test_two_apps_naming_the_same_player_id_get_two_players(
    closed_client: Client, closed_services: Services
) -> None:
    first = app_headers(await new_app_key(closed_services, unique("first")))
    second = app_headers(await new_app_key(closed_services, unique("second")))
    # Each app's Alice plays its Bob: the first app's twice, the second's once.
    for _ in range(2):
        await finished_between(closed_client, first, [ALICE, BOB])
    await finished_between(closed_client, second, [BOB, ALICE])
    await settle_all(closed_services.projection_runners)

    async def alice_of(headers: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
        stats = (await closed_client.get(f"/v1/players/{PLAYER}/stats", headers=headers)).json()
        board = (await closed_client.get(f"/v1/leaderboard/{GAME}", headers=headers)).json()
        assert player_ids(board) == {PLAYER, "bob"}, board
        [entry] = [player for player in board["players"] if player["player_id"] == PLAYER]
        [played] = stats["games"]
        return played, entry

    (first_stats, first_entry), (second_stats, second_entry) = await alice_of(first), await alice_of(second)
    assert (first_stats["played"], first_stats["rated_games"]) == (2, 2), first_stats
    assert (second_stats["played"], second_stats["rated_games"]) == (1, 1), second_stats
    assert (first_entry["played"], second_entry["played"]) == (2, 1), (first_entry, second_entry)
    # Each rating moved with its own games alone: two rated games leave less doubt than one.
    assert first_entry["sigma"] < second_entry["sigma"], (first_entry, second_entry)
    # Nobody else reads either app's Alice.
    nobody = (await closed_client.get(f"/v1/players/{PLAYER}/stats")).json()
    assert nobody == {"player_id": PLAYER, "games": []}, nobody
    # Erasing one app's Alice leaves the other's.
    erased = await closed_client.delete(f"/v1/players/{PLAYER}", headers=first)
    assert erased.status_code == 204, erased.text
    assert (await closed_client.get(f"/v1/players/{PLAYER}/stats", headers=first)).json()["games"] == []
    assert (await alice_of(second))[0] == second_stats
