"""Which copy of the log a read of one game comes from: the primary, or a read replica that may lag.

A read replica (PostgreSQL streaming replication) holds the log as it was a moment ago. It may answer
a read when what it holds is as new as the caller needs:
- a finished game: its log never grows again, so any copy that has it finished is the whole truth;
- a running game the replica has replayed up to the version the caller has already seen (a version
  it names with `min_version`, an entity tag it sends with If-None-Match, the `after` of an events
  page, the `at` of a replay). Then the caller never sees the game go back, and never misses its own
  command, whose answer told it the version.
A read with no such version first asks the replica for the game's summary row (one row, written in the
same transaction as the events): only a game finished there is then read from it. A running game read
with no such version (the first look at a table, or the table right after a
command whose version the caller did not pass on) comes from the primary, as does anything the replica
cannot answer yet: a game it does not hold, a seat token it has not seen taken. Commands, and the reads
they make, always use the primary.
"""

from __future__ import annotations

from services.errors import ServiceError
from services.loading import LoadedGame, check_game_id, hash_token, load_game
from services.ports import EventStore

#: A game in this status has its whole log: nothing is appended after GameFinished.
FINAL_STATUS = "finished"


def fresh_enough(copy: LoadedGame, seen: int | None, token: str | None) -> bool:
    """Whether the replica's copy may answer a caller that has seen version `seen` (None: it says not)."""
    if copy.table.status != FINAL_STATUS and (seen is None or copy.version < seen):
        return False
    return token is None or hash_token(token) in copy.token_hashes().values()


async def load_for_reading(
    primary: EventStore, replica: EventStore | None, game_id: str, *, seen: int | None, token: str | None
) -> LoadedGame:
    """The game from the replica when its copy is fresh enough for this caller, else from the primary."""
    if replica is not None and (seen is not None or await finished_on(replica, game_id)):
        try:
            copy = await load_game(replica, game_id)
        except ServiceError as error:
            # Not there yet: the game may have been created after the replica's last replayed change.
            if error.code != "game-not-found":
                raise
        else:
            if fresh_enough(copy, seen, token):
                return copy
    return await load_game(primary, game_id)


async def finished_on(replica: EventStore, game_id: str) -> bool:
    """Whether the replica holds the game finished, by its summary row (no log read)."""
    summary = await replica.summary(check_game_id(game_id))
    return summary is not None and summary.status == FINAL_STATUS
