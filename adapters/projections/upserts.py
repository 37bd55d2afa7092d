"""INSERT ... ON CONFLICT statements for read models, in the dialect at hand (PostgreSQL or SQLite)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar

import sqlalchemy as sa

from kaiten.adapters.database import insert_for

T = TypeVar("T")


def _keys(table: sa.Table) -> list[sa.Column[object]]:
    return list(table.primary_key.columns)


def adding(dialect_name: str, table: sa.Table) -> sa.Insert:
    """Insert the row, or add its values to the existing row's (every column outside the key)."""
    insert = insert_for(dialect_name, table)
    sums = {c.name: c + insert.excluded[c.name] for c in table.c if not c.primary_key}
    return insert.on_conflict_do_update(index_elements=_keys(table), set_=sums)


def replacing(dialect_name: str, table: sa.Table) -> sa.Insert:
    """Insert the row, or overwrite the existing row's columns outside the key."""
    insert = insert_for(dialect_name, table)
    values = {c.name: insert.excluded[c.name] for c in table.c if not c.primary_key}
    return insert.on_conflict_do_update(index_elements=_keys(table), set_=values)


def ignoring(dialect_name: str, table: sa.Table) -> sa.Insert:
    """Insert the row unless one with its key exists."""
    return insert_for(dialect_name, table).on_conflict_do_nothing(index_elements=_keys(table))


def chunks(items: Sequence[T] | Iterable[T], size: int) -> Iterator[list[T]]:
    """`items` in lists of at most `size`, keeping statements under the databases' parameter limits."""
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
