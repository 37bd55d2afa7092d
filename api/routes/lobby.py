"""The lobby around games: a seat given back before the start, invitations to private games, and
rematches of finished ones."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Response, delete, post
from litestar.params import PathParameter

from kaiten.api.auth import presented, seat_token
from kaiten.api.contract import presenting
from kaiten.api.contract.views import CreatedGame
from kaiten.api.request_body import KaitenRequest
from kaiten.api.routes.params import GameId, GamesDep
from kaiten.api.schemas import Invitation
from kaiten.services.commands import CreateInvitation, CreateRematch, LeaveSeat, RevokeInvitation

REMATCH_DESCRIPTION = """\
A new game with the same game, options, visibility and seats (bots keep theirs), linked both ways
(`rematch_of` in the new table, `rematch` in the finished or abandoned one). The first request creates it (201);
every later one, from any seat, answers the same rematch (200). Each person gets a new token for
their seat by asking through their token of the finished game; asking again replaces it.
"""


LEAVE_DESCRIPTION = """\
Records `SeatLeft`: the caller's seat of a game still waiting for players is free again, and the
token that held it holds nothing any more. The next person or bot seated takes the lowest free seat.
Once the game has started, a seat is left by resigning (409 `game-started`).
"""


class LobbyController(Controller):
    path = "/v1/games/{game_id:str}"
    tags = ["games"]

    @post(
        "/leave",
        operation_id="leaveSeat",
        summary="Give the caller's seat back before the game starts",
        description=LEAVE_DESCRIPTION,
        status_code=204,
    )
    async def leave_seat(self, games: GamesDep, game_id: GameId, request: KaitenRequest) -> None:
        seat_caller = presented(request)
        await games.leave(LeaveSeat(game_id, await seat_token(games, game_id, seat_caller)))

    @post(
        "/invitations",
        operation_id="createInvitation",
        summary="Invite someone to a free seat (any seated person may)",
        status_code=201,
    )
    async def create_invitation(self, games: GamesDep, game_id: GameId, request: KaitenRequest) -> Invitation:
        seat_caller = presented(request)
        issued = await games.invite(CreateInvitation(game_id, await seat_token(games, game_id, seat_caller)))
        return Invitation.of(issued)

    @delete("/invitations/{invitation_id:str}", operation_id="revokeInvitation", summary="Revoke an invitation")
    async def revoke_invitation(
        self,
        games: GamesDep,
        game_id: GameId,
        request: KaitenRequest,
        invitation_id: Annotated[str, PathParameter(description="The invitation's id")],
    ) -> None:
        seat_caller = presented(request)
        await games.revoke(RevokeInvitation(game_id, await seat_token(games, game_id, seat_caller), invitation_id))

    @post(
        "/rematch",
        operation_id="createRematch",
        summary="The rematch of a finished or abandoned game, with a new token for the caller's seat",
        description=REMATCH_DESCRIPTION,
    )
    async def rematch(self, games: GamesDep, game_id: GameId, request: KaitenRequest) -> Response[CreatedGame]:
        seat_caller = presented(request)
        rematch, new = await games.rematch(CreateRematch(game_id, await seat_token(games, game_id, seat_caller)))
        created = presenting.created_game(rematch)
        return Response(created, status_code=201 if new else 200, headers={"Location": f"/v1/games/{created.id}"})
