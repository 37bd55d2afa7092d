"""A database the release before apps and people (5971f3e, revision 0006) filled, migrated to today.

tests/fixtures/release_database_5971f3e.json holds every table's rows of that database as SQLite kept
them, and the release's answers over it (tests/fixtures/record_release_database.py). Each test loads
the rows into a new database of each store at revision 0006, upgrades it to head as a serving process
would, and checks what revision 0007 promises (its docstring): the people moved out of the log into the
built-in app's people, nothing else of any event changed, every game replays to the same table, and
the history and statistics answer as the release did, but for the changes the new release made on
purpose (stated where they are checked).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Connection

from kaiten.adapters.database import create_engine
from kaiten.adapters.migrate import alembic_config, is_migrated, upgrade
from kaiten.api.bootstrap import Services, bootstrap
from kaiten.api.contract.presenting import event_page, match_page, table_view
from kaiten.domain.catalog import GAMES
from kaiten.services.access import AppCaller
from kaiten.services.codec import codec_for, game_of_log
from kaiten.services.commands import GetTable, ListEvents
from kaiten.services.errors import ServiceError
from kaiten.services.ports import BUILTIN_APP
from kaiten.services.statistics import FinishedGame, GameTotals, PlayerRecord, add_to_players, finished_game
from kaiten.services.verification import verify_game
from tests.projecting import settle_all

FIXTURE = Path(__file__).parents[1] / "fixtures" / "release_database_5971f3e.json"
#: The release's events pages held every event of a game (record_release_database.EVENTS_PAGE).
EVENTS_PAGE = 1000
#: The people who played there, with the names they sat down with (the golden logs' Alice and Bob
#: were imported with player_ids; their other Bobs were guests).
PLAYERS = {"ann": "Ann", "bob": "Bob", "cy": "Cy", "golden-alice": "Alice", "golden-bob": "Bob"}
#: The built-in app's own records: what its key reads (private games too); an anonymous caller reads
#: what anybody may see of them.
OWN = AppCaller(app_id=BUILTIN_APP)


@cache
def release() -> dict[str, Any]:
    recorded: dict[str, Any] = json.loads(FIXTURE.read_text())
    assert recorded["recorded_by"] == "kaiten 5971f3e"
    assert recorded["tables"]["alembic_version"] == [{"version_num": "0006"}]
    return recorded


def as_json(value: Any) -> Any:
    """A value as the release's answers were kept: through JSON."""
    return json.loads(msgspec.json.encode(value))


# --- the release's database, loaded into a new one at revision 0006 ---------------------------------


def _timestamp(text: str) -> datetime:
    """A time as SQLite kept it (UTC, without an offset), as an aware datetime."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def _load_rows(connection: Connection, tables: dict[str, list[dict[str, Any]]]) -> None:
    """Every table's rows as the release stored them; on PostgreSQL, JSON text as values and SQLite's
    times as aware datetimes, and the events' positions and transaction ids assigned by the database."""
    postgres = connection.dialect.name == "postgresql"
    reflected = sa.MetaData()
    reflected.reflect(connection)
    assert set(tables) == set(reflected.tables), "the fixture holds every table of revision 0006"
    for name, rows in tables.items():
        if name == "alembic_version" or not rows:
            continue
        columns: list[sa.ColumnClause[Any]] = []
        convert: dict[str, Any] = {}
        for column in reflected.tables[name].c:
            if postgres and name == "events" and column.name in ("global_position", "tx_id"):
                continue
            assert column.name in rows[0], f"{name}.{column.name} is not in the fixture"
            if postgres and isinstance(column.type, JSONB):
                # none_as_null: a missing value is SQL NULL, as SQLite held it, not JSON null.
                columns.append(sa.column(column.name, JSONB(none_as_null=True)))
                convert[column.name] = json.loads
            elif postgres and isinstance(column.type, sa.DateTime):
                columns.append(sa.column(column.name, sa.DateTime(timezone=True)))
                convert[column.name] = _timestamp
            else:
                # SQLite's values go back exactly as they were (JSON text, time strings).
                columns.append(sa.column(column.name))
        if name == "events":
            rows = sorted(rows, key=lambda row: row["global_position"])
        values = [
            {
                column.name: (
                    row[column.name]
                    if row[column.name] is None or column.name not in convert
                    else convert[column.name](row[column.name])
                )
                for column in columns
            }
            for row in rows
        ]
        connection.execute(sa.insert(sa.table(name, *columns)), values)
    positions = connection.execute(
        sa.text("SELECT global_position, stream_id, version FROM events ORDER BY global_position")
    ).all()
    recorded = [(row["global_position"], row["stream_id"], row["version"]) for row in tables["events"]]
    assert [tuple(row) for row in positions] == sorted(recorded), "the log keeps its order and positions"


