"""The append's one statement on PostgreSQL stays within what psycopg caches the conversion of: past
it, psycopg parses the statement's text again at every append (an eighth of a command's CPU). The
statements are built and compiled once a process."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NoReturn

import pytest
import sqlalchemy as sa
from psycopg import _queries
from sqlalchemy.dialects.postgresql import psycopg as psycopg_dialect

from kaiten.adapters.database import create_engine
from kaiten.adapters.sql_statements import Statements
from kaiten.adapters.sql_store import SqlEventStore


def test_the_append_statement_is_short_enough_for_psycopg_to_cache_its_conversion() -> None:
    append_all = Statements("postgresql").append_all
    assert append_all is not None
    text = str(append_all.compile(dialect=psycopg_dialect.dialect()))
    assert len(text) <= _queries.MAX_CACHED_STATEMENT_LENGTH, f"{len(text)} characters"
    parameters = set(re.findall(r"%\((\w+)\)s", text))
    assert len(parameters) <= _queries.MAX_CACHED_STATEMENT_PARAMS, f"{len(parameters)} parameters"


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_a_second_store_on_a_dialect_builds_and_compiles_no_statement(
    dialect: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every set of services makes its stores (each test makes one): the statements and the append's
    compiled SQL are the dialect's, made by the first store of a process. Nothing connects here."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'kaiten.sqlite3'}" if dialect == "sqlite" else "postgresql+psycopg://x@y/z"
    SqlEventStore(create_engine(url))

    def refused(*args: object, **kwargs: object) -> NoReturn:
        raise AssertionError("built or compiled again")

    monkeypatch.setattr(Statements, "__init__", refused)
    monkeypatch.setattr(sa.sql.ClauseElement, "compile", refused)
    SqlEventStore(create_engine(url))
