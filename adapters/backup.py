"""A whole database read as a backup's lines, and restored from them (services/backup.py).

The backup is read in one transaction, on PostgreSQL at REPEATABLE READ: every line comes from the
same snapshot, so a backup taken while servers play is one moment of the database, each game whole.
The restore writes everything in one transaction too: a line refused midway leaves the database as
empty as it was (events cannot be deleted once written: a trigger refuses it). Events are inserted
game after game in the file's order, so that the restored log holds the games' last events (their
ends) in the source's order, which is what the ratings fold in.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from datetime import datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from kaiten.adapters.database import for_writes
from kaiten.adapters.projections.upserts import chunks, ignoring
from kaiten.adapters.schema import (
    app_keys,
    apps,
    deadlines,
    events,
    games,
    idempotency_keys,
    people,
    player_feed,
    player_feed_heads,
    seasons,
)
from kaiten.services.backup import (
    FORMAT,
    AppLine,
    Deadline,
    End,
    EventLine,
    FeedEntry,
    FeedLine,
    GameLine,
    Header,
    InvalidBackup,
    KeyUse,
    Line,
    PersonLine,
    RestoredGame,
    Restoring,
    game_line,
)
from kaiten.services.ports import BUILTIN_APP, AppRecord, KeyRecord, Quotas, SeasonRecord

#: Games whose rows are read per SELECT while backing up.
GAMES_PER_READ = 100
#: Restored games written per batch of INSERTs (within the one transaction).
GAMES_PER_WRITE = 100
PEOPLE_PER_WRITE = 1000
#: A person's feed items per line of the backup: a long feed takes several lines.
FEED_ITEMS_PER_LINE = 1000
_FEED_COLUMNS = tuple(column for column in player_feed.c if column.name != "person_id")

_metadata = msgspec.json.Decoder(dict[str, Any])


class NotEmpty(Exception):
    """The database a restore was pointed at already holds something."""


async def contents(connection: AsyncConnection) -> dict[str, int]:
    """What the database holds beyond a freshly migrated one (the built-in app, keyless)."""
    counts = {
        "games": sa.select(sa.func.count()).select_from(games),
        "events": sa.select(sa.func.count()).select_from(events),
        "apps": sa.select(sa.func.count()).select_from(apps).where(apps.c.app_id != BUILTIN_APP),
        "app keys": sa.select(sa.func.count()).select_from(app_keys),
        "people": sa.select(sa.func.count()).select_from(people),
    }
    return {name: int((await connection.execute(query)).scalar_one()) for name, query in counts.items()}


# --- backing up -----------------------------------------------------------------------------------


async def backup_lines(engine: AsyncEngine, now: datetime) -> AsyncIterator[Line]:
    """Every line of the database's backup, from one snapshot: header, apps, people, games, end."""
    async with engine.connect() as connection:
        if engine.dialect.name == "postgresql":
            await connection.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        async with connection.begin():
            counted = await _counts(connection)
            yield Header(format=FORMAT, created_at=now, source=engine.dialect.name, **counted)
            async for app in _apps(connection):
                yield app
            async for person in _people(connection):
                yield person
            async for feed in _feeds(connection):
                yield feed
            order = await _games_in_log_order(connection, engine.dialect.name)
            for chunk in chunks(order, GAMES_PER_READ):
                for line in await _games(connection, chunk):
                    yield line
            yield End(**counted)


async def _counts(connection: AsyncConnection) -> dict[str, int]:
    queries = {
        "apps": sa.select(sa.func.count()).select_from(apps),
        "people": sa.select(sa.func.count()).select_from(people),
        "games": sa.select(sa.func.count()).select_from(games),
    }
    return {name: int((await connection.execute(query)).scalar_one()) for name, query in queries.items()}


async def _apps(connection: AsyncConnection) -> AsyncIterator[AppLine]:
    keys: dict[str, list[KeyRecord]] = {}
    for row in (
        await connection.execute(sa.select(app_keys).order_by(app_keys.c.created_at, app_keys.c.key_id))
    ).mappings():
        keys.setdefault(row["app_id"], []).append(KeyRecord(**row))
    defined: dict[str, list[SeasonRecord]] = {}
    for row in (
        await connection.execute(sa.select(seasons).order_by(seasons.c.created_at, seasons.c.season_id))
    ).mappings():
        defined.setdefault(row["app_id"], []).append(SeasonRecord(**row))
    # The built-in app first: a restore replaces the one its migration made.
    order = (apps.c.app_id != BUILTIN_APP, apps.c.created_at, apps.c.app_id)
    for row in (await connection.execute(sa.select(apps).order_by(*order))).mappings():
        record = AppRecord(
            app_id=row["app_id"],
            name=row["name"],
            created_at=row["created_at"],
            quotas=msgspec.convert(row["quotas"], Quotas),
        )
        yield AppLine(app=record, keys=keys.get(record.app_id, []), seasons=defined.get(record.app_id, []))


