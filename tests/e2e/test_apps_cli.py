"""`kaiten apps create|list|quotas|rotate|revoke`, run as an operator runs them, against a real server
that needs app keys (KAITEN_AUTH=keys), on a database of each store."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import sqlalchemy as sa

from kaiten.adapters.database import create_engine
from kaiten.adapters.schema import app_keys, apps
from kaiten.api.cli import main
from kaiten.services.ports import Quotas
from kaiten.services.secrets import hash_secret
from tests import plain_http
from tests.e2e.servers import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
#: A command takes a second or two (the interpreter, the migrations' check); past this it hangs.
CLI_SECONDS = 60
#: How long a process trusts what it read of a key (services/apps.py KEYS_SECONDS): a revoked key fails
#: in every request the server checks later than that after the revocation.
KEY_CACHE_SECONDS = 0.5
POLL_SECONDS = 0.1
KEY = re.compile(r"^kaiten_app_([0-9a-f]{16})_([A-Za-z0-9_-]{20,100})$")
#: The game the test makes again and again: people's, so that it costs the server no bot's moves (a
#: game of bots plays on in the background), and stays open.
PEOPLE_GAME = {"game": "sushi-go", "players": 2, "seats": [{"name": "Ann"}, {"name": "Bo"}]}
#: More games than the test makes open at once (it makes one every POLL_SECONDS while keys rotate).
OPEN_GAMES = "1000"


async def kaiten_apps(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`kaiten apps ...` in a process of its own, on that database."""
    environment = {
        **{key: value for key, value in os.environ.items() if not key.startswith("KAITEN_")},
        "DATABASE_URL": url,
        "PYTHONPATH": str(ROOT),
    }
    return await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "kaiten.api.cli", "apps", *args],
        env=environment,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=CLI_SECONDS,
    )


