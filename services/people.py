"""People at the tables: the log holds who sat where as opaque references; names and player ids live
beside it, in the people an app's erasure deletes (DESIGN.md, "Trust").

Every answer that shows a seat (a table, an event, the history, a leaderboard) shows it through
`shown_seat` (api/contract/presenting.py): a person's name and player_id as they are now, or a neutral
label once erased. A serving process keeps the people it looked up for `NAMES_SECONDS`, so a table is
shown without a query each time, and an erasure or a new name reaches every process within that time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Mapping

import msgspec

from kaiten.domain.lobby import Seat
from kaiten.services.lru import Lru
from kaiten.services.ports import People, Person

#: How long a process shows a person as it last read them.
NAMES_SECONDS = 1.0
#: People a process keeps (a few hundred bytes each).
KEPT_PEOPLE = 100_000

#: Looked up: the person, or None when they were erased (or never were).
_Looked = tuple[float, Person | None]


class Names:
    """The people a serving process looked up lately."""

    def __init__(
        self,
        people: People,
        keep_seconds: float = NAMES_SECONDS,
        capacity: int = KEPT_PEOPLE,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.people = people
        self._keep_seconds = keep_seconds
        self._now = now
        self._looked: Lru[str, _Looked] = Lru(capacity)

    async def of(self, person_ids: Iterable[str | None]) -> dict[str, Person]:
        """The people of these ids that were not erased, by id."""
        wanted = {person_id for person_id in person_ids if person_id is not None}
        now = self._now()
        found: dict[str, Person] = {}
        missing: list[str] = []
        for person_id in wanted:
            looked = self._looked.get(person_id)
            if looked is None or now - looked[0] >= self._keep_seconds:
                missing.append(person_id)
            elif looked[1] is not None:
                found[person_id] = looked[1]
        if missing:
            read = await self.people.persons(missing)
            for person_id in missing:
                person = read.get(person_id)
                self._looked.put(person_id, (now, person))
                if person is not None:
                    found[person_id] = person
        return found

    async def of_seats(self, seats: Iterable[Seat]) -> dict[str, Person]:
        return await self.of(seat.person for seat in seats)

    def learn(self, person: Person) -> None:
        """A person this process just wrote (enrolled or renamed)."""
        self._looked.put(person.person_id, (self._now(), person))

    def forget(self, person_id: str) -> None:
        """A person this process just erased: shown erased at once here."""
        self._looked.put(person_id, (self._now(), None))


def seats_of_record(seats: Collection[Mapping[str, object]]) -> list[Seat]:
    """Seats as a read model keeps them (JSON), back as the table's seats."""
    return [msgspec.convert(seat, Seat) for seat in seats]
