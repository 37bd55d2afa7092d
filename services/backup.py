"""A whole database's backup, and what a restore checks of it (README, "Backup and restore").

A backup is JSON lines (`kaiten export --all`, zstandard-compressed by the command line): a header
(`kind` "backup", with the counts that follow), the apps with their keys (hashes only, as kept), the
people, one line per game, and an end line repeating the counts (a cut file is refused). A game's
line has the fields of a game's export (`format` kaiten-log/1, `id`, `game`, `rules_version`,
`events`) with the events **as stored**: nothing redacted (a running game's seed and salt, the seats'
token hashes in their metadata), people as their references (names live in the people lines), each
with its metadata, `recorded_at` and idempotency key; and what the store keeps beside the log: the
summary's times, the deadline and the idempotency keys. Games come in the order they reached their
last event in the source's log, so that games finish in the restored log in the order they finished
there: ratings are a fold in that order.

A restore trusts nothing of a game's line that the log does not prove. Each game passes the checks
of an import (services/logs.py `check_events`: versions, types, shapes, it folds; a game that is over
is decided again from its revealed seed and salt) and, when it still runs, is decided again too, from
the seed and salt that its stored GameCreated holds: no line can record an outcome, a deal or a
result that its rules would not have written. Its summary row (status, seats, result, token hashes,
whether imported, which app) is worked out from the log, never read from the file.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, get_args

import msgspec

from kaiten.domain import lobby as tables
from kaiten.domain.lobby import GameCreated, commit_to_seed
from kaiten.domain.redecide import first_divergence
from kaiten.services.clocks import fold_clocked
from kaiten.services.codec import codec_for, game_of_log
from kaiten.services.errors import ServiceError
from kaiten.services.loading import LoadedGame, imported_from, owner_of
from kaiten.services.logs import FORMAT as LOG_FORMAT
from kaiten.services.logs import MAX_EVENT_BYTES, MAX_LOG_EVENTS, MAX_TEXT, InvalidLog, check_events
from kaiten.services.players import PlayerItemType
from kaiten.services.ports import BUILTIN_APP, AppRecord, GameSummary, KeyRecord, SeasonRecord, StoredEvent
from kaiten.services.seasons import check_season_id
from kaiten.services.summaries import summary_of
from kaiten.services.text_rules import has_control_character

FORMAT = "kaiten-backup/1"
#: The kinds of a person's feed items.
FEED_KINDS = frozenset(get_args(PlayerItemType))
#: The longest line a restore reads: a game's line of the longest log, each event with its metadata.
MAX_LINE_BYTES = MAX_LOG_EVENTS * (MAX_EVENT_BYTES + 1024)


class Header(msgspec.Struct, frozen=True, tag="backup", tag_field="kind", forbid_unknown_fields=True):
    format: str
    created_at: datetime
    #: The database the backup was made from (`postgresql` or `sqlite`): for the reader.
    source: str
    apps: int
    people: int
    games: int


class AppLine(msgspec.Struct, frozen=True, tag="app", tag_field="kind", forbid_unknown_fields=True):
    app: AppRecord
    keys: list[KeyRecord]
    #: The seasons the app defined (none in a backup made before there were seasons).
    seasons: list[SeasonRecord] = []


class PersonLine(msgspec.Struct, frozen=True, tag="person", tag_field="kind", forbid_unknown_fields=True):
    person_id: str
    app_id: str
    player_id: str | None
    name: str | None
    created_at: datetime


class FeedEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An item of a person's feed (services/players.py), as stored."""

    seq: int
    kind: str
    game_id: str
    version: int
    #: The item as the stream and webhooks show it (a JSON object).
    body: msgspec.Raw
    created_at: datetime


class FeedLine(msgspec.Struct, frozen=True, tag="feed", tag_field="kind", forbid_unknown_fields=True):
    """A person's feed: its last number (which a player's `Last-Event-ID` may name) and its items."""

    person_id: str
    head: int
    items: list[FeedEntry]


class EventLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    version: int
    type: str
    schema_version: int
    #: The event's data as stored (a JSON object, its `type` tag included).
    data: msgspec.Raw
    metadata: dict[str, Any]
    recorded_at: datetime
    idempotency_key: str | None = None


