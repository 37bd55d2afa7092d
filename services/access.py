"""Who may see and do what in a game: the credential a caller presents, against the game's owner.

A caller presents one credential (API.md, "Apps, keys and players"):

- the owning app's key (`AppCaller`): sees any of its games, private ones too, as a spectator (every
  seat once it is over); creates games, seats people by player_id and bots, registers webhooks;
- a seat token: sees the game as its seat sees it, and acts for its seat;
- a player token (`PlayerCaller`, services/players.py): acts for the seats its player holds in its
  app's games (the seats the app took under that player_id), and sees the game as that seat; in a
  game where the player holds no seat it is nobody (a public game's spectator);
- an invitation code of the game: sees the game as a spectator, private or not, and takes a free
  seat as a guest;
- nothing: sees a public game as a spectator, and does nothing on a server that needs keys.

On an open server (`open_app`: the embedded default), a caller without an app key writes as the
built-in app: it creates games, and seats people and bots in the built-in app's games it may reach
(public ones, and private ones with an invitation), as an app key would; it still reads only what a
caller without a key reads.

Nobody learns that a game exists from a refusal: another app's game, and a private game to a caller
holding no credential of it, answer exactly as a game that does not exist (`game_not_found`).
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass

import msgspec

from kaiten.domain.lobby import Table
from kaiten.services.caller import caller_seat
from kaiten.services.errors import AppKeyRequired, ServiceError
from kaiten.services.ports import BUILTIN_APP, Namespace
from kaiten.services.secrets import hash_secret


# Tagged: a route's dependency is a union of both, which msgspec (Litestar's signature model) tells
# apart only by a tag.
class AppCaller(msgspec.Struct, frozen=True, tag=True):
    """A caller whose app key was checked where the request came in."""

    app_id: str


class PlayerCaller(msgspec.Struct, frozen=True, tag=True):
    """A caller whose player token was checked where the request came in: one player of one app."""

    app_id: str
    #: The player's person (the reference their seats hold) and the app's id for them.
    person_id: str
    player_id: str


#: A seat's own token, or a player token (which holds its player's seats): what an operation only a
#: seat may call is given.
SeatHolder = PlayerCaller | str
#: An app's checked key, a player's checked token, or a game's own secret (a seat token or an
#: invitation code): what an operation that needs a credential is given (the API refuses a request
#: that sends none).
Presented = AppCaller | PlayerCaller | str
#: A credential presented, or nothing.
Credential = Presented | None


@dataclass(frozen=True, slots=True)
class Access:
    """What a credential gives in one game."""

    #: The seat the caller acts for and sees as (None: a spectator).
    seat: int | None = None
    #: The caller holds the owning app's key.
    owner: bool = False


def game_not_found(game_id: str) -> ServiceError:
    """The one answer for a game that does not exist, is another app's, or is private to the caller."""
    return ServiceError("not-found", "game-not-found", f"no game {game_id}")


def holds_invitation(table: Table[object], secret: str | None) -> bool:
    """Whether the secret is the code of one of the game's invitations not revoked."""
    if secret is None:
        return False
    presented = hash_secret(secret)
    # Compare against every invitation so the time taken does not depend on which one matched.
    held = False
    for code_hash in table.invitations.values():
        held |= hmac.compare_digest(presented, code_hash)
    return held


def seat_holding(token_hashes: Mapping[str, str], secret: str) -> int | None:
    """The seat whose token the secret is, else None."""
    presented = hash_secret(secret)
    found: int | None = None
    # Compare against every seat so the time taken does not depend on which one matched.
    for seat, token_hash in token_hashes.items():
        if hmac.compare_digest(presented, token_hash):
            found = int(seat)
    return found


def seat_of_person(table: Table[object], person_id: str) -> int | None:
    """The seat the person holds in the game (not given up to a bot), else None."""
    for seat in table.seats:
        if seat.person == person_id and seat.taken_over_by is None:
            return seat.seat
    return None


def access_to(
    game_id: str, app_id: str, table: Table[object], token_hashes: Mapping[str, str], credential: Credential
) -> Access:
    """What the credential gives in the game (owned by `app_id`); raises when it gives nothing."""
    private = table.visibility == "private"
    if isinstance(credential, AppCaller):
        if credential.app_id != app_id:
            raise game_not_found(game_id)
        return Access(owner=True)
    if isinstance(credential, PlayerCaller):
        held = None if credential.app_id != app_id else seat_of_person(table, credential.person_id)
        if held is not None:
            caller_seat.set(held)
            return Access(seat=held)
        if private:
            raise game_not_found(game_id)
        return Access()
    if credential is None:
        if private:
            raise game_not_found(game_id)
        return Access()
    seat = seat_holding(token_hashes, credential)
    if seat is not None:
        caller_seat.set(seat)
        return Access(seat=seat)
    if holds_invitation(table, credential):
        return Access()
    if private:
        raise game_not_found(game_id)
    raise ServiceError("unauthorized", "invalid-token", "this token holds no seat in this game")


def seat_of_required(access: Access) -> int:
    """The seat an operation only a seat may call acts for: a secret that holds none is refused."""
    if access.seat is None:
        raise ServiceError("unauthorized", "invalid-token", "this token holds no seat in this game")
    return access.seat


def namespace_of(caller: Credential) -> Namespace:
    """Whose records the caller reads: an app's key reads its own, private games included; anybody
    else what anybody may see of the built-in app (API.md, "Apps, keys and players")."""
    if isinstance(caller, AppCaller):
        return Namespace(app_id=caller.app_id, scope="all")
    return Namespace(app_id=BUILTIN_APP, scope="public")


def writing_app(credential: Credential, open_app: str | None) -> str:
    """The app a write that makes something new is made for: the key's, else on an open server the
    built-in app."""
    if isinstance(credential, AppCaller):
        return credential.app_id
    if isinstance(credential, PlayerCaller):
        raise player_token_refused()
    if open_app is None:
        raise AppKeyRequired()
    return open_app


def player_token_refused() -> ServiceError:
    return ServiceError(
        "forbidden", "player-token-refused", "a player token follows its player and acts at their seats only"
    )


def writes_as_owner(
    app_id: str, table: Table[object], credential: Credential, open_app: str | None, invited: bool
) -> bool:
    """Whether the caller writes in the game as its app: with the app's key, or, on an open server,
    without one in a game of the built-in app that it may reach (public, or `invited` to it)."""
    if isinstance(credential, AppCaller):
        return credential.app_id == app_id
    if isinstance(credential, PlayerCaller):
        return False
    return open_app == app_id and (table.visibility == "public" or invited)
