"""What the use cases are asked to do: one typed input each. The API builds them from requests (and
checks the requests' shapes); the CLI, tests and scripts build them directly."""

from __future__ import annotations

from typing import Any

import msgspec

from kaiten.services.access import Credential, SeatHolder


class NewSeat(msgspec.Struct, frozen=True):
    """A person's seat (a name, and optionally the integrating app's user id) or a bot's."""

    name: str | None = None
    player_id: str | None = None
    bot: str | None = None


class CreateGame(msgspec.Struct, frozen=True):
    game: str
    players: int
    options: dict[str, Any] | None = None
    #: None: the server draws one.
    seed: int | None = None
    #: Seats filled at creation, from seat 0 on.
    seats: tuple[NewSeat, ...] = ()
    #: `private`: not listed, and a seat is taken only with an invitation.
    visibility: str = "public"
    #: With the seed, a deal the creator chose (the salt is secret otherwise, and drawn by the server).
    salt: bytes | None = None
    #: Who asks: the game belongs to the caller's app (services/access.py).
    caller: Credential = None


class TakeSeat(msgspec.Struct, frozen=True):
    game_id: str
    seat: NewSeat
    #: The code of an invitation: a private game's seats need one.
    invitation: str | None = None
    #: Who asks (services/access.py).
    caller: Credential = None


class Act(msgspec.Struct, frozen=True):
    """One command for the token's seat, as the client sent it (JSON, decoded by the game's codec)."""

    game_id: str
    #: The seat's token.
    token: SeatHolder
    body: bytes
    #: The version the client last saw: a conflict rather than a retry when the game moved on.
    if_match: int | None = None
    #: A retry with the same key answers the first answer.
    idempotency_key: str | None = None


class Resign(msgspec.Struct, frozen=True):
    """The token's person leaves the game."""

    game_id: str
    token: SeatHolder
    #: A retry with the same key answers the first answer (a resigned seat cannot resign again).
    idempotency_key: str | None = None


class LeaveSeat(msgspec.Struct, frozen=True):
    """The token's person gives their seat back before the game starts (the token holds nothing after)."""

    game_id: str
    token: SeatHolder


class CreateInvitation(msgspec.Struct, frozen=True):
    """An invitation to a free seat, issued by the token's seat."""

    game_id: str
    token: SeatHolder


class RevokeInvitation(msgspec.Struct, frozen=True):
    game_id: str
    token: SeatHolder
    invitation_id: str


class CreateRematch(msgspec.Struct, frozen=True):
    """The rematch of a finished game, with a new token for the token's seat."""

    game_id: str
    token: SeatHolder


class ErasePlayer(msgspec.Struct, frozen=True):
    """The app's player forgotten (an erasure request)."""

    player_id: str
    #: Who asks: the player is the caller's app's (services/access.py).
    caller: Credential = None


class GetTable(msgspec.Struct, frozen=True):
    """The table as the caller may see it."""

    game_id: str
    caller: Credential = None
    #: The newest version of the game the caller has seen, if it says (a read replica may answer).
    seen: int | None = None


class ListLegalCommands(msgspec.Struct, frozen=True):
    """Every command the token's seat may send now."""

    game_id: str
    token: SeatHolder
    seen: int | None = None


class ListEvents(msgspec.Struct, frozen=True):
    """A page of the log, as the caller may see it: the events after version `after`, at most `limit`."""

    game_id: str
    after: int
    limit: int
    caller: Credential = None
    seen: int | None = None


class ReplayGame(msgspec.Struct, frozen=True):
    """The table right after version `at`, as the caller's seat saw it; once the game is over, as any
    seat (`as_seat`) saw it."""

    game_id: str
    at: int
    caller: Credential = None
    as_seat: int | None = None


class ScoreTableaus(msgspec.Struct, frozen=True):
    """Tableaus to score without playing: the game's score request, as JSON."""

    game: str
    body: bytes
