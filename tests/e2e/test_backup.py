"""`kaiten export --all` and `kaiten import --all` (README, "Backup and restore"): a database with
apps, people, finished, running, clocked, abandoned, imported and resigned games, and an erased
player, backed up and restored into an empty database, on SQLite, on PostgreSQL and from one to the
other; then every game's log is the same event for event, the summary rows, deadlines and idempotency
keys are the same, and the read models rebuilt equal the source's, kept incrementally. A hostile
backup (a result changed, a running game's deal changed, a cut file, a foreign person) restores
nothing, and a database that holds anything is refused."""

from __future__ import annotations

import asyncio
import io
import json
import random
import shutil
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest
import sqlalchemy as sa
import zstandard

from kaiten.adapters.database import create_engine
from kaiten.adapters.migrate import upgrade_sync
from kaiten.adapters.projections.registry import build_projections
from kaiten.adapters.projections.runner import ProjectionRunner
from kaiten.adapters.schema import (
    app_keys,
    apps,
    deadlines,
    events,
    game_card_picks,
    game_category_points,
    game_score_counts,
    game_seat_stats,
    game_stats,
    games,
    idempotency_keys,
    match_history,
    match_players,
    people,
    player_feed,
    player_feed_heads,
    player_stats,
    season_stats,
    seasons,
)
from kaiten.api.bootstrap import bootstrap
from kaiten.api.cli import main
from kaiten.api.cli.backup import export_all, import_all
from kaiten.api.contract.presenting import command_outcome, log_document
from kaiten.services.access import AppCaller
from kaiten.services.commands import Act, CreateGame, ErasePlayer, GetTable, ListLegalCommands, NewSeat, Resign
from kaiten.services.logs import export_log, import_log
from kaiten.services.ports import BUILTIN_APP, Quotas
from kaiten.services.seasons import DefineSeason
from tests.bots import bots_move, play_to_the_end
from tests.conftest import _new_postgres_database
from tests.projecting import settle

#: The tables compared, each by its primary key (events without their positions: they are the log's).
COMPARED = {
    "apps": apps,
    "app_keys": app_keys,
    "people": people,
    "games": games,
    "deadlines": deadlines,
    "idempotency_keys": idempotency_keys,
    "match_history": match_history,
    "match_players": match_players,
    "player_stats": player_stats,
    "game_stats": game_stats,
    "game_seat_stats": game_seat_stats,
    "game_score_counts": game_score_counts,
    "game_category_points": game_category_points,
    "game_card_picks": game_card_picks,
    "seasons": seasons,
    "season_stats": season_stats,
    "player_feed_heads": player_feed_heads,
    "player_feed": player_feed,
}
READ_MODELS = ("match_history", "match_players", "player_stats", "game_stats", "game_card_picks", "season_stats")
#: Not read models, but compared the same: each must hold rows for the comparison to mean anything.
FILLED = (*READ_MODELS, "seasons", "player_feed_heads", "player_feed")


@dataclass(frozen=True)
class Filled:
    key: str
    running: str
    token: str
    finished: list[str]


