"""Shared test configuration: hypothesis profiles, and the databases of integration and e2e tests.

PostgreSQL is found in this order (DESIGN.md, "Tests and Postgres"): KAITEN_TEST_DATABASE_URL, else a
throwaway container when a Docker engine answers `docker info`, else its tests are skipped loudly,
unless KAITEN_REQUIRE_POSTGRES=1 (CI), which makes a missing PostgreSQL an error. The session creates
its own database on that server, migrates it with Alembic, and drops it at the end. A test that needs a
migrated database of its own gets a copy of a migrated template (CREATE DATABASE ... TEMPLATE), which
costs a fraction of a migration.
"""

from __future__ import annotations

import compileall
import os
import secrets
import shutil
import subprocess
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, settings

from kaiten.adapters.database import async_url
from kaiten.adapters.migrate import upgrade_sync
from tests.loud_skips import required, skip_loudly, summarize_loud_skips

settings.register_profile(
    "ci", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

POSTGRES_IMAGE = "postgres:17-alpine"
#: Set to 1 (CI) to fail rather than skip when there is no PostgreSQL.
REQUIRE_POSTGRES = "KAITEN_REQUIRE_POSTGRES"


@sa.event.listens_for(sa.pool.Pool, "connect")
def _sqlite_commits_without_waiting_for_the_disk(dbapi_connection: Any, _record: Any) -> None:
    """The tests' SQLite connections in this process commit without an fsync (synchronous = NORMAL, in
    the write-ahead log mode kaiten sets): a commit is as visible and as safe from a killed process as
    with FULL (the log is in the operating system's hands); only a power cut could lose the last ones.
    On a busy disk FULL's fsync costs milliseconds a commit (a quarter of tests/e2e/test_play.py's and
    test_lobby.py's time on SQLite). Servers the tests start as processes keep kaiten's own settings."""
    if "sqlite" in type(dbapi_connection).__module__:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()


ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    """Compiles kaiten's sources and the tests' helpers to bytecode, once, before any test worker
    starts. Where Python is told not to write bytecode (PYTHONDONTWRITEBYTECODE, set on some machines
    and CI runners), each process the suite starts (servers, command lines, bot workers: some three
    hundred) would otherwise compile every module it imports from source, 0.3 s of CPU each; a
    module already compiled is read, whatever that setting. Files compiled before are skipped. (The
    test modules pytest rewrites are written as it rewrites them: tests/writing_bytecode.py.)"""
    if hasattr(config, "workerinput"):
        return  # a worker: its controller has compiled them
    package = ROOT / "kaiten"
    # kaiten/ links the top-level folders into one package; compileall does not follow links.
    folders = [package, ROOT / "tests", *(path.resolve() for path in package.iterdir() if path.is_symlink())]
    for folder in folders:
        compileall.compile_dir(folder, quiet=2)


#: The fixtures that run a test once on each store.
STORE_FIXTURES = ("database_url", "own_database_url", "empty_database_url")


def _store_of_one_store_tests() -> str:
    """Where `one_store` tests run: PostgreSQL, the production store, wherever the suite has one (CI
    requires it); else SQLite. No Docker probe here: collection must stay cheap."""
    has_postgres = os.environ.get("KAITEN_TEST_DATABASE_URL") or required(REQUIRE_POSTGRES)
    return "postgres" if has_postgres else "sqlite"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks the tests that need PostgreSQL, and keeps one store's run of each `one_store` test."""
    kept_store = _store_of_one_store_tests()
    kept, deselected = [], []
    for item in items:
        if {"postgres_url", "own_postgres_url"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.postgres)
        callspec = getattr(item, "callspec", None)
        stores = {callspec.params.get(name) for name in STORE_FIXTURES} - {None} if callspec else set()
        if item.get_closest_marker("one_store") and stores and kept_store not in stores:
            deselected.append(item)
        else:
            kept.append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    summarize_loud_skips(terminalreporter)


def _migrate(url: str) -> None:
    # In a thread of its own: these fixtures may be set up from inside the running event loop
    # (request.getfixturevalue in async code), where upgrade_sync's asyncio.run() is not allowed.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(upgrade_sync, url).result()


def _docker_answers() -> bool:
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture(scope="session")
def _postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server (any database on it) this session may create databases on."""
    url = os.environ.get("KAITEN_TEST_DATABASE_URL")
    if url:
        yield url
        return
    if _docker_answers():
        from testcontainers.community.postgres import PostgresContainer

        with PostgresContainer(POSTGRES_IMAGE, driver="psycopg") as container:
            yield container.get_connection_url()
        return
    skip_loudly(
        "PostgreSQL",
        "KAITEN_TEST_DATABASE_URL is not set and no Docker engine answers `docker info`. "
        "Set KAITEN_TEST_DATABASE_URL=postgresql+psycopg://user@host:5432/postgres or start Docker.",
        REQUIRE_POSTGRES,
    )


@contextmanager
def _new_postgres_database(server_url: str, template: str | None = None) -> Iterator[str]:
    """A database of its own on that server (async URL), dropped on exit even if still in use; a copy of
    the database named `template` if given (which nobody may be connected to meanwhile)."""
    server = async_url(server_url)
    name = f"kaiten_test_{secrets.token_hex(6)}"
    # The synchronous psycopg driver: CREATE DATABASE cannot run in a transaction, hence AUTOCOMMIT.
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
            # A commit returns without waiting for its WAL to reach the disk: what a test's sessions see is
            # the same (a transaction is visible once committed), only a crash of this shared server could
            # lose the last commits, and no test stops or crashes it (the failover, replica and recovery
            # tests run servers of their own). On a busy disk each commit's flush costs milliseconds.
            connection.exec_driver_sql(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
        try:
            yield server.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as connection:
                connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        admin.dispose()


@pytest.fixture(scope="session")
def postgres_url(_postgres_server: str) -> Iterator[str]:
    """A fresh database for this session on the PostgreSQL server, migrated to head (async URL)."""
    with _new_postgres_database(_postgres_server) as url:
        _migrate(url)
        yield url


@pytest.fixture(scope="session")
def _postgres_template(_postgres_server: str) -> Iterator[str]:
    """The name of a migrated database that the tests' own databases are copied from. Nothing connects
    to it once migrated (PostgreSQL copies a template only then)."""
    with _new_postgres_database(_postgres_server) as url:
        _migrate(url)
        name = sa.make_url(url).database
        assert name is not None
        yield name


@pytest.fixture
def own_postgres_url(_postgres_server: str, _postgres_template: str) -> Iterator[str]:
    """A fresh migrated database of this test's own, for what the session's must not see or leave behind
    (games whose bots are still owed moves, which the next test's servers would make)."""
    with _new_postgres_database(_postgres_server, template=_postgres_template) as url:
        yield url


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file that each test copies: copying is much faster than migrating."""
    path = tmp_path_factory.mktemp("sqlite-template") / "kaiten.sqlite3"
    _migrate(f"sqlite+aiosqlite:///{path}")
    # Closing its last connection checkpointed the write-ahead log into the file: it is complete.
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture(scope="session")
def sqlite_copy(_sqlite_template: Path) -> Callable[[Path], str]:
    """Makes a fresh migrated SQLite database at a path (a copy of the template) and answers its async
    URL: for fixtures of any scope."""

    def copy(path: Path) -> str:
        shutil.copyfile(_sqlite_template, path)
        return f"sqlite+aiosqlite:///{path}"

    return copy


@pytest.fixture
def sqlite_url(sqlite_copy: Callable[[Path], str], tmp_path: Path) -> str:
    """A fresh migrated SQLite database file for this test (async URL)."""
    return sqlite_copy(tmp_path / "kaiten.sqlite3")


@pytest.fixture(
    params=[
        pytest.param("sqlite", id="sqlite"),
        pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
    ]
)
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test that uses it runs twice: on a fresh SQLite file and on the session's PostgreSQL (once,
    for a test marked `one_store`)."""
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


@pytest.fixture(
    params=[
        pytest.param("sqlite", id="sqlite"),
        pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
    ]
)
def own_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh migrated database of this test's own, shared with no other fixture's: a copy of the
    migrated SQLite file, then a new PostgreSQL database copied from the migrated template (async URL)."""
    if request.param == "sqlite":
        copy: Callable[[Path], str] = request.getfixturevalue("sqlite_copy")
        return copy(tmp_path / "own.sqlite3")
    url: str = request.getfixturevalue("own_postgres_url")
    return url


@pytest.fixture(
    params=[
        pytest.param("sqlite", id="sqlite"),
        pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
    ]
)
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database that was never migrated (async URL): a new SQLite file, a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    with _new_postgres_database(request.getfixturevalue("_postgres_server")) as url:
        yield url