class Deadline(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    version: int
    due_at: datetime


class KeyUse(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An idempotency key and the versions its command appended."""

    key: str
    first_version: int
    last_version: int


class GameLine(msgspec.Struct, frozen=True, tag="game", tag_field="kind", forbid_unknown_fields=True):
    format: str
    id: str
    game: str
    rules_version: int
    events: list[EventLine]
    #: The summary row's times (created, last changed, over), which the log alone does not give.
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    #: The game's next deadline as stored (a turn clock, abandonment, a bot's move owed), if any.
    deadline: Deadline | None
    idempotency_keys: list[KeyUse]


class End(msgspec.Struct, frozen=True, tag="end", tag_field="kind", forbid_unknown_fields=True):
    apps: int
    people: int
    games: int


Line = Header | AppLine | PersonLine | FeedLine | GameLine | End
_lines = msgspec.json.Decoder(Line)
_encoder = msgspec.json.Encoder()
_object = msgspec.json.Decoder(dict[str, Any])


class InvalidBackup(Exception):
    """A backup a restore refuses: `code` says why, `game_id` and `version` where, when a game's."""

    def __init__(self, code: str, message: str, game_id: str | None = None, version: int | None = None) -> None:
        where = "" if game_id is None else f" (game {game_id}{'' if version is None else f', version {version}'})"
        super().__init__(f"{code}: {message}{where}")
        self.code = code
        self.game_id = game_id
        self.version = version


def encode_line(line: Line) -> bytes:
    return _encoder.encode(line) + b"\n"


def decode_line(raw: bytes, number: int) -> Line:
    try:
        line: Line = _lines.decode(raw)
        return line
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise InvalidBackup("invalid-line", f"line {number} is no line of a backup: {exc}") from None


def game_line(
    game_id: str,
    events: Sequence[EventLine],
    summary: Mapping[str, Any],
    deadline: Deadline | None,
    keys: Iterable[KeyUse],
) -> GameLine:
    """A stored game's line: `summary` is its summary row (game, created_at, updated_at, finished_at)."""
    created = _object.decode(events[0].data)
    return GameLine(
        format=LOG_FORMAT,
        id=game_id,
        game=summary["game"],
        rules_version=int(created.get("rules_version", 1)),
        events=list(events),
        created_at=summary["created_at"],
        updated_at=summary["updated_at"],
        finished_at=summary["finished_at"],
        deadline=deadline,
        idempotency_keys=list(keys),
    )


# --- what a restore checks ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RestoredGame:
    """A game that passed the checks, as the restore writes it."""

    game_id: str
    events: list[EventLine]
    summary: GameSummary
    deadline: Deadline | None
    idempotency_keys: list[KeyUse]


class Restoring:
    """The checks of a restore, line by line, in the order of the file: the header first, then the
    apps (the built-in app among them), the people (each of a known app), the games (each of a known
    app, each id once), the end line last, whose counts must be those of the header and of the lines."""

    def __init__(self) -> None:
        self.header: Header | None = None
        self.apps: dict[str, AppLine] = {}
        self.people: dict[str, str] = {}
        #: Each person whose feed was read: its head and the last item read.
        self.feeds: dict[str, tuple[int, int]] = {}
        self.games: set[str] = set()
        self.ended = False
        self._names: set[str] = set()
        self._keys: set[str] = set()

    def start(self, line: Line) -> Header:
        if not isinstance(line, Header):
            raise InvalidBackup("not-a-backup", "a backup starts with its header (`kind` backup)")
        if line.format != FORMAT:
            raise InvalidBackup("unknown-format", f"this kaiten restores backups of format {FORMAT!r}")
        self.header = line
        return line

    def app(self, line: AppLine) -> AppLine:
        self._expect_no("people or games", bool(self.people or self.games))
        app = line.app
        if not _is_uuid(app.app_id) or app.app_id in self.apps or app.name in self._names:
            raise InvalidBackup("duplicate-app", f"app {app.name!r} ({app.app_id}) twice, or an id that is no UUID")
        if _bad_text([app.name]) or not app.name:
            raise InvalidBackup("invalid-text", f"app {app.app_id}'s name")
        for key in line.keys:
            if key.app_id != app.app_id or key.key_id in self._keys or _bad_text([key.key_id, key.key_hash]):
                raise InvalidBackup("invalid-key", f"key {key.key_id!r} of app {app.name!r}")
            self._keys.add(key.key_id)
        seasons = {season.season_id for season in line.seasons}
        for season in line.seasons:
            if (
                season.app_id != app.app_id
                or not season.starts_at < season.ends_at
                or _bad_text([season.name])
                or not _is_season_id(season.season_id)
            ):
                raise InvalidBackup("invalid-season", f"season {season.season_id!r} of app {app.name!r}")
        if len(seasons) != len(line.seasons):
            raise InvalidBackup("invalid-season", f"a season twice in app {app.name!r}")
        self.apps[app.app_id] = line
        self._names.add(app.name)
        return line

    def person(self, line: PersonLine) -> PersonLine:
        self._expect_no("feeds or games", bool(self.feeds or self.games))
        if BUILTIN_APP not in self.apps:
            raise InvalidBackup("no-built-in-app", "a backup holds the built-in app before its people")
        if line.app_id not in self.apps:
            raise InvalidBackup("unknown-app", f"person {line.person_id} of app {line.app_id}, which is not there")
        if line.person_id in self.people or _bad_text([line.person_id, line.player_id, line.name]):
            raise InvalidBackup("invalid-person", f"person {line.person_id!r} twice, or with an invalid text")
        self.people[line.person_id] = line.app_id
        return line

    def feed(self, line: FeedLine) -> FeedLine:
        """A person's feed comes in one line or several, its items numbered on from the line before."""
        self._expect_no("games", bool(self.games))
        if line.person_id not in self.people:
            raise InvalidBackup("invalid-feed", f"a feed of person {line.person_id!r}, who is not there")
        head, last = self.feeds.get(line.person_id, (line.head, 0))
        numbers = [item.seq for item in line.items]
        if (
            line.head != head
            or numbers != sorted(set(numbers))
            or not all(last < seq <= head for seq in numbers)
            or any(item.kind not in FEED_KINDS or _bad_text([item.game_id]) for item in line.items)
        ):
            raise InvalidBackup("invalid-feed", f"person {line.person_id}'s feed: items out of order or unknown")
        self.feeds[line.person_id] = (head, numbers[-1] if numbers else last)
        return line

    def game(self, line: GameLine) -> RestoredGame:
        if BUILTIN_APP not in self.apps:
            raise InvalidBackup("no-built-in-app", "a backup holds the built-in app before its games")
        restored = verified_game(line, self.apps.keys(), self.people)
        if restored.game_id in self.games:
            raise InvalidBackup("duplicate-game", "a game twice", restored.game_id)
        self.games.add(restored.game_id)
        return restored

    def end(self, line: End) -> None:
        assert self.header is not None
        counted = End(apps=len(self.apps), people=len(self.people), games=len(self.games))
        expected = End(apps=self.header.apps, people=self.header.people, games=self.header.games)
        if line != counted or counted != expected:
            raise InvalidBackup(
                "counts-differ", f"the header says {expected}, the end line {line}, the lines held {counted}"
            )
        self.ended = True

    def finish(self) -> None:
        if not self.ended:
            raise InvalidBackup("cut-short", "the backup has no end line: the file was cut short")

    def _expect_no(self, what: str, seen: bool) -> None:
        if seen:
            raise InvalidBackup("out-of-order", f"a line out of order: it belongs before the {what}")


def verified_game(line: GameLine, apps: Iterable[str], people: Mapping[str, str]) -> RestoredGame:
    """The game of a backup's line, if its log passes an import's checks and decides again (running
    or over); its summary worked out from the log."""
    game_id = line.id
    if not _is_uuid(game_id):
        raise InvalidBackup("invalid-game-id", f"{game_id!r} is no game id")
    if line.format != LOG_FORMAT:
        raise InvalidBackup("unknown-format", f"a game's line is of format {LOG_FORMAT!r}", game_id)
    if not line.events or len(line.events) > MAX_LOG_EVENTS:
        raise InvalidBackup("too-many-events", f"a game's log holds 1 to {MAX_LOG_EVENTS} events", game_id)
    views = []
    for expected, event in enumerate(line.events, start=1):
        try:
            data = _object.decode(event.data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            raise InvalidBackup("invalid-event", "data is no JSON object", game_id, expected) from None
        if data.get("type") != event.type:
            raise InvalidBackup("invalid-event", "data's type is not the event's", game_id, event.version)
        if _bad_text([data, event.metadata, event.idempotency_key]):
            raise InvalidBackup(
                "invalid-text", f"a control character or a string of over {MAX_TEXT} characters", game_id, expected
            )
        views.append(
            {
                "version": event.version,
                "type": event.type,
                "schema_version": event.schema_version,
                "data": {key: value for key, value in data.items() if key != "type"},
            }
        )
    try:
        checked = check_events(views, finished=False)
        if not tables.is_over(checked.table):
            _decide_running_again(checked.game, checked.events)
    except InvalidLog as refused:
        raise InvalidBackup(refused.code, refused.message, game_id, refused.version) from None
    created = checked.events[0]
    if (line.game, line.rules_version) != (created.game, created.rules_version):
        raise InvalidBackup("game-mismatch", "the line's game or rules_version is not GameCreated's", game_id, 1)
    stored = [
        StoredEvent(
            global_position=0,
            stream_id=game_id,
            version=event.version,
            type=event.type,
            data=bytes(event.data),
            metadata=event.metadata,
            recorded_at=event.recorded_at,
            schema_version=event.schema_version,
        )
        for event in line.events
    ]
    app_id = owner_of(stored)
    if app_id not in set(apps):
        raise InvalidBackup("unknown-app", f"the game's app {app_id} is not in the backup", game_id, 1)
    for version, event in enumerate(checked.events, start=1):
        person = event.person if isinstance(event, tables.SeatTaken) else None
        # An erased person has no line: the log names nobody then. One that has must be the game's app's.
        if person is not None and people.get(person, app_id) != app_id:
            raise InvalidBackup("foreign-person", "a seat taken by another app's person", game_id, version)
    loaded = _loaded(game_id, stored)
    version = len(stored)
    _check_beside_the_log(line, game_id, version)
    over = tables.is_over(loaded.table)
    summary = summary_of(
        game_id,
        loaded.game,
        loaded.table,
        version,
        loaded.token_hashes(),
        line.created_at,
        line.updated_at,
        wake_at=None if line.deadline is None else line.deadline.due_at,
        app_id=app_id,
        imported=imported_from(stored)[0],
    )
    summary = msgspec.structs.replace(summary, finished_at=(line.finished_at or line.updated_at) if over else None)
    return RestoredGame(
        game_id=game_id,
        events=line.events,
        summary=summary,
        deadline=line.deadline,
        idempotency_keys=line.idempotency_keys,
    )


def _decide_running_again(game: Any, events: Sequence[Any]) -> None:
    """A running game's stored log holds its seed and salt: it is decided again as a finished one is."""
    created = events[0]
    assert isinstance(created, GameCreated)
    if created.seed is None or created.salt is None or not _is_hex(created.salt):
        raise InvalidLog("seed-mismatch", "a running game's stored GameCreated holds its seed and salt", 1)
    if commit_to_seed(created.seed, bytes.fromhex(created.salt)) != created.seed_commitment:
        raise InvalidLog("seed-mismatch", "the seed and salt do not give GameCreated's commitment", 1)
    divergence = first_divergence(game, events)
    if divergence is not None:
        raise InvalidLog("import-not-reproducible", f"deciding the log again: {divergence.reason}", divergence.version)


def _check_beside_the_log(line: GameLine, game_id: str, version: int) -> None:
    """The deadline and the idempotency keys name versions of the log."""
    if line.deadline is not None and not 0 <= line.deadline.version <= version:
        raise InvalidBackup("invalid-deadline", f"a deadline set at version {line.deadline.version}", game_id)
    seen: set[str] = set()
    for use in line.idempotency_keys:
        if use.key in seen or not 1 <= use.first_version <= use.last_version <= version or _bad_text([use.key]):
            raise InvalidBackup("invalid-idempotency-key", f"key {use.key!r}", game_id)
        seen.add(use.key)


def _loaded(game_id: str, stored: Sequence[StoredEvent]) -> LoadedGame:
    """The game as loading folds it (services/loading.py), from stored rows at hand."""
    codec = codec_for(game_of_log(stored[0].data))
    events = [codec.decode_stored(item) for item in stored]
    timed = zip(events, (item.recorded_at for item in stored), strict=True)
    table, clocks = fold_clocked(codec.game, None, None, timed)
    return LoadedGame(game_id=game_id, codec=codec, stored=stored, events=events, table=table, clocks=clocks)


def _is_season_id(text: str) -> bool:
    try:
        return check_season_id(text) == text
    except ServiceError:
        return False


def _is_uuid(text: str) -> bool:
    try:
        return str(uuid.UUID(text)) == text
    except ValueError:
        return False


def _is_hex(text: str) -> bool:
    try:
        bytes.fromhex(text)
    except ValueError:
        return False
    return True


def _bad_text(value: Any) -> bool:
    """A string over MAX_TEXT characters or with a control character, anywhere in the value."""
    if isinstance(value, str):
        return len(value) > MAX_TEXT or has_control_character(value)
    if isinstance(value, Mapping):
        return any(_bad_text(key) or _bad_text(item) for key, item in value.items())
    if isinstance(value, list | tuple):
        return any(_bad_text(item) for item in value)
    return False
