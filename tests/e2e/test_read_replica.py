"""A read replica through HTTP: a PostgreSQL primary and a streaming replica of it (tests/replication.py).

While the replica's replay is paused (a replica lagging as far behind as a test wants), the reads that
must be fresh still are (a running game's table and legal commands with no version named, a game or a
seat the replica does not know yet), while the match history and the reads that name a version the
replica holds answer from the replica and lag. Which copy answered is told by the answers themselves
(the replica's are older), or by counting the statements each engine ran.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from typing import Any

import msgspec
import pytest
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from kaiten.adapters.migrate import upgrade_sync
from kaiten.api.app import create_app
from kaiten.api.bootstrap import Services, bootstrap
from kaiten.api.cli import main
from kaiten.api.settings import Settings, SettingsError
from tests.app_client import AppClient
from tests.e2e.play import finished as over
from tests.e2e.serving import serving
from tests.loud_skips import skip_loudly
from tests.projecting import settle_all
from tests.replication import Pair, free_port, postgres_bin, streaming_pair

Client = AppClient
DATABASE = "kaiten"
TWO_PEOPLE = {"game": "sushi-go", "players": 2, "seed": 5, "seats": [{"name": "ann"}, {"name": "bob"}]}
#: How long an idle scheduler waits before it looks for due games again, unless nudged.
IDLE = timedelta(hours=1)
TWO_BOTS = {"game": "sushi-go", "players": 2, "seed": 6, "seats": [{"bot": "random"}, {"bot": "random"}]}


@pytest.fixture(scope="module")
def pair() -> Iterator[Pair]:
    """A migrated primary and its replica, for this module."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        skip_loudly(
            "Read replica",
            "no PostgreSQL binaries under /usr/lib/postgresql/*/bin (or, as root, no postgres user to run "
            "them) for a primary and a replica",
            "KAITEN_REQUIRE_POSTGRES",
        )
    with streaming_pair(bin_dir) as started:
        started.execute(started.primary, f"CREATE DATABASE {DATABASE}")
        upgrade_sync(started.primary.url(DATABASE))
        started.caught_up()
        yield started


@pytest.fixture
async def services(pair: Pair) -> AsyncIterator[Services]:
    """Services reading from the replica, whose scheduler makes the bots' moves. It looks for due games
    when an append leaves a bot owed a move, and else only once an hour: a test counting the statements
    each engine runs counts none of its idle looks."""
    async with serving(
        pair.primary.url(DATABASE), read_database_url=pair.replica.url(DATABASE), scheduler_interval=IDLE
    ) as built:
        yield built


@pytest.fixture
async def lagging(pair: Pair) -> AsyncIterator[Pair]:
    """The replica, its replay paused from here to the end of the test (and caught up after)."""
    await asyncio.to_thread(pair.caught_up)
    await asyncio.to_thread(pair.pause_replay)
    try:
        yield pair
    finally:
        await asyncio.to_thread(pair.resume_replay)
        await asyncio.to_thread(pair.caught_up)