@pytest.fixture(
    params=[
        pytest.param(("sqlite", "sqlite"), id="sqlite"),
        pytest.param(("postgres", "postgres"), id="postgres", marks=pytest.mark.postgres),
        pytest.param(("sqlite", "postgres"), id="sqlite-to-postgres", marks=pytest.mark.postgres),
    ]
)
def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A migrated source database and a target never migrated, both empty."""
    source_kind, target_kind = request.param
    source = request.getfixturevalue("sqlite_url" if source_kind == "sqlite" else "own_postgres_url")
    if target_kind == "sqlite":
        yield source, f"sqlite+aiosqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    with _new_postgres_database(request.getfixturevalue("_postgres_server")) as target:
        yield source, target


async def fill(url: str) -> Filled:
    """Two apps, games of every kind, then the projections caught up incrementally."""
    services = bootstrap(url)
    try:
        games_ = services.games
        shop = await services.apps.create("shop")
        await services.apps.create("other")
        caller = AppCaller(shop.app.id)
        assert services.seasons is not None
        now = datetime.now(UTC)
        season = DefineSeason("this-week", "This week", now - timedelta(days=1), now + timedelta(days=6), caller)
        await services.seasons.define(season)
        finished = []
        rng = random.Random(5)
        # Rated games between the same players, finishing in an order the ratings depend on.
        for number, (game, players) in enumerate(
            [
                ("sushi-go", 2),
                ("sushi-go-party", 3),
                ("spin-some-for-dim-sum", 2),
                ("dim-sum-derby", 3),
                ("sushi-go", 3),
            ]
        ):
            seats = [NewSeat(name=f"P{i}", player_id=f"p{(i + number) % 3}") for i in range(players)]
            created = await games_.create(CreateGame(game, players, None, 10 + number, tuple(seats), caller=caller))
            await play_to_the_end(games_, created.id, created.tokens, rng)
            finished.append(created.id)
        # A resigned seat, taken over by the greedy bot to the end.
        seats = (NewSeat(name="Ann", player_id="p0"), NewSeat(name="Bo", player_id="p1"), NewSeat(bot="random"))
        left = await games_.create(CreateGame("sushi-go", 3, None, 31, seats, caller=caller))
        await games_.resign(Resign(left.id, left.tokens["1"], idempotency_key="leave-1"))
        await play_to_the_end(games_, left.id, {"0": left.tokens["0"]})
        finished.append(left.id)
        # The built-in app's game with a guest, imported back as a log (it counts nowhere).
        guest = await games_.create(CreateGame("sushi-go", 2, None, 41, (NewSeat(name="Guest"), NewSeat(bot="greedy"))))
        await play_to_the_end(games_, guest.id, guest.tokens)
        log = msgspec.to_builtins(log_document(await export_log(games_, guest.id, AppCaller(BUILTIN_APP))))
        await import_log(games_, log, caller)
        # An erased player: their person row goes, their games stay.
        erased = await games_.create(
            CreateGame(
                "sushi-go", 2, None, 51, (NewSeat(name="Eve", player_id="eve"), NewSeat(bot="random")), caller=caller
            )
        )
        await play_to_the_end(games_, erased.id, erased.tokens)
        await games_.erase_player(ErasePlayer("eve", caller=caller))
        # A running clocked game (its deadline row) where a person is awaited, one command with a key.
        clock = {"clock": {"turn_seconds": 3600, "bank_seconds": 60, "on_timeout": "bot"}}
        running = await games_.create(
            CreateGame(
                "sushi-go-party",
                3,
                clock,
                61,
                (NewSeat(name="Ann", player_id="p0"), NewSeat(bot="greedy"), NewSeat(bot="mcts")),
                caller=caller,
            )
        )
        await bots_move(games_, running.id)
        token = running.tokens["0"]
        legal = await games_.legal_commands(ListLegalCommands(running.id, token))
        await games_.act(Act(running.id, token, msgspec.json.encode(legal.commands[0]), idempotency_key="first-move"))
        await bots_move(games_, running.id)
        # An open game waiting for a seat, and one abandoned while open? Open is enough: no GameStarted.
        await games_.create(
            CreateGame("dim-sum-derby", 3, None, 71, (NewSeat(name="Solo", player_id="p2"),), caller=caller)
        )
        assert services.engine is not None
        for projection in build_projections(services.engine.dialect.name):
            await settle(ProjectionRunner(services.engine, projection))
        return Filled(key=shop.key, running=running.id, token=token, finished=finished)
    finally:
        await services.close()


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


async def snapshot(url: str) -> dict[str, Any]:
    """Every compared table's rows, and each game's log without its global positions."""
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            tables: dict[str, Any] = {}
            for name, table in COMPARED.items():
                rows = (await connection.execute(sa.select(table).order_by(*table.primary_key.columns))).mappings()
                tables[name] = [dict(row) for row in rows]
            # An erased player's feed names nobody any more: a backup leaves it out.
            present = {row["person_id"] for row in tables["people"]}
            for name in ("player_feed_heads", "player_feed"):
                tables[name] = [row for row in tables[name] if row["person_id"] in present]
            # A quota unset is no key (as migrated) or null (as written since): the same quotas.
            for row in tables["apps"]:
                row["quotas"] = msgspec.convert(row["quotas"], Quotas)
            log = (
                await connection.execute(
                    sa.select(
                        events.c.stream_id,
                        events.c.version,
                        events.c.type,
                        events.c.schema_version,
                        events.c.data,
                        events.c.metadata,
                        events.c.recorded_at,
                        events.c.idempotency_key,
                    ).order_by(events.c.stream_id, events.c.version)
                )
            ).all()
            tables["events"] = [(s, v, t, sv, _json(d), _json(m), at, key) for s, v, t, sv, d, m, at, key in log]
            # The order the games end in the log, which the ratings fold in.
            ends = (
                await connection.execute(
                    sa.select(events.c.stream_id)
                    .where(events.c.type == "GameFinished")
                    .order_by(events.c.global_position)
                )
            ).scalars()
            tables["finish_order"] = list(ends)
        return tables
    finally:
        await engine.dispose()


def backup_to(url: str, path: Path) -> None:
    with path.open("wb") as file:
        asyncio.run(export_all(url, file))


def lines_of(path: Path) -> list[dict[str, Any]]:
    raw = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(path.read_bytes()), read_across_frames=True).read()
    return [json.loads(line) for line in raw.splitlines()]


def write_lines(path: Path, lines: list[dict[str, Any]]) -> None:
    path.write_bytes(zstandard.ZstdCompressor().compress(b"".join(json.dumps(line).encode() + b"\n" for line in lines)))


def test_a_backup_restores_every_game_and_the_read_models(databases, tmp_path, monkeypatch, capsys):
    source, target = databases
    filled = asyncio.run(fill(source))
    backup = tmp_path / "kaiten.jsonl.zst"
    monkeypatch.setenv("DATABASE_URL", source)
    assert main(["export", "--all", "-o", str(backup)]) == 0
    lines = lines_of(backup)
    kinds = [line["kind"] for line in lines]
    assert kinds[0] == "backup" and kinds[-1] == "end"
    assert kinds.count("app") == 3 and kinds.count("game") == lines[0]["games"] == 11
    # Each game's line has an export's fields, its events as stored (a running game's seed too).
    running = next(line for line in lines if line["kind"] == "game" and line["id"] == filled.running)
    assert running["format"] == "kaiten-log/1" and running["game"] == "sushi-go-party"
    assert running["events"][0]["data"]["seed"] is not None and running["deadline"] is not None
    assert {"key": "first-move"}.items() <= running["idempotency_keys"][0].items()

    monkeypatch.setenv("DATABASE_URL", target)
    assert main(["import", "--all", str(backup)]) == 0
    assert "restored 11 games, 3 apps" in capsys.readouterr().err

    before, after = asyncio.run(snapshot(source)), asyncio.run(snapshot(target))
    assert len(before["events"]) > 500 and len(before["finish_order"]) == 9
    for name in ("events", "finish_order", *COMPARED):
        assert after[name] == before[name], name
    for name in FILLED:
        assert before[name], f"{name} is empty: nothing compared"
    # Ratings moved (more than one rated game per player), and both folds agree to the last bit.
    assert any(row["rated_games"] > 1 for row in after["player_stats"])

    # Every game verifies, the app's key and the running game's seat token work on the restored one.
    for game_id in {row["game_id"] for row in after["games"]}:
        assert main(["replay", game_id, "--verify"]) == 0
    assert asyncio.run(moves_alike(source, target, filled)) is True


async def moves_alike(source: str, target: str, filled: Filled) -> bool:
    """The same next command on both databases writes the same events (the same deal goes on)."""
    written = []
    for url in (source, target):
        services = bootstrap(url)
        try:
            caller = await services.apps.authenticate(filled.key)
            table = await services.games.view(GetTable(filled.running, caller))
            assert table.status == "active"
            legal = await services.games.legal_commands(ListLegalCommands(filled.running, filled.token))
            outcome = await services.games.act(
                Act(filled.running, filled.token, msgspec.json.encode(legal.commands[-1]))
            )
            shown = msgspec.to_builtins(command_outcome(outcome).events)
            written.append([(e["version"], e["type"], e["data"]) for e in shown])
        finally:
            await services.close()
    return bool(written[0]) and written[0] == written[1]


@pytest.fixture(scope="module")
def filled_sqlite(
    sqlite_copy: Callable[[Path], str], tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, Path, Filled]:
    """A SQLite database filled once for the module, and its backup: the URL, the file, what it holds.
    Nothing writes to either (filling them took 3 s a test)."""
    folder = tmp_path_factory.mktemp("filled")
    url = sqlite_copy(folder / "kaiten.sqlite3")
    filled = asyncio.run(fill(url))
    path = folder / "backup.jsonl.zst"
    backup_to(url, path)
    return url, path, filled


@pytest.fixture
def sqlite_backup(filled_sqlite: tuple[str, Path, Filled], tmp_path: Path) -> tuple[Path, Filled]:
    """A copy of that backup for the test to change."""
    _, made, filled = filled_sqlite
    path = tmp_path / made.name
    shutil.copyfile(made, path)
    return path, filled


def restore_refused(path: Path, tmp_path: Path, monkeypatch, capsys) -> str:
    """Restoring that file fails, and leaves the database as empty as it found it."""
    target = f"sqlite+aiosqlite:///{tmp_path / 'target.sqlite3'}"
    monkeypatch.setenv("DATABASE_URL", target)
    assert main(["import", "--all", str(path)]) == 1
    error = capsys.readouterr().err
    empty = asyncio.run(snapshot(target))
    assert all(not empty[name] for name in ("events", "games", "people", "app_keys")), error
    assert [app["name"] for app in empty["apps"]] == ["built-in"]
    return error


def test_a_changed_result_restores_nothing(sqlite_backup, tmp_path, monkeypatch, capsys):
    path, filled = sqlite_backup
    lines = lines_of(path)
    game = next(line for line in lines if line.get("id") == filled.finished[0])
    finished = game["events"][-1]
    assert finished["type"] == "GameFinished"
    finished["data"]["result"]["scores"][0]["total"] += 10
    write_lines(path, lines)
    assert "result-mismatch" in restore_refused(path, tmp_path, monkeypatch, capsys)


def test_a_running_game_whose_deal_was_changed_restores_nothing(sqlite_backup, tmp_path, monkeypatch, capsys):
    """A running game's outcome events are checked against its stored seed too (an import cannot see
    a running game; a restore decides it again)."""
    path, filled = sqlite_backup
    lines = lines_of(path)
    game = next(line for line in lines if line.get("id") == filled.running)
    created = game["events"][0]["data"]
    created["seed"] += 1  # another deal than the commitment's
    write_lines(path, lines)
    assert "seed-mismatch" in restore_refused(path, tmp_path, monkeypatch, capsys)

    created["seed"] -= 1
    lobby = ("GameCreated", "SeatTaken", "GameStarted")
    # The first of the rules' events that holds a number (a card, a count, a score) gets another.
    changed = next(event for event in game["events"] if event["type"] not in lobby and _change_a_number(event["data"]))
    assert changed["version"] < len(game["events"])
    write_lines(path, lines)
    assert "import-not-reproducible" in restore_refused(path, tmp_path, monkeypatch, capsys)


def _change_a_number(value: Any) -> bool:
    """Add one to the first int found inside (not a bool)."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(item, int) and not isinstance(item, bool) and key not in ("seat", "version"):
            value[key] = item + 1
            return True
        if isinstance(item, dict | list) and _change_a_number(item):
            return True
    return False


