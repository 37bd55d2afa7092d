"""The append's one statement on PostgreSQL stays within what psycopg caches the conversion of: past
it, psycopg parses the statement's text again at every append (an eighth of a command's CPU)."""

from __future__ import annotations

import re

from psycopg import _queries
from sqlalchemy.dialects.postgresql import psycopg as psycopg_dialect

from kaiten.adapters.sql_statements import Statements


def test_the_append_statement_is_short_enough_for_psycopg_to_cache_its_conversion() -> None:
    append_all = Statements("postgresql").append_all
    assert append_all is not None
    text = str(append_all.compile(dialect=psycopg_dialect.dialect()))
    assert len(text) <= _queries.MAX_CACHED_STATEMENT_LENGTH, f"{len(text)} characters"
    parameters = set(re.findall(r"%\((\w+)\)s", text))
    assert len(parameters) <= _queries.MAX_CACHED_STATEMENT_PARAMS, f"{len(parameters)} parameters"
