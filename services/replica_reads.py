"""Which copy of the log a read of one game comes from: the primary, or a read replica that may lag.

A read replica (PostgreSQL streaming replication) holds the log as it was a moment ago. It may answer
a read when what it holds is as new as the caller needs:
- a finished or abandoned game: its log never grows again, so any copy that has it over is the whole
  truth;
- a running game the replica has replayed up to the version the caller has already seen (a version
  it names with `min_version`, an entity tag it sends with If-None-Match, the `after` of an events
  page, the `at` of a replay). Then the caller never sees the game go back, and never misses its own
  command, whose answer told it the version.
A read that names no version goes to the replica only for a game this process has already seen
over (it remembers the latest such games; over is for ever, so the memory is never wrong);
any other goes to the primary, which also teaches the process which games are finished. Asking the
replica first would cost a running game's read, the most frequent read there is, a second round trip.
With the table cache (services/table_cache.py) this decides how a game not cached is loaded, and
where the windows of events pages and replays are read; a cached game is read from the cache, and the
primary for a running game's newest events. Anything the replica cannot answer yet (a game it does
not hold, a seat token it has not seen taken, a version it has not reached) is read from the primary.
Commands, and the reads they make, always use the primary.
"""

from __future__ import annotations

from collections import OrderedDict

from kaiten.domain.lobby import is_over
from kaiten.services.errors import ServiceError
from kaiten.services.loading import LoadedGame, check_game_id, load_game
from kaiten.services.ports import EventStore, StoredEvent
from kaiten.services.secrets import hash_secret

#: Finished games a process remembers (an id and a dict entry each, some 200 bytes).
REMEMBERED_FINISHED = 10_000


def fresh_enough(copy: LoadedGame, seen: int | None, token: str | None) -> bool:
    """Whether the replica's copy may answer a caller that has seen version `seen` (None: it says not),
    holding `token` (a secret of the game, which the copy must know of: a seat taken or an invitation
    issued after the replica's last change is read from the primary)."""
    if not is_over(copy.table) and (seen is None or copy.version < seen):
        return False
    if token is None:
        return True
    presented = hash_secret(token)
    return presented in copy.token_hashes().values() or presented in copy.table.invitations.values()


class ReplicaReads:
    """Loads games for reading, from the replica when its copy is fresh enough, else from the primary."""

    def __init__(self, primary: EventStore, replica: EventStore | None, remembered: int = REMEMBERED_FINISHED) -> None:
        self.primary = primary
        self.replica = replica
        self._remembered = remembered
        self._finished: OrderedDict[str, None] = OrderedDict()

    async def load(self, game_id: str, *, seen: int | None = None, token: str | None = None) -> LoadedGame:
        game_id = check_game_id(game_id)
        if self.replica is not None and (seen is not None or self.known_finished(game_id)):
            try:
                copy = await load_game(self.replica, game_id)
            except ServiceError as error:
                # Not there yet: the game may have been created after the replica's last replayed change.
                if error.code != "game-not-found":
                    raise
            else:
                if fresh_enough(copy, seen, token):
                    return self._learn(copy)
        return self._learn(await load_game(self.primary, game_id))

    async def window(self, game_id: str, after: int, count: int) -> list[StoredEvent]:
        """The `count` events after version `after`, all of which the primary holds: from the replica
        when it holds the whole window (a log is never rewritten, so what it holds is the truth), else
        from the primary. An events page or a replay names the version it reads from, so the replica is
        asked first, as for a read that names the version its caller has seen."""
        if self.replica is not None:
            window = await self.replica.read(game_id, after=after, limit=count)
            if len(window) == count:
                return window
        return await self.primary.read(game_id, after=after, limit=count)

    def known_finished(self, game_id: str) -> bool:
        if game_id not in self._finished:
            return False
        self._finished.move_to_end(game_id)
        return True

    def _learn(self, loaded: LoadedGame) -> LoadedGame:
        if is_over(loaded.table):
            self.learn_over(loaded.game_id)
        return loaded

    def learn_over(self, game_id: str) -> None:
        """Remember that this game is over (the table cache tells of the games it sees over)."""
        if self.replica is not None:
            self._finished[game_id] = None
            self._finished.move_to_end(game_id)
            while len(self._finished) > self._remembered:
                self._finished.popitem(last=False)
