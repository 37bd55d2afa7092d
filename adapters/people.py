"""The people at the tables (services.ports.People), in the database or in memory for tests.

A row holds what the log must not: a person's name and the app's player_id for them. Erasing the row
erases them; the log keeps only the person's id, which then names nobody.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.database import for_reads, for_writes, insert_for
from kaiten.adapters.projections.upserts import chunks
from kaiten.adapters.schema import people
from kaiten.services.ports import Person

#: Person ids looked up per SELECT.
IDS_PER_READ = 500


class SqlPeople:
    def __init__(self, engine: AsyncEngine) -> None:
        self._reader = for_reads(engine)
        self._writer = for_writes(engine)
        insert = insert_for(engine.dialect.name, people)
        # One statement each: two requests enrolling the same player at once get the same person.
        self._enrol_player = insert.on_conflict_do_update(
            index_elements=[people.c.app_id, people.c.player_id],
            set_={"name": sa.func.coalesce(insert.excluded.name, people.c.name)},
        ).returning(people.c.person_id)
        self._enrol_guest = insert.on_conflict_do_nothing(index_elements=[people.c.person_id])
        self._persons = sa.select(people).where(people.c.person_id.in_(sa.bindparam("ids", expanding=True)))
        self._of_player = sa.select(people).where(
            people.c.app_id == sa.bindparam("app_id"), people.c.player_id == sa.bindparam("player_id")
        )
        self._erase = (
            sa.delete(people)
            .where(people.c.app_id == sa.bindparam("app_id"), people.c.player_id == sa.bindparam("player_id"))
            .returning(*people.c)
        )

    async def enrol(self, app_id: str, new_person_id: str, player_id: str | None, name: str | None) -> str:
        row = {
            "person_id": new_person_id,
            "app_id": app_id,
            "player_id": player_id,
            "name": name,
            "created_at": datetime.now(UTC),
        }
        async with self._writer.begin() as connection:
            if player_id is None:
                await connection.execute(self._enrol_guest, row)
                return new_person_id
            person_id: str = (await connection.execute(self._enrol_player, row)).scalar_one()
            return person_id

    async def persons(self, person_ids: Collection[str]) -> dict[str, Person]:
        found: dict[str, Person] = {}
        async with self._reader.connect() as connection:
            for chunk in chunks(sorted(person_ids), IDS_PER_READ):
                for row in (await connection.execute(self._persons, {"ids": chunk})).mappings():
                    found[row["person_id"]] = _person(row)
        return found

    async def of_player(self, app_id: str, player_id: str) -> Person | None:
        async with self._reader.connect() as connection:
            row = (await connection.execute(self._of_player, {"app_id": app_id, "player_id": player_id})).mappings()
            first = row.first()
        return None if first is None else _person(first)

    async def erase(self, app_id: str, player_id: str) -> Person | None:
        async with self._writer.begin() as connection:
            row = (await connection.execute(self._erase, {"app_id": app_id, "player_id": player_id})).mappings()
            first = row.first()
        return None if first is None else _person(first)


def _person(row: Any) -> Person:
    return Person(person_id=row["person_id"], app_id=row["app_id"], player_id=row["player_id"], name=row["name"])


class InMemoryPeople:
    def __init__(self) -> None:
        self._people: dict[str, Person] = {}

    async def enrol(self, app_id: str, new_person_id: str, player_id: str | None, name: str | None) -> str:
        if player_id is not None:
            known = await self.of_player(app_id, player_id)
            if known is not None:
                if name is not None:
                    self._people[known.person_id] = Person(known.person_id, app_id, player_id, name)
                return known.person_id
        self._people.setdefault(new_person_id, Person(new_person_id, app_id, player_id, name))
        return new_person_id

    async def persons(self, person_ids: Collection[str]) -> dict[str, Person]:
        return {person_id: self._people[person_id] for person_id in person_ids if person_id in self._people}

    async def of_player(self, app_id: str, player_id: str) -> Person | None:
        return next(
            (p for p in self._people.values() if (p.app_id, p.player_id) == (app_id, player_id)),
            None,
        )

    async def erase(self, app_id: str, player_id: str) -> Person | None:
        person = await self.of_player(app_id, player_id)
        if person is not None:
            del self._people[person.person_id]
        return person