async def migrate(url: str, revision: str, *, down: bool = False) -> None:
    """Alembic's own upgrade (or downgrade) to `revision`, as tests/integration/test_migrations.py runs it."""
    step = command.downgrade if down else command.upgrade
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(lambda sync: step(alembic_config(sync), revision))
    finally:
        await engine.dispose()


async def load_release(url: str) -> None:
    """A new database at revision 0006 holding the release's rows."""
    await migrate(url, "0006")
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_load_rows, release()["tables"])
    finally:
        await engine.dispose()


@pytest.fixture
async def migrated(empty_database_url: str) -> str:
    """The release's database, upgraded to head as `kaiten serve` upgrades it."""
    await load_release(empty_database_url)
    await upgrade(empty_database_url)
    return empty_database_url


async def serving(url: str) -> Services:
    """Services over the database, their projections caught up (folded from the whole log again)."""
    services = bootstrap(url)
    try:
        await settle_all(services.projection_runners)
    except BaseException:
        await services.close()
        raise
    return services


@pytest.fixture
async def services(migrated: str) -> AsyncIterator[Services]:
    built = await serving(migrated)
    try:
        yield built
    finally:
        await built.close()


async def read_rows(url: str, statement: str) -> list[dict[str, Any]]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return [dict(row) for row in (await connection.execute(sa.text(statement))).mappings()]
    finally:
        await engine.dispose()


# --- what the release recorded, folded again (to tell the deliberate changes exactly) -------------------


@dataclass(frozen=True)
class Finished:
    game_id: str
    imported: bool
    public: bool
    #: The game as the statistics fold it; its players are the release's player_ids.
    folded: FinishedGame


@cache
def finished_games() -> list[Finished]:
    """The release's finished games, in the order their GameFinished were appended (the order the
    statistics fold them in), read from the recorded log."""
    logs: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in sorted(release()["tables"]["events"], key=lambda row: row["global_position"]):
        logs[row["stream_id"]].append(row)
    finished: list[tuple[int, Finished]] = []
    for game_id, log in logs.items():
        if log[-1]["type"] != "GameFinished":
            continue
        codec = codec_for(game_of_log(log[0]["data"].encode()))
        events = [codec.decode_event(row["type"], row["schema_version"], row["data"].encode()) for row in log]
        folded = finished_game(codec.game, events)
        imported = "imported_from" in json.loads(log[0]["metadata"])
        entry = Finished(game_id, imported=imported, public=folded.public, folded=folded)
        finished.append((log[-1]["global_position"], entry))
    return [entry for _, entry in sorted(finished, key=lambda item: item[0])]


def player_stats_of(games: Iterable[Finished]) -> dict[str, dict[str, Any]]:
    """Each player_id's statistics, as the API answers them, from these games alone."""
    records: dict[tuple[str, str], PlayerRecord] = {}
    add_to_players(records, [game.folded for game in games])
    answers: dict[str, dict[str, Any]] = {player: {"player_id": player, "games": []} for player in PLAYERS}
    for (player, _game), record in sorted(records.items()):
        answers[player]["games"].append(
            {
                "game": record.game,
                "played": record.played,
                "wins": record.wins,
                "win_rate": record.wins / record.played,
                "mean_score": record.score_sum / record.played,
                "best_score": record.best_score,
                "rating": record.rating,
                "mu": record.mu,
                "sigma": record.sigma,
                "rated_games": record.rated_games,
                "resigned": record.resigned,
            }
        )
    return answers


