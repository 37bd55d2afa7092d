"""Point-in-time recovery of PostgreSQL, rehearsed once as the README tells it ("Backup and restore").

A cluster of its own in a temporary folder on a free port (never the shared server), archiving its
WAL to a folder; a base backup; kaiten commands; a restore point; more commands; then the base
backup restored into another folder and recovered up to the restore point from the archive. Every
game then passes `kaiten replay --verify`, and what was done before the point is there, what was
done after is not.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest
import sqlalchemy as sa

from kaiten.api.bootstrap import bootstrap
from kaiten.api.cli import main
from kaiten.services.commands import Act, CreateGame, ListLegalCommands, NewSeat
from tests.bots import bots_move
from tests.loud_skips import skip_loudly
from tests.replication import _Runner, free_port, postgres_bin

POINT = "between-two-commands"
WAIT_SECONDS = 60.0
#: The whole rehearsal's bound (initdb, two servers, a base backup, a recovery).
pytestmark = pytest.mark.timeout(240)


@dataclass(frozen=True)
class Cluster:
    runner: _Runner
    root: Path
    archive: Path

    def start(self, data: Path, port: int, settings: dict[str, str]) -> str:
        """Start the server of that data folder with these settings (written into its
        postgresql.auto.conf, whose later lines win); its kaiten database's URL."""
        lines = [f"{name} = '{value}'" for name, value in {**SERVER, **settings, "port": str(port)}.items()]
        with (data / "postgresql.auto.conf").open("a") as conf:
            conf.write("\n".join(lines) + "\n")
        log = self.root / f"{data.name}.log"
        self.runner.run("pg_ctl", "start", "-w", "-t", str(int(WAIT_SECONDS)), "-D", str(data), "-l", str(log))
        return f"postgresql+psycopg://postgres@127.0.0.1:{port}/kaiten"

    def stop(self, data: Path) -> None:
        self.runner.run("pg_ctl", "stop", "-m", "fast", "-D", str(data))

    def copy(self, source: Path, target: Path) -> None:
        command = ["cp", "-a", str(source), str(target)]
        if self.runner.user is not None:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, timeout=WAIT_SECONDS)


#: A throwaway server (nothing flushed, little memory) that archives its WAL.
SERVER = {
    "listen_addresses": "127.0.0.1",
    "fsync": "off",
    "shared_buffers": "16MB",
    "max_connections": "20",
    "autovacuum": "off",
    "wal_level": "replica",
}


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    bin_dir = postgres_bin()
    if bin_dir is None:
        skip_loudly(
            "Point in time recovery",
            "no PostgreSQL binaries under /usr/lib/postgresql/*/bin (or, as root, no postgres user to run "
            "them) for a cluster with a WAL archive",
            "KAITEN_REQUIRE_POSTGRES",
        )
    runner = _Runner(bin_dir)
    root = Path(tempfile.mkdtemp(prefix="kaiten-pitr-"))
    archive = root / "wal"
    archive.mkdir()
    for path in (root, archive):
        runner.own(path)
    made = Cluster(runner, root, archive)
    try:
        yield made
    finally:
        for data in (root / "primary", root / "restored"):
            if (data / "postmaster.pid").exists():
                subprocess.run([*_as_postgres(runner), str(bin_dir / "pg_ctl"), "stop", "-m", "immediate", "-D",
                                str(data)], capture_output=True, timeout=WAIT_SECONDS, check=False)  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)


def _as_postgres(runner: _Runner) -> list[str]:
    return ["runuser", "-u", "postgres", "--"] if runner.user is not None else []


def sql(url: str, statement: str, database: str | None = None) -> object:
    engine = sa.create_engine(
        url if database is None else sa.make_url(url).set(database=database), isolation_level="AUTOCOMMIT"
    )
    try:
        with engine.connect() as connection:
            result = connection.exec_driver_sql(statement)
            return result.scalar() if result.returns_rows else None
    finally:
        engine.dispose()