def test_a_cut_or_mixed_up_backup_restores_nothing(sqlite_backup, tmp_path, monkeypatch, capsys):
    path, _ = sqlite_backup
    lines = lines_of(path)
    write_lines(path, lines[:-1])
    assert "cut-short" in restore_refused(path, tmp_path, monkeypatch, capsys)

    # A person of another app seated in the shop's game.
    other = next(line["app"]["app_id"] for line in lines if line["kind"] == "app" and line["app"]["name"] == "other")
    person = next(line for line in lines if line["kind"] == "person" and line["player_id"] == "p0")
    own_app, person["app_id"] = person["app_id"], other
    write_lines(path, lines)
    assert "foreign-person" in restore_refused(path, tmp_path, monkeypatch, capsys)

    # A season whose app is another than the one it comes with.
    person["app_id"] = own_app
    shop = next(line for line in lines if line["kind"] == "app" and line["app"]["name"] == "shop")
    assert [season["season_id"] for season in shop["seasons"]] == ["this-week"]
    shop["seasons"][0]["app_id"] = other
    write_lines(path, lines)
    assert "invalid-season" in restore_refused(path, tmp_path, monkeypatch, capsys)
    shop["seasons"][0]["app_id"] = shop["app"]["app_id"]

    # A feed whose items are not numbered in order, and one of a person the backup does not hold.
    feed = next(line for line in lines if line["kind"] == "feed" and len(line["items"]) >= 2)
    feed["items"].reverse()
    write_lines(path, lines)
    assert "invalid-feed" in restore_refused(path, tmp_path, monkeypatch, capsys)
    feed["items"].reverse()
    feed["person_id"] = str(uuid.uuid4())
    write_lines(path, lines)
    assert "invalid-feed" in restore_refused(path, tmp_path, monkeypatch, capsys)

    path.write_bytes(b"not zstandard at all")
    assert "not-zstandard" in restore_refused(path, tmp_path, monkeypatch, capsys)