class Statements:
    """Statements each engine ran (one per query), to tell which database answered."""

    def __init__(self, **engines: AsyncEngine | None) -> None:
        self.counts: Counter[str] = Counter()
        #: The text of each statement, by engine.
        self.ran: dict[str, list[str]] = {name: [] for name in engines}
        for name, engine in engines.items():
            assert engine is not None
            event.listen(engine.sync_engine, "before_cursor_execute", self._counter(name))

    def _counter(self, name: str) -> Any:
        def count(_connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
            self.counts[name] += 1
            self.ran[name].append(statement)

        return count

    def clear(self) -> None:
        self.counts.clear()
        for statements in self.ran.values():
            statements.clear()


async def ok(client: Client, method: str, url: str, **kwargs: Any) -> Any:
    response = await client.request(method, url, **kwargs)
    assert response.status_code in (200, 201), response.text
    return response.json()


async def command(client: Client, game_id: str, token: str) -> int:
    """The seat's first legal command, sent; the version after it."""
    bearer = {"Authorization": f"Bearer {token}"}
    legal = await ok(client, "GET", f"/v1/games/{game_id}/legal-commands", headers=bearer)
    outcome = await ok(
        client,
        "POST",
        f"/v1/games/{game_id}/commands",
        content=msgspec.json.encode(legal["commands"][0]),
        headers=bearer,
    )
    version: int = outcome["version"]
    return version


async def test_fresh_reads_stay_fresh_while_the_replica_lags(client: Client, pair: Pair, lagging: Pair) -> None:
    # The game is created while the replica is paused: the replica does not hold it at all.
    game = await ok(client, "POST", "/v1/games", json=TWO_PEOPLE)
    game_id, created = game["id"], game["version"]
    seen = await client.get(f"/v1/games/{game_id}?min_version={created}")
    assert seen.json()["version"] == created
    created_tag = seen.headers["ETag"]
    await asyncio.to_thread(pair.resume_replay)
    await asyncio.to_thread(pair.caught_up)
    await asyncio.to_thread(pair.pause_replay)

    moved = await command(client, game_id, game["tokens"]["0"])
    ann = {"Authorization": f"Bearer {game['tokens']['0']}"}
    # With no version named, the table and the legal commands are the primary's: the command shows.
    assert (await ok(client, "GET", f"/v1/games/{game_id}"))["version"] == moved
    assert (await ok(client, "GET", f"/v1/games/{game_id}/legal-commands", headers=ann))["version"] == moved
    # Naming the version the command answered gets it too (the replica has not reached it).
    assert (await ok(client, "GET", f"/v1/games/{game_id}?min_version={moved}", headers=ann))["version"] == moved

    # This process keeps the running game's table and reads the events after it from the primary, so
    # even a caller that has seen only the older version gets the newest; the page's window, which the
    # replica lacks, comes from the primary.
    cached = await client.get(f"/v1/games/{game_id}", headers={"If-None-Match": created_tag})
    assert cached.status_code == 200 and cached.json()["version"] == moved
    page = await ok(client, "GET", f"/v1/games/{game_id}/events?after={created}")
    assert page["last_version"] == moved and [e["version"] for e in page["events"]] == [moved]
    # A process that has not cached the game may answer that caller from the replica, which is there.
    uncached = bootstrap(pair.primary.url(DATABASE), read_database_url=pair.replica.url(DATABASE), cached_tables=0)
    try:
        async with AppClient(app=create_app(uncached)) as other:
            older = await other.get(f"/v1/games/{game_id}", headers={"If-None-Match": created_tag})
            assert older.status_code == 304 and older.headers["ETag"] == created_tag
            page = await ok(other, "GET", f"/v1/games/{game_id}/events?after={created}")
            assert (page["events"], page["last_version"]) == ([], created)
    finally:
        await uncached.close()

    await asyncio.to_thread(pair.resume_replay)
    await asyncio.to_thread(pair.caught_up)
    caught_up = await client.get(f"/v1/games/{game_id}", headers={"If-None-Match": created_tag})
    assert caught_up.status_code == 200 and caught_up.json()["version"] == moved
    page = await ok(client, "GET", f"/v1/games/{game_id}/events?after={created}")
    assert page["last_version"] == moved and [e["version"] for e in page["events"]] == [moved]


async def test_the_history_lags_with_the_replica_while_the_game_is_read_fresh(
    client: Client, services: Services, pair: Pair, lagging: Pair
) -> None:
    finished = await over(client, (await ok(client, "POST", "/v1/games", json=TWO_BOTS))["id"])
    assert finished["status"] == "finished"
    await settle_all(services.projection_runners)
    history = await ok(client, "GET", "/v1/games?status=finished&limit=100")
    assert finished["id"] not in [item["id"] for item in history["items"]]
    # The table, its log and its export: the replica does not hold the game, the primary answers.
    assert (await ok(client, "GET", f"/v1/games/{finished['id']}"))["status"] == "finished"
    export = await ok(client, "GET", f"/v1/games/{finished['id']}/export")
    assert len(export["events"]) == finished["version"]

    await asyncio.to_thread(pair.resume_replay)
    await asyncio.to_thread(pair.caught_up)
    history = await ok(client, "GET", "/v1/games?status=finished&limit=100")
    assert finished["id"] in [item["id"] for item in history["items"]]


async def test_finished_games_history_and_statistics_are_read_from_the_replica(
    client: Client, services: Services, pair: Pair
) -> None:
    finished = await over(client, (await ok(client, "POST", "/v1/games", json=TWO_BOTS))["id"])
    assert finished["status"] == "finished"
    running = await ok(client, "POST", "/v1/games", json=TWO_PEOPLE)
    await settle_all(services.projection_runners)
    await asyncio.to_thread(pair.caught_up)
    statements = Statements(primary=services.engine, replica=services.read_engine)
    game_id = finished["id"]
    # This process created the game and keeps its table: a game that is over is read from it with no
    # query of its log; the replica answers whether a finished game has a rematch yet.
    await ok(client, "GET", f"/v1/games/{game_id}")
    assert statements.counts == {"replica": 1}
    statements.clear()

    for url in (
        f"/v1/games/{game_id}/events",
        f"/v1/games/{game_id}/replay?at=3",
        f"/v1/games/{game_id}/export",
        "/v1/games?status=finished",
        "/v1/stats/sushi-go",
        "/v1/leaderboard/sushi-go",
    ):
        await ok(client, "GET", url)
    assert statements.counts["primary"] == 0 and statements.counts["replica"] >= 6

    # A running game's cached table asks the primary for the events after it, version named or not.
    # (Its people's names, which a process shows for a second as it last read them (services/people.py),
    # are read again from the primary when the test took longer than that: they are not counted.)
    await ok(client, "GET", f"/v1/games/{running['id']}?min_version={running['version']}")
    await ok(client, "GET", f"/v1/games/{running['id']}")
    read = [statement for statement in statements.ran["primary"] if "FROM people" not in statement]
    assert len(read) == 2 and all("FROM events" in statement for statement in read), read


async def test_a_serving_process_reads_from_the_replica_its_settings_name(pair: Pair) -> None:
    settings = Settings(database_url=pair.primary.url(DATABASE), read_database_url=pair.replica.url(DATABASE))
    app = create_app(settings=settings)
    async with AppClient(app=app) as served:
        assert (await served.get("/ready")).status_code == 200
        read_engine = app.state.services.read_engine
        async with read_engine.connect() as connection:
            assert await connection.scalar(sa.text("SELECT pg_is_in_recovery()"))


async def test_while_the_replica_is_unreachable_the_primary_answers_its_reads(pair: Pair) -> None:
    nowhere = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/{DATABASE}"
    async with (
        serving(pair.primary.url(DATABASE), read_database_url=nowhere) as services,
        AppClient(app=create_app(services)) as served,
    ):
        assert (await served.get("/ready")).status_code == 200
        finished = await ok(served, "POST", "/v1/games", json=TWO_BOTS)
        assert (await over(served, finished["id"]))["status"] == "finished"
        await settle_all(services.projection_runners)
        assert (await ok(served, "GET", f"/v1/games/{finished['id']}"))["status"] == "finished"
        history = await ok(served, "GET", "/v1/games?status=finished&limit=100")
        assert finished["id"] in [item["id"] for item in history["items"]]
        assert (await ok(served, "GET", "/v1/stats/sushi-go"))["games"] >= 1


@pytest.mark.parametrize(
    ("primary", "replica"),
    [
        ("sqlite:///kaiten.sqlite3", "postgresql+psycopg://replica/kaiten"),
        ("postgresql+psycopg://primary/kaiten", "sqlite:///copy.sqlite3"),
    ],
)
def test_a_replica_with_sqlite_is_refused_at_start_up(
    monkeypatch: pytest.MonkeyPatch, primary: str, replica: str
) -> None:
    monkeypatch.setenv("DATABASE_URL", primary)
    monkeypatch.setenv("KAITEN_READ_DATABASE_URL", replica)
    with pytest.raises(SettingsError, match="KAITEN_READ_DATABASE_URL"):
        Settings.from_env()
    with pytest.raises(ValueError, match="read replica"):
        bootstrap(primary, read_database_url=replica)


def test_the_command_line_names_the_setting_it_cannot_start_with(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "sqlite:///kaiten.sqlite3")
    monkeypatch.setenv("KAITEN_READ_DATABASE_URL", "postgresql+psycopg://replica/kaiten")
    assert main(["migrate"]) == 2
    assert "KAITEN_READ_DATABASE_URL" in capsys.readouterr().err


def test_without_a_replica_url_everything_uses_the_primary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KAITEN_READ_DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://primary/kaiten")
    assert Settings.from_env().read_database_url is None