def succeeded(run: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert run.returncode == 0, f"{run.args} exited {run.returncode}: {run.stderr}"
    assert "Traceback" not in run.stderr
    return run


def issued_key(run: subprocess.CompletedProcess[str]) -> tuple[str, str, str]:
    """The key a command printed, alone on standard output; its id and its secret part."""
    succeeded(run)
    assert run.stdout.endswith("\n") and run.stdout.count("\n") == 1, f"the key alone on stdout: {run.stdout!r}"
    key = run.stdout.strip()
    match = KEY.match(key)
    assert match is not None, f"not an app key: {key!r}"
    assert "shown only now" in run.stderr
    return key, match.group(1), match.group(2)


@dataclass(frozen=True)
class Use:
    """One request with a key: when it was sent and answered, and whether the key worked."""

    sent: datetime
    answered: datetime
    worked: bool


async def use_until_refused(request: Callable[[], Awaitable[httpx.Response]], uses: list[Use]) -> None:
    """Sends the request every POLL_SECONDS until the key is refused."""
    while True:
        sent = datetime.now(UTC)
        answer = await request()
        assert answer.status_code == 201 or refused(answer), answer.text
        uses.append(Use(sent, datetime.now(UTC), answer.status_code == 201))
        if answer.status_code != 201:
            return
        await asyncio.sleep(POLL_SECONDS)


def check_grace(uses: list[Use], grace_ends: datetime, grace: timedelta) -> None:
    """The key worked after its rotation (the command writes it as it reads the clock), once the server
    could no longer trust a read from before, until its grace ended (each success was checked before
    it, so sent before it), and was refused after it."""
    rotated = grace_ends - grace
    worked = [use for use in uses if use.worked]
    assert all(use.sent < grace_ends for use in worked), f"the old key worked after its grace ended: {uses}"
    assert any(use.sent >= rotated + timedelta(seconds=KEY_CACHE_SECONDS) for use in worked), (
        f"the old key was not seen working in its grace period (from {rotated} to {grace_ends}): {uses}"
    )
    assert not uses[-1].worked and uses[-1].answered >= grace_ends, f"refused before the grace ended: {uses}"


def unique_name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def database(own_database_url: str) -> str:
    """A fresh database of its own, migrated (SQLite, then PostgreSQL)."""
    return own_database_url


@pytest.fixture
async def server(database: str, tmp_path: Path) -> AsyncIterator[ServerProcess]:
    """A `kaiten serve` that needs app keys, on that database (started now, ready when first used)."""
    process = ServerProcess(database, tmp_path / "server.log", environment={"KAITEN_AUTH": "keys"})
    try:
        yield process
    finally:
        process.kill()


async def rows(url: str, table: sa.Table) -> list[dict[str, Any]]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return [dict(row) for row in (await connection.execute(sa.select(table))).mappings()]
    finally:
        await engine.dispose()


async def create_game(client: httpx.AsyncClient, server: ServerProcess, key: str) -> httpx.Response:
    return await client.post(f"{server.url}/v1/games", json=PEOPLE_GAME, headers={"Authorization": f"Bearer {key}"})


def refused(response: httpx.Response, code: str = "invalid-app-key") -> bool:
    return response.status_code in (401, 429) and response.json()["code"] == code


async def test_apps_are_created_listed_limited_rotated_and_revoked_from_the_command_line(
    database: str, server: ServerProcess, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first command runs as a process of its own, as an operator runs it; the others through the
    same `main` in a thread of this process (each process imports the server's code: seven more took
    a dozen seconds of a two-core machine's suite), one at a time, while the server takes requests."""

    async def kaiten_apps_in_a_thread(*args: str) -> subprocess.CompletedProcess[str]:
        return await asyncio.to_thread(kaiten_apps_here, database, monkeypatch, capsys, *args)

    name = unique_name("shop")
    key, key_id, secret = issued_key(await kaiten_apps(database, "create", name, "--open-games", OPEN_GAMES))

    again, listed = await kaiten_apps_in_a_thread("create", name), await kaiten_apps_in_a_thread("list")
    assert again.returncode == 1 and again.stdout == ""
    assert "app-exists" in again.stderr and "Traceback" not in again.stderr
    shown = succeeded(listed).stdout + listed.stderr
    assert name in shown and key_id in shown, shown
    assert secret not in shown and key not in shown, "a listing never shows a key"
    assert "built-in" in shown, "the app that owns what was made without a key"

    async with plain_http.async_client(timeout=30) as client:
        await server.wait_ready(client)
        assert (await client.post(f"{server.url}/v1/games", json=PEOPLE_GAME)).status_code == 401, "keys needed"
        made = await create_game(client, server, key)
        assert made.status_code == 201, made.text

        # Rotation: a new key at once; the old one keeps working for the grace period, then never. The
        # old key is used all along (the command takes a while to start and to end).
        uses: list[Use] = []
        using = asyncio.create_task(use_until_refused(lambda: create_game(client, server, key), uses))
        try:
            new_key, new_key_id, new_secret = issued_key(await kaiten_apps_in_a_thread("rotate", name, "--grace", "2s"))
            assert new_key_id != key_id
            assert (await create_game(client, server, new_key)).status_code == 201
            async with asyncio.timeout(15):
                await using
        finally:
            using.cancel()
        old_row = next(row for row in await rows(database, app_keys) if row["key_id"] == key_id)
        check_grace(uses, old_row["expires_at"].astimezone(UTC), timedelta(seconds=2))
        assert (await create_game(client, server, new_key)).status_code == 201

        # Quotas: the app made more than 3 games this hour, so it may make no more now.
        changed = succeeded(
            await kaiten_apps_in_a_thread("quotas", name, "--games-per-hour", "3", "--open-games", "none")
        )
        assert "games_per_hour=3" in changed.stderr and "open_games" not in changed.stderr, "no limit: not shown"
        stored = next(row for row in await rows(database, apps) if row["name"] == name)
        assert msgspec.convert(stored["quotas"], Quotas) == Quotas(games_per_hour=3, open_games=None)
        async with asyncio.timeout(5):
            while (answer := await create_game(client, server, new_key)).status_code == 201:
                await asyncio.sleep(POLL_SECONDS)
        assert refused(answer, "games-per-hour"), answer.text
        assert int(answer.headers["Retry-After"]) > 0

        # Revocation: every key stops working, on the server within the time it trusts what it read of
        # a key: a request checked later than that after the revocation (so sent later) is refused.
        succeeded(await kaiten_apps_in_a_thread("revoke", name))
        revoked_at = time.monotonic()
        listing = asyncio.create_task(kaiten_apps_in_a_thread("list"))
        async with asyncio.timeout(10):
            while True:
                sent = time.monotonic()
                answer = await create_game(client, server, new_key)
                if refused(answer):
                    break
                assert sent - revoked_at < KEY_CACHE_SECONDS, f"a revoked key worked {sent - revoked_at:.2f}s later"
                await asyncio.sleep(POLL_SECONDS / 2)
        assert refused(await create_game(client, server, key))

    # Only the keys' hashes are kept: no row of the apps' tables holds a key, or its secret part.
    kept = await rows(database, app_keys)
    ours = {row["key_id"]: row for row in kept if row["key_id"] in (key_id, new_key_id)}
    assert ours[key_id]["key_hash"] == hash_secret(key) and ours[new_key_id]["key_hash"] == hash_secret(new_key)
    assert all(row["revoked_at"] is not None for row in ours.values())
    for row in [*kept, *await rows(database, apps)]:
        for value in row.values():
            for held in (key, secret, new_key, new_secret):
                assert held not in str(value), f"a key is stored in {row}"

    async with asyncio.timeout(CLI_SECONDS):
        listed = succeeded(await listing)
    shown = listed.stdout + listed.stderr
    line = next(line for line in shown.splitlines() if line.startswith(name))
    assert "games_per_hour=3" in line
    assert key_id not in shown and new_key_id not in shown, "a listing shows the keys that work"


#: Input the commands refuse: (arguments, exit code, what the message says). `{name}` is an app that
#: exists. 1: the service refused (services.errors codes); 2: a bad option (as argparse's own errors).
INVALID = [
    (("create", "no spaces!"), 1, "invalid-app-name"),
    (("create", "{name}-2", "--games-per-hour", "lots"), 2, "--games-per-hour takes a number or none"),
    (("quotas", "{name}", "--games-per-hour", "\u00b2"), 2, "--games-per-hour takes a number or none"),
    (("quotas", "{name}", "--open-games", "-3"), 2, "--open-games takes a number or none"),
    (("rotate", "{name}", "--grace", "soon"), 2, "--grace must be a positive duration"),
    (("rotate", "nobody-{name}"), 1, "app-not-found"),
    (("revoke", "nobody-{name}"), 1, "app-not-found"),
    (("quotas", "nobody-{name}", "--open-games", "1"), 1, "app-not-found"),
]


def kaiten_apps_here(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> subprocess.CompletedProcess[str]:
    """`kaiten apps ...` as `kaiten_apps` runs it (the same environment), but through the command's
    `main` in this process: what it prints, and the code its process would exit with. An exception
    that would end the process with a traceback ends the test with it."""
    for variable in [variable for variable in os.environ if variable.startswith("KAITEN_")]:
        monkeypatch.delenv(variable)
    monkeypatch.setenv("DATABASE_URL", url)
    capsys.readouterr()
    try:
        code = main(["apps", *args])
    except SystemExit as exit_:  # argparse's refusals, as `python -m kaiten.api.cli` ends with main's code
        if isinstance(exit_.code, str):
            print(exit_.code, file=sys.stderr)
        code = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None)
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["kaiten", "apps", *args], code, out, err)


def test_invalid_input_gets_a_clear_message_and_no_traceback(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line checks its input before the store sees it (one store is enough here). Its
    commands run in this process, as the test above runs all but its first: eight more processes at
    once (each importing the server's code) took over a minute on a busy two-core machine."""
    name = unique_name("shop")
    key, _, _ = issued_key(kaiten_apps_here(sqlite_url, monkeypatch, capsys, "create", name))
    commands = [tuple(arg.format(name=name) for arg in args) for args, _, _ in INVALID]
    runs = [kaiten_apps_here(sqlite_url, monkeypatch, capsys, *args) for args in commands]
    for args, (_, exit_code, message), run in zip(commands, INVALID, runs, strict=True):
        assert "Traceback" not in run.stderr, f"{args}: {run.stderr}"
        assert (run.returncode, run.stdout) == (exit_code, ""), f"{args}: {run.stderr}"
        assert message in run.stderr, f"{args}: {run.stderr}"
    # Nothing changed: the app is as it was made, with its one key, and no other app came to be.
    assert sorted(row["name"] for row in asyncio.run(rows(sqlite_url, apps))) == sorted(["built-in", name])
    stored = next(row for row in asyncio.run(rows(sqlite_url, apps)) if row["name"] == name)
    assert msgspec.convert(stored["quotas"], Quotas) == Quotas()
    assert [row["key_hash"] for row in asyncio.run(rows(sqlite_url, app_keys))] == [hash_secret(key)]