async def _people(connection: AsyncConnection) -> AsyncIterator[PersonLine]:
    result = await connection.stream(sa.select(people).order_by(people.c.created_at, people.c.person_id))
    async for row in result.mappings():
        yield PersonLine(**row)


async def _feeds(connection: AsyncConnection) -> AsyncIterator[FeedLine]:
    """Each person's feed, in lines of at most FEED_ITEMS_PER_LINE items (a head with no items left
    is one line without items). An erased person's feed names nobody any more: it is left out."""
    heads = player_feed_heads.join(people, people.c.person_id == player_feed_heads.c.person_id)
    query = (
        sa.select(player_feed_heads.c.person_id, player_feed_heads.c.last_seq, *_FEED_COLUMNS)
        .select_from(heads.outerjoin(player_feed, player_feed.c.person_id == player_feed_heads.c.person_id))
        .order_by(player_feed_heads.c.person_id, player_feed.c.seq)
    )
    person: str | None = None
    head = 0
    items: list[FeedEntry] = []
    async for row in (await connection.stream(query)).mappings():
        if row["person_id"] != person or len(items) == FEED_ITEMS_PER_LINE:
            if person is not None:
                yield FeedLine(person_id=person, head=head, items=items)
            person, head, items = row["person_id"], row["last_seq"], []
        if row["seq"] is not None:
            item = {column.name: row[column.name] for column in _FEED_COLUMNS}
            items.append(FeedEntry(**{**item, "body": msgspec.Raw(row["body"].encode())}))
    if person is not None:
        yield FeedLine(person_id=person, head=head, items=items)


async def _games_in_log_order(connection: AsyncConnection, dialect_name: str) -> list[str]:
    """Every game, by where its last event stands in the log as projections read it (commit order)."""
    last = (
        sa.select(events.c.stream_id, sa.func.max(events.c.version).label("version"))
        .group_by(events.c.stream_id)
        .subquery()
    )
    order = (events.c.tx_id, events.c.global_position) if dialect_name == "postgresql" else (events.c.global_position,)
    query = (
        sa.select(events.c.stream_id)
        .join(last, sa.and_(events.c.stream_id == last.c.stream_id, events.c.version == last.c.version))
        .order_by(*order)
    )
    return list((await connection.execute(query)).scalars())


async def _games(connection: AsyncConnection, game_ids: list[str]) -> list[GameLine]:
    ids = {"ids": game_ids}
    logs: dict[str, list[EventLine]] = {game_id: [] for game_id in game_ids}
    read = (
        sa.select(
            events.c.stream_id,
            events.c.version,
            events.c.type,
            events.c.schema_version,
            sa.cast(events.c.data, sa.Text),
            sa.cast(events.c.metadata, sa.Text),
            events.c.recorded_at,
            events.c.idempotency_key,
        )
        .where(events.c.stream_id.in_(sa.bindparam("ids", expanding=True)))
        .order_by(events.c.stream_id, events.c.version)
    )
    for stream_id, version, type_, schema_version, data, metadata, recorded_at, key in await connection.execute(
        read, ids
    ):
        logs[stream_id].append(
            EventLine(
                version=version,
                type=type_,
                schema_version=schema_version,
                data=msgspec.Raw(data.encode()),
                metadata=_metadata.decode(metadata),
                recorded_at=recorded_at,
                idempotency_key=key,
            )
        )
    summaries = {
        row["game_id"]: dict(row)
        for row in (
            await connection.execute(
                sa.select(
                    games.c.game_id, games.c.game, games.c.created_at, games.c.updated_at, games.c.finished_at
                ).where(games.c.game_id.in_(sa.bindparam("ids", expanding=True))),
                ids,
            )
        ).mappings()
    }
    due = {
        row["game_id"]: Deadline(version=row["version"], due_at=row["due_at"])
        for row in (
            await connection.execute(
                sa.select(deadlines).where(deadlines.c.game_id.in_(sa.bindparam("ids", expanding=True))), ids
            )
        ).mappings()
    }
    keys: dict[str, list[KeyUse]] = {}
    for row in (
        await connection.execute(
            sa.select(idempotency_keys)
            .where(idempotency_keys.c.stream_id.in_(sa.bindparam("ids", expanding=True)))
            .order_by(idempotency_keys.c.stream_id, idempotency_keys.c.first_version, idempotency_keys.c.key),
            ids,
        )
    ).mappings():
        keys.setdefault(row["stream_id"], []).append(
            KeyUse(key=row["key"], first_version=row["first_version"], last_version=row["last_version"])
        )
    return [
        game_line(game_id, logs[game_id], summaries[game_id], due.get(game_id), keys.get(game_id, []))
        for game_id in game_ids
    ]


# --- restoring ------------------------------------------------------------------------------------


