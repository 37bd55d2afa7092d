"""Loading a game: read its stream, decode it with its game's codec, fold it into a table."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kaiten.domain.engine import AnyGame
from kaiten.domain.lobby import Table, rules_of
from kaiten.services.clocks import Clocks, fold_clocked
from kaiten.services.codec import GameCodec, codec_for, game_of_log
from kaiten.services.errors import ServiceError
from kaiten.services.ports import BUILTIN_APP, EventStore, StoredEvent


def imported_from(stored: Sequence[StoredEvent]) -> tuple[bool, str | None]:
    """Whether the game was imported from a log, and from which game (None: the document named none)."""
    first = stored[0].metadata
    return "imported_from" in first, first.get("imported_from")


def owner_of(stored: Sequence[StoredEvent]) -> str:
    """The app that owns the game: its first event's metadata names it (a log from before apps
    belongs to the built-in app)."""
    app_id = stored[0].metadata.get("app")
    return app_id if isinstance(app_id, str) else BUILTIN_APP


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

    @property
    def app_id(self) -> str:
        return owner_of(self.stored)

    def token_hashes(self) -> dict[str, str]:
        """Each human seat's token hash, kept in its SeatTaken event's metadata."""
        hashes: dict[str, str] = {}
        for stored in self.stored:
            token_hash = stored.metadata.get("token_hash")
            if token_hash is not None:
                hashes[str(stored.metadata["seat"])] = token_hash
        return hashes


#: A game id as the service writes it (`str(uuid.UUID(...))`): taken as it is, without parsing it.
_CANONICAL_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def check_game_id(game_id: str) -> str:
    """The game id in its canonical form (any form `uuid.UUID` reads); a game not found otherwise."""
    if _CANONICAL_ID.fullmatch(game_id):
        return game_id
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
