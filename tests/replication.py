"""A PostgreSQL primary and a streaming replica of it, in temporary folders on free ports, for tests.

The replica is made the way an operator makes one: `pg_basebackup -R` copies the primary and writes
the settings that make the copy follow it. Both servers run from the Debian binaries
(/usr/lib/postgresql/<major>/bin) as the `postgres` user when the tests run as root (PostgreSQL
refuses to run as root), with durability switched off: they live only as long as the test session.
The shared server on 5432 is never touched.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

#: Options for throwaway servers: nothing is flushed to disk, little memory, no background noise.
SERVER_OPTIONS = (
    "-c fsync=off -c full_page_writes=off -c shared_buffers=16MB "
    "-c max_connections=40 -c autovacuum=off -c listen_addresses=127.0.0.1"
)
START_SECONDS = 60
CATCH_UP_SECONDS = 30.0


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's binaries, if any (and a `postgres` user to run them when root)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_basebackup"), key=lambda p: int(p.parent.parent.name))
    if not found or (os.geteuid() == 0 and not _has_user("postgres")):
        return None
    return found[-1].parent


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class Server:
    data: Path
    port: int

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"


@dataclass(frozen=True)
class Pair:
    primary: Server
    replica: Server

    def execute(self, server: Server, sql: str) -> object:
        """One statement's first value (None when it returns no rows), in autocommit."""
        engine = sa.create_engine(server.url(), isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
        try:
            with engine.connect() as connection:
                result = connection.exec_driver_sql(sql)
                return result.scalar() if result.returns_rows else None
        finally:
            engine.dispose()

    def pause_replay(self) -> None:
        self.execute(self.replica, "SELECT pg_wal_replay_pause()")
        # Pausing takes effect at the next record replayed: wait until it has.
        deadline = time.monotonic() + CATCH_UP_SECONDS
        while self.execute(self.replica, "SELECT pg_get_wal_replay_pause_state()") != "paused":
            if time.monotonic() > deadline:
                raise TimeoutError("the replica did not pause")
            time.sleep(0.02)

    def resume_replay(self) -> None:
        self.execute(self.replica, "SELECT pg_wal_replay_resume()")

    def caught_up(self) -> None:
        """Wait until the replica has replayed everything the primary has written so far."""
        target = self.execute(self.primary, "SELECT pg_current_wal_insert_lsn()::text")
        deadline = time.monotonic() + CATCH_UP_SECONDS
        while not self.execute(self.replica, f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the replica did not replay up to {target}")
            time.sleep(0.02)


class _Runner:
    """Runs PostgreSQL's programs, as `postgres` when this process is root."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.user = pwd.getpwnam("postgres") if os.geteuid() == 0 else None

    def own(self, path: Path) -> None:
        if self.user is not None:
            os.chown(path, self.user.pw_uid, self.user.pw_gid)

    def run(self, program: str, *args: str) -> None:
        command = [str(self.bin_dir / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", "postgres", "--", *command]
        completed = subprocess.run(command, capture_output=True, text=True, timeout=START_SECONDS, check=False)
        if completed.returncode != 0:
            raise RuntimeError(f"{program} failed ({completed.returncode}): {completed.stderr or completed.stdout}")

    @contextmanager
    def started(self, server: Server) -> Iterator[Server]:
        log = server.data / "server.log"
        # The socket goes beside the data folder, which pg_basebackup copies.
        options = f"{SERVER_OPTIONS} -c port={server.port} -c unix_socket_directories={server.data.parent}"
        data = str(server.data)
        self.run("pg_ctl", "start", "-w", "-t", str(START_SECONDS), "-D", data, "-l", str(log), "-o", options)
        try:
            yield server
        finally:
            self.run("pg_ctl", "stop", "-m", "immediate", "-D", str(server.data))


@contextmanager
def streaming_pair(bin_dir: Path) -> Iterator[Pair]:
    """A primary and a replica streaming from it, stopped and deleted on exit."""
    runner = _Runner(bin_dir)
    root = Path(tempfile.mkdtemp(prefix="kaiten-replication-"))
    runner.own(root)
    primary = Server(root / "primary", free_port())
    replica = Server(root / "replica", free_port())
    try:
        with ExitStack() as stack:
            runner.run("initdb", "--no-sync", "--auth=trust", "-U", "postgres", "-D", str(primary.data))
            stack.enter_context(runner.started(primary))
            runner.run(
                "pg_basebackup", "-R", "--no-sync", "--checkpoint=fast", "--no-manifest", "-h", "127.0.0.1", "-p",
                str(primary.port), "-U", "postgres", "-D", str(replica.data),
            )  # fmt: skip
            stack.enter_context(runner.started(replica))
            yield Pair(primary, replica)
    finally:
        shutil.rmtree(root, ignore_errors=True)