async def games_played(url: str) -> tuple[str, str, str]:
    """A finished bots' game, and a running one where Ann is awaited: their ids and Ann's token."""
    services = bootstrap(url)
    try:
        done = await services.games.create(CreateGame("sushi-go", 2, None, 3, (NewSeat(bot="random"),) * 2))
        await bots_move(services.games, done.id)
        seats = (NewSeat(name="Ann", player_id="ann"), NewSeat(bot="greedy"))
        running = await services.games.create(CreateGame("sushi-go", 2, None, 4, seats))
        await bots_move(services.games, running.id)
        return done.id, running.id, running.tokens["0"]
    finally:
        await services.close()


async def ann_plays(url: str, game_id: str, token: str) -> int:
    """Ann's first legal command (her bot opponent's moves owed are made first); the version after."""
    services = bootstrap(url)
    try:
        await bots_move(services.games, game_id)
        legal = await services.games.legal_commands(ListLegalCommands(game_id, token))
        outcome = await services.games.act(Act(game_id, token, msgspec.json.encode(legal.commands[0])))
        return outcome.version
    finally:
        await services.close()


def wait_for(check: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.1)


def test_recovery_to_a_restore_point_between_two_commands(cluster, monkeypatch, capsys):
    primary, base, restored = cluster.root / "primary", cluster.root / "base", cluster.root / "restored"
    cluster.runner.run("initdb", "--no-sync", "--auth=trust", "-U", "postgres", "-D", str(primary))
    archiving = {"archive_mode": "on", "archive_command": f"cp %p {cluster.archive}/%f"}
    url = cluster.start(primary, free_port(), {**archiving, "unix_socket_directories": str(cluster.root)})
    sql(url, "CREATE DATABASE kaiten", database="postgres")
    monkeypatch.setenv("DATABASE_URL", url)
    assert main(["migrate"]) == 0
    finished, running, token = asyncio.run(games_played(url))
    port = sa.make_url(url).port
    cluster.runner.run(
        "pg_basebackup", "--no-sync", "--checkpoint=fast", "-X", "stream", "-h", "127.0.0.1", "-p", str(port),
        "-U", "postgres", "-D", str(base),
    )  # fmt: skip

    # The first command (and an app made), the restore point, then the second command (and another app).
    assert main(["apps", "create", "before-the-point"]) == 0
    first = asyncio.run(ann_plays(url, running, token))
    sql(url, f"SELECT pg_create_restore_point('{POINT}')")
    second = asyncio.run(ann_plays(url, running, token))
    assert main(["apps", "create", "after-the-point"]) == 0
    assert second > first
    # The segment holding the point (and what follows) goes to the archive.
    segment = str(sql(url, "SELECT pg_walfile_name(pg_current_wal_lsn())"))
    sql(url, "SELECT pg_switch_wal()")
    wait_for(lambda: (cluster.archive / segment).exists(), f"WAL segment {segment} archived")
    cluster.stop(primary)

    # Recovery: the base backup copied into another folder, replayed from the archive up to the point.
    cluster.copy(base, restored)
    recovery = {
        "restore_command": f"cp {cluster.archive}/%f %p",
        "recovery_target_name": POINT,
        "recovery_target_action": "promote",
        "archive_mode": "off",
        "unix_socket_directories": str(cluster.root),
    }
    (restored / "recovery.signal").touch()
    cluster.runner.own(restored / "recovery.signal")
    recovered = cluster.start(restored, free_port(), recovery)
    wait_for(lambda: sql(recovered, "SELECT NOT pg_is_in_recovery()"), "the recovered server promoted")

    monkeypatch.setenv("DATABASE_URL", recovered)
    capsys.readouterr()
    game_ids = str(sql(recovered, "SELECT string_agg(game_id, ',' ORDER BY game_id) FROM games")).split(",")
    assert game_ids == sorted([finished, running])
    for game_id in game_ids:
        assert main(["replay", game_id, "--verify"]) == 0, capsys.readouterr().err
        report = json.loads(capsys.readouterr().out)
        assert report["drift"] == [] and report["problem"] is None
    # The first command is there, the second is not; so with the apps made around them.
    assert sql(recovered, f"SELECT max(version) FROM events WHERE stream_id = '{running}'") == first
    assert sql(recovered, f"SELECT version FROM games WHERE game_id = '{running}'") == first
    names = sql(recovered, "SELECT string_agg(name, ',' ORDER BY name) FROM apps")
    assert names == "before-the-point,built-in"
    assert os.listdir(cluster.archive)