async def restore(
    engine: AsyncEngine, lines: Iterator[Line], progress: Callable[[int], None] | None = None
) -> Restoring:
    """Check each line and write what it holds into the empty database, all in one transaction (none
    of it when a line is refused: InvalidBackup, or NotEmpty when the database holds anything).
    `progress(games)` after each batch of games written."""
    restoring = Restoring()
    json_as_text = engine.dialect.name != "postgresql"
    async with for_writes(engine).begin() as connection:
        held = await contents(connection)
        if any(held.values()):
            raise NotEmpty(", ".join(f"{count:,} {name}" for name, count in held.items() if count))
        first = next(lines, None)
        if first is None:
            raise InvalidBackup("not-a-backup", "the file holds no line")
        restoring.start(first)
        batch: list[RestoredGame] = []
        persons: list[dict[str, Any]] = []
        for line in lines:
            if restoring.ended:
                raise InvalidBackup("after-the-end", "a line follows the end line")
            if isinstance(line, AppLine):
                await _write_app(connection, restoring.app(line))
            elif isinstance(line, PersonLine):
                persons.append(msgspec.structs.asdict(restoring.person(line)))
                if len(persons) >= PEOPLE_PER_WRITE:
                    await connection.execute(people.insert(), persons)
                    persons = []
            elif isinstance(line, FeedLine):
                if persons:
                    await connection.execute(people.insert(), persons)
                    persons = []
                await _write_feed(connection, restoring.feed(line))
            elif isinstance(line, GameLine):
                if persons:
                    await connection.execute(people.insert(), persons)
                    persons = []
                batch.append(restoring.game(line))
                if len(batch) >= GAMES_PER_WRITE:
                    await _write_games(connection, batch, json_as_text)
                    batch = []
                    if progress is not None:
                        progress(len(restoring.games))
            elif isinstance(line, End):
                restoring.end(line)
            else:
                raise InvalidBackup("out-of-order", "a second header")
        if persons:
            await connection.execute(people.insert(), persons)
        if batch:
            await _write_games(connection, batch, json_as_text)
        if progress is not None:
            progress(len(restoring.games))
        restoring.finish()
    return restoring


async def _write_app(connection: AsyncConnection, line: AppLine) -> None:
    # The migration made the built-in app: the backup's replaces it (its quotas, its creation).
    await connection.execute(apps.delete().where(apps.c.app_id == line.app.app_id))
    app = line.app
    await connection.execute(
        apps.insert(),
        {
            "app_id": app.app_id,
            "name": app.name,
            "created_at": app.created_at,
            "quotas": msgspec.to_builtins(app.quotas),
        },
    )
    if line.keys:
        await connection.execute(app_keys.insert(), [msgspec.structs.asdict(key) for key in line.keys])
    if line.seasons:
        await connection.execute(seasons.insert(), [msgspec.structs.asdict(season) for season in line.seasons])


async def _write_feed(connection: AsyncConnection, line: FeedLine) -> None:
    head = {"person_id": line.person_id, "last_seq": line.head}
    # A person's later lines continue the feed whose head the first wrote.
    await connection.execute(ignoring(connection.dialect.name, player_feed_heads), head)
    if line.items:
        rows = [
            {**msgspec.structs.asdict(item), "person_id": line.person_id, "body": bytes(item.body).decode()}
            for item in line.items
        ]
        await connection.execute(player_feed.insert(), rows)


async def _write_games(connection: AsyncConnection, batch: list[RestoredGame], json_as_text: bool) -> None:
    def json_of(value: bytes | Mapping[str, Any]) -> Any:
        if json_as_text:
            return value.decode() if isinstance(value, bytes) else msgspec.json.encode(value).decode()
        return msgspec.json.decode(value) if isinstance(value, bytes) else value

    rows = [
        {
            "stream_id": game.game_id,
            "version": event.version,
            "type": event.type,
            "schema_version": event.schema_version,
            "data": json_of(bytes(event.data)),
            "metadata": json_of(event.metadata),
            "recorded_at": event.recorded_at,
            "idempotency_key": event.idempotency_key,
        }
        for game in batch
        for event in game.events
    ]
    # In the batch's order: the games' ends keep their order in the log.
    await connection.execute(events.insert(), rows)
    summaries = []
    for game in batch:
        summary = msgspec.structs.asdict(game.summary)
        summary.pop("wake_at")
        summaries.append(summary)
    await connection.execute(games.insert(), summaries)
    due = [
        {"game_id": game.game_id, "version": game.deadline.version, "due_at": game.deadline.due_at}
        for game in batch
        if game.deadline is not None
    ]
    if due:
        await connection.execute(deadlines.insert(), due)
    keys = [
        {"stream_id": game.game_id, **msgspec.structs.asdict(use)} for game in batch for use in game.idempotency_keys
    ]
    if keys:
        await connection.execute(idempotency_keys.insert(), keys)