def leaderboards_of(stats: dict[str, dict[str, Any]], names: dict[str, str] | None) -> dict[str, Any]:
    """The leaderboards these statistics make: rated players, best rating first (with their names
    when `names` is given: today's entries have them)."""
    boards: dict[str, Any] = {}
    for game in sorted(GAMES):
        rated = [
            (player, entry)
            for player, answer in stats.items()
            for entry in answer["games"]
            if entry["game"] == game and entry["rated_games"] > 0
        ]
        # The release broke ties by player_id; today by person id, which the migration drew at random.
        rated.sort(key=lambda item: (-item[1]["rating"], item[0]))
        ratings = [entry["rating"] for _, entry in rated]
        assert names is None or len(set(ratings)) == len(ratings), "no tie today: the order is the ratings'"
        boards[game] = {
            "game": game,
            "players": [
                {
                    "rank": rank,
                    "player_id": player,
                    **({} if names is None else {"name": names[player]}),
                    **{key: entry[key] for key in ("rating", "mu", "sigma", "played", "wins", "rated_games")},
                    # Today's entries also say what to show (the name), and the page where the next starts.
                    **({} if names is None else {"display_name": names[player]}),
                }
                for rank, (player, entry) in enumerate(rated, start=1)
            ],
            # Today's boards also say which season's they are (none: all time).
            **({} if names is None else {"next_cursor": None, "season": None}),
        }
    return boards


def game_stats_of(games: Iterable[Finished]) -> dict[str, dict[str, Any]]:
    """Each game's statistics, as the API answers them, from these games alone."""
    totals = GameTotals()
    for finished in games:
        totals.add(finished.folded)
    answers: dict[str, dict[str, Any]] = {}
    for game in sorted(GAMES):
        sums: Counter[str] = totals.games.get(game, Counter())
        count, seats = sums["games"], sums["player_games"]
        answers[game] = {
            "game": game,
            "games": count,
            "player_games": seats,
            "mean_score": sums["score_sum"] / seats if seats else None,
            "mean_winning_score": sums["winning_score_sum"] / count if count else None,
            "resigned_seats": sums["resigned_seats"],
            "score_distribution": [
                {"score": score, "seats": n} for (of, score), n in sorted(totals.scores.items()) if of == game
            ],
            "win_rate_by_seat": [
                {
                    "players": players,
                    "seat": seat,
                    "games": c["games"],
                    "wins": c["wins"],
                    "win_rate": c["wins"] / c["games"] if c["games"] else 0.0,
                }
                for (of, players, seat), c in sorted(totals.seats.items())
                if of == game
            ],
            "points_per_category": [
                {"category": category, "points": points, "mean_per_player": points / seats if seats else 0.0}
                for (of, category), points in sorted(totals.categories.items())
                if of == game
            ],
            "pick_rates": [
                {
                    "slug": slug,
                    "picks": picks,
                    "pick_rate": picks / sums["picks"] if sums["picks"] else 0.0,
                    "picks_per_player": picks / seats if seats else 0.0,
                }
                for (of, slug), picks in sorted(totals.cards.items(), key=lambda item: (-item[1], item[0][1]))
                if of == game
            ],
        }
    return answers


def test_the_fold_gives_the_release_answers() -> None:
    """The recomputation the tests below expect today's answers from gives the release's own answers
    from every finished game: the differences found below are the games left out, and nothing else."""
    answers = release()["answers"]
    everything = finished_games()
    stats = player_stats_of(everything)
    assert stats == answers["player_stats"]
    assert game_stats_of(everything) == answers["game_stats"]
    assert leaderboards_of(stats, names=None) == answers["leaderboards"]
    # What the fixture holds: imported finished games of every game, one private game (Sushi Go!).
    assert Counter(game.folded.game for game in everything if game.imported) == Counter(
        {"sushi-go": 1, "sushi-go-party": 1, "spin-some-for-dim-sum": 1, "dim-sum-derby": 1}
    )
    assert [(game.folded.game, game.imported) for game in everything if not game.public] == [("sushi-go", False)]