def test_a_database_that_holds_anything_is_refused(filled_sqlite, monkeypatch, capsys):
    url, path, _ = filled_sqlite
    monkeypatch.setenv("DATABASE_URL", url)
    assert main(["import", "--all", str(path)]) == 1
    error = capsys.readouterr().err
    assert "restores into an empty database" in error and "games" in error


def test_progress_follows_the_games(sqlite_url, tmp_path):
    asyncio.run(fill(sqlite_url))
    shown: list[int] = []
    path = tmp_path / "backup.jsonl.zst"
    with path.open("wb") as file:
        asyncio.run(export_all(sqlite_url, file, progress=shown.append))
    assert shown == list(range(1, 12))
    restored: list[int] = []
    rebuilt: dict[str, list[tuple[int, int]]] = {}

    def rebuilding(name: str) -> Any:
        return lambda done, total: rebuilt.setdefault(name, []).append((done, total))

    target = f"sqlite+aiosqlite:///{tmp_path / 'target.sqlite3'}"
    upgrade_sync(target)
    with path.open("rb") as file:
        asyncio.run(import_all(target, file, progress=restored.append, rebuilt=rebuilding))
    assert restored[-1] == 11
    assert set(rebuilt) == {"history", "statistics"}
    assert all(steps[-1][0] == steps[-1][1] > 500 for steps in rebuilt.values())
