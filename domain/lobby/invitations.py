"""Who may take a seat of a private game or a rematch: invitations issued and revoked, seats
claimed, and the bound on how many of them a game holds."""

from __future__ import annotations

from typing import Any

from kaiten.domain.engine import NotNow, RuleViolation
from kaiten.domain.lobby.events import MAX_ACCESS_EVENTS, InvitationIssued, InvitationRevoked, SeatClaimed
from kaiten.domain.lobby.table import Table, is_over


def issue_invitation(table: Table[Any], seat: int, invitation_id: str, code_hash: str) -> InvitationIssued:
    if is_over(table):
        raise NotNow("game-finished", "the game is over")
    check_access_room(table)
    return InvitationIssued(invitation_id=invitation_id, code_hash=code_hash, seat=seat)


def revoke_invitation(table: Table[Any], seat: int, invitation_id: str) -> InvitationRevoked:
    if invitation_id not in table.invitations:
        raise RuleViolation("unknown-invitation", "this game has no such invitation (or it was revoked)")
    if is_over(table):
        raise NotNow("game-finished", "the game is over")
    check_access_room(table)
    return InvitationRevoked(invitation_id=invitation_id, seat=seat)


def claim_seat(table: Table[Any], seat: int) -> SeatClaimed:
    """A person takes their seat of a rematch again, with a new token."""
    if is_over(table):
        raise NotNow("game-finished", "the rematch is over already")
    check_access_room(table)
    return SeatClaimed(seat=seat)


def check_access_room(table: Table[Any]) -> None:
    if table.access_events >= MAX_ACCESS_EVENTS:
        raise NotNow(
            "too-many-lobby-events",
            f"this game holds {MAX_ACCESS_EVENTS} invitations, revocations and claimed seats: no game holds more",
        )


def invited(table: Table[Any], code_hash: str | None) -> bool:
    """Whether a seat may be taken with this invitation: any, in a public game."""
    return table.visibility == "public" or (code_hash is not None and code_hash in table.invitations.values())
