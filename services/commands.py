"""What the use cases are asked to do: one typed input each. The API builds them from requests (and
checks the requests' shapes); the CLI, tests and scripts build them directly."""

from __future__ import annotations

from typing import Any

import msgspec

from services.access import Credential


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
    token: Credential
    body: bytes
    #: The version the client last saw: a conflict rather than a retry when the game moved on.
    if_match: int | None = None
    #: A retry with the same key answers the first answer.
    idempotency_key: str | None = None


class Resign(msgspec.Struct, frozen=True):
    """The token's person leaves the game."""

    game_id: str
    token: Credential
    #: A retry with the same key answers the first answer (a resigned seat cannot resign again).
    idempotency_key: str | None = None


class ScoreTableaus(msgspec.Struct, frozen=True):
    """Tableaus to score without playing: the game's score request, as JSON."""

    game: str
    body: bytes