# --- the tests ---------------------------------------------------------------------------------------


async def test_every_game_shows_and_replays_as_the_release_showed_it(services: Services) -> None:
    """Names come back from the people table: each spectator's table and events page is the release's."""
    recorded = release()["answers"]
    private = {game.game_id for game in finished_games() if not game.public}
    assert len(recorded["tables"]) == 11
    for game_id, table in recorded["tables"].items():
        if game_id in private:
            # A deliberate change: a private game is no longer shown to a caller holding no credential
            # of it (as if it did not exist); its owner (the built-in app's key) sees what the release
            # showed anybody.
            with pytest.raises(ServiceError) as refused:
                await services.games.view(GetTable(game_id))
            assert refused.value.code == "game-not-found"
            with pytest.raises(ServiceError):
                await services.games.events(ListEvents(game_id, after=0, limit=EVENTS_PAGE))
            caller = OWN
        else:
            caller = None
        shown = table_view(await services.games.view(GetTable(game_id, caller)))
        assert as_json(shown) == table, f"the table of {game_id}"
        events = event_page(await services.games.events(ListEvents(game_id, after=0, limit=EVENTS_PAGE, caller=caller)))
        assert as_json(events) == recorded["events"][game_id], f"the events of {game_id}"
        # `kaiten replay --verify`: the stored log passes an import's checks and rebuilds the summary.
        report = await verify_game(services.games.store, game_id)
        assert (report.problem, report.drift) == (None, []), f"{game_id}: {report}"


async def test_people_move_out_of_the_log_into_the_builtin_apps_people(migrated: str) -> None:
    tables = release()["tables"]
    before = {row["global_position"]: row for row in tables["events"]}
    after = await read_rows(
        migrated,
        "SELECT global_position, stream_id, version, type, schema_version, CAST(data AS TEXT) AS data, "
        "CAST(metadata AS TEXT) AS metadata, recorded_at, idempotency_key FROM events ORDER BY global_position",
    )
    people = {row["person_id"]: row for row in await read_rows(migrated, "SELECT * FROM people")}
    assert len(after) == len(before)
    seat_references: dict[tuple[str, int], str] = {}
    for row in after:
        old = before[row["global_position"]]
        data, old_data = json.loads(row["data"]), json.loads(old["data"])
        # Nothing else of any event changes: its place, type, schema, metadata and time are the release's.
        assert {key: row[key] for key in ("stream_id", "version", "type", "schema_version", "idempotency_key")} == {
            key: old[key] for key in ("stream_id", "version", "type", "schema_version", "idempotency_key")
        }
        assert json.loads(row["metadata"]) == json.loads(old["metadata"])
        if isinstance(row["recorded_at"], str):  # SQLite's text, read without the column's type
            assert row["recorded_at"] == old["recorded_at"]
        else:
            assert row["recorded_at"] == _timestamp(old["recorded_at"])
        if row["type"] != "SeatTaken" or old_data["bot"] is not None:
            assert data == old_data, f"event {row['global_position']} changed"
            continue
        # A person's seat: the event holds a reference now, never the name or the player_id.
        assert "name" not in data and "player_id" not in data, data
        guest = old_data["player_id"] is None
        assert data == {"type": "SeatTaken", "seat": old_data["seat"], "person": data["person"]} | (
            {"guest": True} if guest else {}
        )
        person = people[data["person"]]
        assert (person["app_id"], person["player_id"], person["name"]) == (
            BUILTIN_APP,
            old_data["player_id"],
            old_data["name"],
        )
        seat_references[row["stream_id"], data["seat"]] = data["person"]
    # No event holds a name or player_id anywhere any more.
    for row in after:
        assert not set(_strings(json.loads(row["data"]))) & (set(PLAYERS) | set(PLAYERS.values())), row

    # The built-in app's people: one per player_id, one per guest's seat (the golden logs' two guests
    # named Bob, and the running game's Guest), each with the name they sat down with.
    players = {person["player_id"]: person["name"] for person in people.values() if person["player_id"] is not None}
    assert players == PLAYERS
    guests = sorted(person["name"] for person in people.values() if person["player_id"] is None)
    assert guests == ["Bob", "Bob", "Guest"]
    assert {person["app_id"] for person in people.values()} == {BUILTIN_APP}
    assert len(set(seat_references.values())) == len(people), "every person sits somewhere"

    # The games' summaries hold the same references, and no name or player_id either.
    summaries = {row["game_id"]: row for row in await read_rows(migrated, "SELECT * FROM games")}
    assert {row["app_id"] for row in summaries.values()} == {BUILTIN_APP}
    imported = {game["game_id"] for game in tables["games"]} & {
        row["stream_id"] for row in tables["events"] if row["version"] == 1 and "imported_from" in row["metadata"]
    }
    assert {game_id for game_id, row in summaries.items() if row["imported"]} == imported
    assert len(imported) == 4
    for game in tables["games"]:
        seats = summaries[game["game_id"]]["seats"]
        seats = json.loads(seats) if isinstance(seats, str) else seats
        for seat in seats:
            assert "name" not in seat and "player_id" not in seat, seat
            reference = seat_references.get((game["game_id"], seat["seat"]))
            assert seat.get("person") == reference
    # The catch-up read models were emptied and rewound: the next serving process folds the log again.
    checkpoints = await read_rows(migrated, "SELECT name, tx_id, global_position, events FROM projection_checkpoints")
    assert sorted(checkpoints, key=lambda row: row["name"]) == [
        {"name": name, "tx_id": 0, "global_position": 0, "events": 0} for name in ("history", "statistics")
    ]
    for table in ("match_history", "match_players", "player_stats", "game_stats", "game_card_picks"):
        assert await read_rows(migrated, f"SELECT * FROM {table}") == [], table
    # The app itself, and no keys yet.
    apps = await read_rows(migrated, "SELECT app_id, name FROM apps")
    assert apps == [{"app_id": BUILTIN_APP, "name": "built-in"}]
    assert await read_rows(migrated, "SELECT * FROM app_keys") == []


