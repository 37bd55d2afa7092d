"""Loading a game: read its stream, decode it with its game's codec, fold it into a table."""

from __future__ import annotations

import hashlib
import hmac
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.engine import AnyGame
from domain.lobby import Table, rules_of
from services.caller import caller_seat
from services.clocks import Clocks, fold_clocked
from services.codec import GameCodec, codec_for, game_of_log
from services.errors import ServiceError
from services.ports import EventStore, StoredEvent


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class LoadedGame:
    game_id: str
    codec: GameCodec
    stored: Sequence[StoredEvent]
    events: Sequence[Any]
    table: Table[Any]
    #: The seats' turn clocks (None: the game has no clock).
    clocks: Clocks | None = None

    @property
    def game(self) -> AnyGame:
        """The game under the rules version the table was created with."""
        return rules_of(self.codec.game, self.table)

    @property
    def version(self) -> int:
        return len(self.stored)

    def token_hashes(self) -> dict[str, str]:
        """Each human seat's token hash, kept in its SeatTaken event's metadata."""
        hashes: dict[str, str] = {}
        for stored in self.stored:
            token_hash = stored.metadata.get("token_hash")
            if token_hash is not None:
                hashes[str(stored.metadata["seat"])] = token_hash
        return hashes

    def seat_of(self, token: str | None) -> int | None:
        """The seat a bearer token belongs to; None for a spectator (no token)."""
        return seat_holding(self.token_hashes(), token)


def seat_holding(token_hashes: Mapping[str, str], token: str | None) -> int | None:
    """The seat whose token hash is the token's; None for a spectator (no token); 401 for any other."""
    if token is None:
        return None
    presented = hash_token(token)
    found: int | None = None
    # Compare against every seat so the time taken does not depend on which one matched.
    for seat, token_hash in token_hashes.items():
        if hmac.compare_digest(presented, token_hash):
            found = int(seat)
    if found is None:
        raise ServiceError("unauthorized", "invalid-token", "this token holds no seat in this game")
    caller_seat.set(found)
    return found


def check_game_id(game_id: str) -> str:
    try:
        return str(uuid.UUID(game_id))
    except ValueError:
        raise ServiceError("not-found", "game-not-found", f"no game {game_id!r}") from None


async def load_game(store: EventStore, game_id: str) -> LoadedGame:
    game_id = check_game_id(game_id)
    stored = await store.read(game_id)
    if not stored:
        raise ServiceError("not-found", "game-not-found", f"no game {game_id}")
    codec = codec_for(game_of_log(stored[0].data))
    events = [codec.decode_stored(item) for item in stored]
    timed = zip(events, (item.recorded_at for item in stored), strict=True)
    table, clocks = fold_clocked(codec.game, None, None, timed)
    return LoadedGame(game_id=game_id, codec=codec, stored=stored, events=events, table=table, clocks=clocks)
