"""Matchmaking queues (services/matchmaking.py): a player joins the queue of a game, waits, and is
seated in a game that starts when enough compatible players wait."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Response, delete, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, PathParameter

from kaiten.api.auth import credential
from kaiten.api.request_body import KaitenRequest
from kaiten.api.routes.allow import options_allowing
from kaiten.api.routes.games import IdempotencyKey, check_idempotency_key
from kaiten.api.routes.history import GameName
from kaiten.domain.matchmaking import DEFAULT_WIDENING, DEFAULT_WINDOW, MAX_WINDOW
from kaiten.services.matchmaking import (
    MAX_BOTS_AFTER_SECONDS,
    GetQueueEntry,
    JoinQueue,
    LeaveQueue,
    Matchmaking,
    QueueEntry,
)
from kaiten.services.text_rules import PRINTABLE

MatchmakingDep = NamedDependency[Matchmaking]
EntryId = Annotated[str, PathParameter(description="The queue entry's id (joinQueue's `id`)", max_length=64)]
Window = Annotated[float, msgspec.Meta(ge=0, le=MAX_WINDOW)]


class JoinQueueRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A player's place in the queue of a game with these options."""

    #: The app's id for its player (the one it seats by `player_id`).
    player_id: Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=PRINTABLE)]
    #: The player counts the player accepts, within the game's.
    min_players: Annotated[int, msgspec.Meta(ge=1, le=64)]
    max_players: Annotated[int, msgspec.Meta(ge=1, le=64)]
    #: The name the player sits down with (default: their player_id).
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=100, pattern=PRINTABLE)] | None = None
    #: The game's options, as createGame takes them: only players of equal options are matched.
    options: dict[str, Any] = {}
    #: Once the player is rated in this game: the ratings (mu - 3 sigma) they accept around their own,
    #: and how much that widens each minute they wait (up to 100).
    rating_window: Window = DEFAULT_WINDOW
    rating_window_per_minute: Window = DEFAULT_WIDENING
    #: A bot that fills the game's free seats once the player waited `bots_after_seconds` (with other
    #: waiting players who asked for bots too): both or neither.
    bot: Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=PRINTABLE)] | None = None
    bots_after_seconds: Annotated[float, msgspec.Meta(ge=0, le=MAX_BOTS_AFTER_SECONDS)] | None = None


QUEUES_DESCRIPTION = """\
The player (`player_id`, the app's id for its user) waits for a game of `{game}` with these
`options`, of `min_players..max_players` players. A game starts as soon as enough compatible players
wait in the same queue (the same app, game and options): as many as every one of them accepts, the
largest such game around the player who waited longest. A player rated in this game (the
leaderboard's rating, mu - 3 sigma) is matched with rated players whose ratings each window covers
(`rating_window`, widening by `rating_window_per_minute` while they wait); an unrated player with
anyone. With `bot` and `bots_after_seconds`, once the player waited that long, the free seats of
their game are given to that bot (with as many waiting players who also asked for bots as fit).

The answer is the entry: `waiting`, or already `matched` when this join completed a game. Poll
getQueueEntry until it is `matched`: it then holds `game_id`, the player's `seat` and that seat's
`token` (send it as `Authorization: Bearer` to play, as createGame's tokens). Each entry lands in one
game at most; a player waits in one queue of the app at a time (409 `already-queued`). A join sent
again with the same `Idempotency-Key` (after a dropped connection) answers the entry the first made.
"""


class QueuesController(Controller):
    path = "/v1/queues/{game:str}/entries"
    tags = ["matchmaking"]

    allowed_on_entry = options_allowing("GET", "DELETE", path="/{entry_id:str}")

    @post(
        "/",
        operation_id="joinQueue",
        summary="A player joins the game's matchmaking queue",
        description=QUEUES_DESCRIPTION,
        status_code=201,
    )
    async def join(
        self,
        matchmaking: MatchmakingDep,
        request: KaitenRequest,
        game: GameName,
        data: JSONBody[JoinQueueRequest],
        idempotency_key: IdempotencyKey = None,
    ) -> Response[QueueEntry]:
        entry = await matchmaking.join(
            JoinQueue(
                game=game,
                player_id=data.player_id,
                min_players=data.min_players,
                max_players=data.max_players,
                name=data.name,
                options=data.options,
                rating_window=data.rating_window,
                rating_window_per_minute=data.rating_window_per_minute,
                bot=data.bot,
                bots_after_seconds=data.bots_after_seconds,
                idempotency_key=check_idempotency_key(idempotency_key),
                caller=credential(request),
            )
        )
        return Response(entry, status_code=201, headers={"Location": f"/v1/queues/{game}/entries/{entry.id}"})

    @get(
        "/{entry_id:str}",
        operation_id="getQueueEntry",
        summary="A queue entry: waiting, or matched with its game, seat and seat token",
    )
    async def status(
        self, matchmaking: MatchmakingDep, request: KaitenRequest, game: GameName, entry_id: EntryId
    ) -> QueueEntry:
        return await matchmaking.status(GetQueueEntry(game=game, entry_id=entry_id, caller=credential(request)))

    @delete(
        "/{entry_id:str}",
        operation_id="leaveQueue",
        summary="Leave the queue (before being matched)",
        description="The entry is `left` and joins no game. Leaving an entry already left is a no-op; a matched one "
        "answers 409 `queue-entry-matched` (its game has started: resign there).",
    )
    async def leave(
        self, matchmaking: MatchmakingDep, request: KaitenRequest, game: GameName, entry_id: EntryId
    ) -> None:
        await matchmaking.leave(LeaveQueue(game=game, entry_id=entry_id, caller=credential(request)))