def _strings(value: Any) -> Iterator[str]:
    """Every string a JSON value holds, keys aside."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


async def test_history_and_statistics_answer_as_the_release_did_but_for_deliberate_changes(
    services: Services,
) -> None:
    history = services.history
    assert history is not None
    recorded = release()["answers"]
    everything = finished_games()

    # The match history, to a caller without a key: the release's, page for page. (The private game
    # was already left out of it; imported games stay listed.)
    matches: list[Any] = []
    cursor = None
    for _ in range(20):
        page = await history.matches(limit=3, cursor=cursor)
        matches.extend(as_json(match_page(page).items))
        cursor = page.next_cursor
        if cursor is None:
            break
    assert matches == recorded["matches"]
    # The built-in app's key also lists its private game.
    own = as_json(match_page(await history.matches(OWN, limit=100)).items)
    private = [game.game_id for game in everything if not game.public]
    assert [match["id"] for match in own if match["id"] not in private] == [m["id"] for m in recorded["matches"]]
    assert len(own) == len(recorded["matches"]) + 1

    # Deliberate change: games imported from logs count in no statistics and no rating (kaiten did not
    # see them played). So golden-alice and golden-bob, who played only imported games, have none now.
    # Deliberate change: a private game counts in what its app reads, not in what anybody reads. So the
    # built-in app's own statistics are the release's for ann, bob and cy (none of them was in an
    # imported game), while an anonymous caller's leave Ann and Bob's private Sushi Go! game out.
    played_here = [game for game in everything if not game.imported]
    public = [game for game in played_here if game.public]
    expected_own, expected_public = player_stats_of(played_here), player_stats_of(public)
    for player in PLAYERS:
        mine = as_json(await history.player_stats(player, OWN))
        anybodys = as_json(await history.player_stats(player))
        assert mine == expected_own[player], player
        assert anybodys == expected_public[player], player
        if player.startswith("golden-"):
            assert recorded["player_stats"][player]["games"], "the release counted their imported games"
            assert mine["games"] == anybodys["games"] == []
            continue
        assert mine == recorded["player_stats"][player], player
        for entry, released in zip(anybodys["games"], recorded["player_stats"][player]["games"], strict=True):
            if player in ("ann", "bob") and entry["game"] == "sushi-go":
                # One game fewer, the private one, which came last: the rating is the one before it.
                assert entry["played"] == released["played"] - 1
                assert entry["rated_games"] == released["rated_games"] - 1
                assert entry["rating"] != released["rating"]
            else:
                assert entry == released, (player, entry["game"])

    # Game statistics lose the imported games' contributions (to anybody, and the private game's too).
    own_stats = game_stats_of(played_here)
    public_stats = game_stats_of(public)
    imported = Counter(game.folded.game for game in everything if game.imported)
    privately = Counter(game.folded.game for game in everything if not game.public)
    for game in sorted(GAMES):
        mine = as_json(await history.game_stats(game, OWN))
        anybodys = as_json(await history.game_stats(game))
        assert mine == own_stats[game], game
        assert anybodys == public_stats[game], game
        released = recorded["game_stats"][game]
        assert mine["games"] == released["games"] - imported[game]
        assert anybodys["games"] == released["games"] - imported[game] - privately[game]

    # Leaderboards: entries gain the player's `name` (from the people); the golden players' imported
    # games rate them nowhere now; the built-in app's own boards are the release's without them, and
    # anybody's leave the private game out.
    for game in sorted(GAMES):
        mine = as_json(await history.leaderboard(game, 100, OWN))
        anybodys = as_json(await history.leaderboard(game, 100))
        released = [entry for entry in recorded["leaderboards"][game]["players"] if entry["player_id"] in PLAYERS]
        kept = [entry for entry in released if not entry["player_id"].startswith("golden-")]
        assert mine == {
            "game": game,
            "players": [
                {
                    **entry,
                    "rank": rank,
                    "name": PLAYERS[entry["player_id"]],
                    "display_name": PLAYERS[entry["player_id"]],
                }
                for rank, entry in enumerate(kept, start=1)
            ],
            "next_cursor": None,
            "season": None,
        }, game
        assert mine == leaderboards_of(expected_own, PLAYERS)[game]
        assert anybodys == leaderboards_of(expected_public, PLAYERS)[game]


async def test_a_downgrade_puts_names_back_into_the_log_and_an_upgrade_again_works(migrated: str) -> None:
    tables = release()["tables"]
    # Served once: the read models of today were filled before going back.
    await (await serving(migrated)).close()
    await migrate(migrated, "0006", down=True)
    engine = create_engine(migrated)
    try:
        assert not await is_migrated(engine)
        async with engine.connect() as connection:
            names = await connection.run_sync(lambda sync: set(sa.inspect(sync).get_table_names()))
    finally:
        await engine.dispose()
    assert names == set(tables), "revision 0006's tables, and no others"
    events = await read_rows(migrated, "SELECT global_position, CAST(data AS TEXT) AS data FROM events")
    before = {row["global_position"]: json.loads(row["data"]) for row in tables["events"]}
    # Every event is the release's again: SeatTaken holds the names and player ids.
    assert {row["global_position"]: json.loads(row["data"]) for row in events} == before
    summaries = await read_rows(migrated, "SELECT game_id, seats FROM games")
    seats = {row["game_id"]: row["seats"] for row in summaries}
    assert {game_id: json.loads(value) if isinstance(value, str) else value for game_id, value in seats.items()} == {
        game["game_id"]: json.loads(game["seats"]) for game in tables["games"]
    }
    checkpoints = await read_rows(migrated, "SELECT name, global_position FROM projection_checkpoints")
    assert {row["name"]: row["global_position"] for row in checkpoints} == {"history": 0, "statistics": 0}

    await upgrade(migrated)
    services = await serving(migrated)
    try:
        recorded = release()["answers"]
        private = {game.game_id for game in finished_games() if not game.public}
        for game_id, table in recorded["tables"].items():
            caller = OWN if game_id in private else None
            assert as_json(table_view(await services.games.view(GetTable(game_id, caller)))) == table, game_id
        assert services.history is not None
        assert as_json(match_page(await services.history.matches(limit=100)).items) == recorded["matches"]
    finally:
        await services.close()
