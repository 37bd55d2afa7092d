"""Export and import of a finished or abandoned game's log (API.md, "Export and import of a log").

An export is the whole log as a spectator sees it after the end, the events exactly as
`GET /v1/games/{id}/events` shows them. An import takes such a document, or any object whose `events`
are exactly what that endpoint returned for a game that is over (pages joined; logs of every earlier
kaiten version included: an event without `schema_version` is of shape 1), checks it, and stores it as
a new finished (or abandoned) game.

`check_log` is pure: it refuses a log with an `InvalidLog` naming a stable `code` and the first
failing `version`, checking in order:

- `invalid-log`: not an object with a non-empty list `events` of event objects; `unknown-format`: a
  `format` `kaiten-log/N` other than `kaiten-log/1` (any other object's other fields are ignored);
- `version-gap`: versions not 1, 2, 3... in order (an event removed, added or moved);
- `not-game-created`: the first event is not `GameCreated`; `unknown-game`; `unknown-rules-version`;
  `rules-version-mismatch` / `game-mismatch`: the document's own `rules_version` / `game` differ from
  what GameCreated says;
- `unknown-event-type`: a type that the game's rules version does not know (version 1 of Sushi Go
  Party! knows none of version 2's outcome events); `unknown-schema-version`; `invalid-event`: data
  that does not decode as its type and schema version;
- `does-not-fold`: an event that cannot be applied where it stands (a lobby event out of place, a
  game event the state cannot take);
- `log-not-finished`: no `GameFinished` or `GameAbandoned` at the end; `events-after-the-end`;
- `seed-mismatch`: the revealed seed and salt do not give GameCreated's commitment;
- `result-mismatch`: the result GameFinished records is not the one the rules work out from the
  log (a score changed, an event removed and the versions renumbered...).

`kaiten replay --verify` runs the same checks on a stored game (`check_events`, which does not ask a
running game to be finished).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec

from kaiten.domain import lobby as tables
from kaiten.domain.engine import AnyGame, RuleViolation
from kaiten.domain.lobby import GameAbandoned, GameCreated, GameFinished, Table, commit_to_seed
from kaiten.domain.redecide import first_divergence
from kaiten.services.access import AppCaller, Credential, access_to, writing_app
from kaiten.services.codec import GameCodec, codec_for
from kaiten.services.commands import GetTable, NewSeat
from kaiten.services.errors import ServiceError
from kaiten.services.games import Games
from kaiten.services.loading import imported_from
from kaiten.services.ports import ConcurrencyConflict, NewEvent, Person, StoredEvent
from kaiten.services.seats import Seating
from kaiten.services.seen import SeenEvents, SeenTable, seen_events, stored_log_table
from kaiten.services.summaries import summary_of
from kaiten.services.text_rules import MAX_NAME, MAX_PLAYER_ID, cleaned, has_control_character
from kaiten.services.upcasting import UnknownSchemaVersion

FORMAT = "kaiten-log/1"
_encoder = msgspec.json.Encoder()
#: The longest log kaiten exports: the longest game of the catalog, each of its moves after a turn
#: that timed out, and every invitation and claimed seat a game may hold. Longer: refused.
MAX_LOG_EVENTS = 2 * tables.LONGEST_GAME_EVENTS + tables.MAX_ACCESS_EVENTS
#: The longest string a log holds (a seat's name, an id, a time...).
MAX_TEXT = 300
#: The largest `data` of an event the catalog writes, with room to spare (tests/unit/test_every_game.py
#: plays every game at every player count against it), and of an event as a log shows it: its data,
#: the envelope, and a seat's name and player_id of four-byte characters.
MAX_EVENT_DATA_BYTES = 2048
MAX_EVENT_BYTES = MAX_EVENT_DATA_BYTES + 2048
#: The largest log document import reads: whatever kaiten exports (MAX_LOG_EVENTS events at most).
MAX_LOG_BYTES = MAX_LOG_EVENTS * MAX_EVENT_BYTES
#: Imported games' ids come from what they hold: the same log imported again is the same game.
IMPORT_NAMESPACE = uuid.UUID("0a7e4c39-2f64-4c1e-9d0b-6b8f5a3c2e71")


class InvalidLog(ServiceError):
    """A log refused by the checks: `code` says why, `version` is the first event that fails (None
    when the document itself is not a log)."""

    def __init__(self, code: str, message: str, version: int | None = None) -> None:
        super().__init__("invalid", code, message)
        self.version = version


@dataclass(frozen=True, slots=True)
class CheckedLog:
    """A log that passed the checks: its game (under its rules version), events and table."""

    game: AnyGame
    codec: GameCodec
    events: list[Any]
    table: Table[Any]
    #: The original game's id, when the document names one.
    original_id: str | None


# --- the checks (pure) ----------------------------------------------------------------------------


def check_log(document: Any) -> CheckedLog:
    """The checks of an import: a whole log of a finished game, in any shape kaiten ever showed."""
    if not isinstance(document, Mapping):
        raise InvalidLog("invalid-log", "a log is a JSON object with a list of events")
    shape = document.get("format")
    export = shape == FORMAT
    if not export and isinstance(shape, str) and shape.startswith("kaiten-log/"):
        raise InvalidLog("unknown-format", f"this kaiten reads logs of format {FORMAT!r}")
    _check_text(document)
    checked = check_events(document.get("events"), finished=True)
    created = checked.events[0]
    # An export says its game and rules version again; any other object's other fields are ignored.
    if export and document.get("rules_version") != created.rules_version:
        raise InvalidLog("rules-version-mismatch", "the document's rules_version is not GameCreated's", 1)
    if export and document.get("game") != created.game:
        raise InvalidLog("game-mismatch", "the document's game is not the one GameCreated names", 1)
    original = document.get("id") if export else None
    return CheckedLog(
        game=checked.game,
        codec=checked.codec,
        events=checked.events,
        table=checked.table,
        original_id=_uuid_or_none(original),
    )


def check_events(events: Any, finished: bool) -> CheckedLog:
    """The checks of a log given as event views (`version`, `type`, `data`, `schema_version`); a
    running game's log passes when `finished` is False."""
    if not isinstance(events, list) or not events or not all(isinstance(event, Mapping) for event in events):
        raise InvalidLog("invalid-log", "`events` must be a non-empty list of event objects")
    if len(events) > MAX_LOG_EVENTS:
        raise InvalidLog(
            "too-many-events", f"no game of the catalog makes a log of more than {MAX_LOG_EVENTS} events", None
        )
    for expected, event in enumerate(events, start=1):
        if event.get("version") != expected:
            raise InvalidLog(
                "version-gap", f"expected version {expected} here, found {event.get('version')!r}", expected
            )
    codec, game = _game_of(events[0])
    known = {event_type.__name__ for event_type in (*tables.LOBBY_EVENTS, *game.event_types)}
    decoded = [_decode(codec, known, event) for event in events]
    table = _fold(game, decoded)
    if not finished and not tables.is_over(table):
        return CheckedLog(game=game, codec=codec, events=decoded, table=table, original_id=None)
    end = next((at for at, event in enumerate(decoded) if isinstance(event, GameFinished | GameAbandoned)), None)
    if end is None:
        raise InvalidLog("log-not-finished", "the log does not end with GameFinished or GameAbandoned", len(events))
    finish = decoded[end]
    created = decoded[0]
    if (created.seed, created.salt) != (finish.seed, finish.salt) or not _is_hex(finish.salt):
        raise InvalidLog("seed-mismatch", "the revealed seed and salt do not give GameCreated's commitment", end + 1)
    if commit_to_seed(finish.seed, bytes.fromhex(finish.salt)) != created.seed_commitment:
        raise InvalidLog("seed-mismatch", "the revealed seed and salt do not give GameCreated's commitment", end + 1)
    # Decided again before anything reads the state: a forged event may have folded into one that no
    # rule could reach (a card that does not exist), which the rules' own reading was never meant for.
    return _decided_again(CheckedLog(game=game, codec=codec, events=decoded, table=table, original_id=None), end)


def _decided_again(checked: CheckedLog, end: int) -> CheckedLog:
    """The log, if deciding it again from its seed and salt and its choices gives it event for event
    (`end`: where it ends)."""
    divergence = first_divergence(checked.game, checked.events)
    if divergence is None:
        return checked
    if divergence.version == end + 1 and isinstance(checked.events[end], GameFinished):
        # Everything before the end is what the rules write: only the result recorded is not.
        raise InvalidLog(
            "result-mismatch", "the recorded result is not the one the rules work out from the log", end + 1
        )
    raise InvalidLog("import-not-reproducible", f"deciding the log again: {divergence.reason}", divergence.version)


def _is_hex(text: str) -> bool:
    try:
        bytes.fromhex(text)
    except ValueError:
        return False
    return True


def _check_text(document: Mapping[str, Any]) -> None:
    """Every string of the log bounded and free of control characters: a log's strings end up in the
    store (PostgreSQL refuses NUL) and in answers."""
    events = document.get("events")
    for version, event in enumerate(events if isinstance(events, list) else (), start=1):
        if _bad_text(event):
            raise InvalidLog(
                "invalid-text", f"an event holds a control character or a string of over {MAX_TEXT} characters", version
            )
        if not isinstance(event, Mapping):
            continue  # `check_events` refuses what is no event
        data = event.get("data")
        if event.get("type") == "SeatTaken" and isinstance(data, Mapping) and _bad_person(data):
            raise InvalidLog(
                "invalid-text", "a seat's name takes 1..100 characters and a player_id 1..200 (or none)", version
            )


def _bad_person(data: Mapping[str, Any]) -> bool:
    """A seat's name or player_id that no seat could have been taken with."""
    name, player_id = data.get("name"), data.get("player_id")
    if isinstance(name, str) and cleaned(name, MAX_NAME) != name:
        return True
    return isinstance(player_id, str) and cleaned(player_id, MAX_PLAYER_ID) != player_id


def _bad_text(value: Any) -> bool:
    if isinstance(value, str):
        return len(value) > MAX_TEXT or has_control_character(value)
    if isinstance(value, Mapping):
        return any(_bad_text(key) or _bad_text(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_bad_text(item) for item in value)
    return False


def _game_of(first: Mapping[str, Any]) -> tuple[GameCodec, AnyGame]:
    if first.get("type") != "GameCreated" or not isinstance(first.get("data"), Mapping):
        raise InvalidLog("not-game-created", "a log starts with GameCreated", 1)
    try:
        codec = codec_for(str(first["data"].get("game")))
    except RuleViolation as exc:
        raise InvalidLog(exc.code, exc.message, 1) from None
    created = _decode(codec, {"GameCreated"}, first)
    try:
        return codec, codec.game.at_rules_version(created.rules_version)
    except RuleViolation as exc:
        raise InvalidLog(exc.code, exc.message, 1) from None


def _decode(codec: GameCodec, known: set[str], event: Mapping[str, Any]) -> Any:
    version = event.get("version")
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in known:
        raise InvalidLog("unknown-event-type", f"{kind!r} is no event of this game's rules version", version)
    shape = event.get("schema_version", 1)
    data = event.get("data")
    if type(shape) is not int or not isinstance(data, Mapping):
        raise InvalidLog("invalid-event", "an event has an int schema_version and a data object", version)
    try:
        return codec.decode_event(str(kind), shape, _encoder.encode({**data, "type": kind}))
    except UnknownSchemaVersion as exc:
        raise InvalidLog("unknown-schema-version", str(exc), version) from None
    except (msgspec.DecodeError, msgspec.ValidationError, KeyError, TypeError, ValueError) as exc:
        raise InvalidLog("invalid-event", f"{kind} does not read: {exc}", version) from None


def _fold(game: AnyGame, events: Sequence[Any]) -> Table[Any]:
    """The table the events give, checking what the lobby needs (evolve itself trusts its events)."""
    # A GameFinished ends the table: whatever follows is refused by `_check_place`.
    table: Table[Any] | None = None
    for version, event in enumerate(events, start=1):
        _check_place(game, table, event, version)
        try:
            table = tables.evolve_table(game, table, event)
        except Exception as exc:  # evolve trusts its events: any failure is a log that does not fold
            raise InvalidLog(
                "does-not-fold", f"{type(event).__name__} cannot be applied here ({exc!r})", version
            ) from None
    assert table is not None
    return table


def _check_place(game: AnyGame, table: Table[Any] | None, event: Any, version: int) -> None:
    def refuse(why: str) -> InvalidLog:
        return InvalidLog("does-not-fold", f"{type(event).__name__} {why}", version)

    if table is None:
        if not isinstance(event, GameCreated) or event.seed is None or event.salt is None:
            raise refuse("cannot start a log: GameCreated, with its seed revealed, does")
        if not game.min_players <= event.players <= game.max_players:
            raise refuse(f"has {event.players} players; this rules version takes {game.min_players}-{game.max_players}")
        return
    if isinstance(event, GameCreated):
        raise refuse("can only start a log")
    if isinstance(event, tables.ACCESS_EVENTS) and not tables.is_over(table):
        return
    if isinstance(event, tables.SeatTaken):
        if table.status != "open" or event.seat != tables.next_seat(table):
            raise refuse("does not take the next free seat of an open game")
    elif isinstance(event, tables.SeatLeft):
        if table.status != "open" or tables.seated_at(table, event.seat) is None:
            raise refuse("does not give back a taken seat of an open game")
    elif isinstance(event, tables.GameStarted):
        if table.status != "open" or len(table.seats) != table.players:
            raise refuse("comes before every seat is taken")
    elif tables.is_over(table):
        raise InvalidLog("events-after-the-end", f"{type(event).__name__} follows the game's end", version)
    elif isinstance(event, GameAbandoned):
        return  # an open game is abandoned too
    elif table.status != "active":
        raise refuse("comes before the game starts")


def _uuid_or_none(value: Any) -> str | None:
    try:
        return str(uuid.UUID(str(value))) if value is not None else None
    except ValueError:
        return None


# --- the use cases --------------------------------------------------------------------------------


async def export_log(games: Games, game_id: str, caller: Credential) -> SeenEvents:
    """The whole log of a game that is over, as anybody who may see the game sees it (its document,
    `FORMAT`, is the API's); from a replica once the game is known over."""
    loaded = await games.reads.load(game_id, token=caller if isinstance(caller, str) else None)
    access_to(loaded.game_id, loaded.app_id, loaded.table, loaded.token_hashes(), caller)
    if not tables.is_over(loaded.table):
        raise ServiceError("conflict", "game-not-finished", "a game's log is exported once the game is over")
    people = await games.names.of_seats(loaded.table.seats)
    return seen_events(
        loaded.game, loaded.game_id, loaded.table, None, loaded.stored, loaded.events, people, loaded.version
    )


async def import_log(games: Games, document: Any, caller: Credential) -> tuple[SeenTable, bool]:
    """Check the log and store it as a new finished (or abandoned) game of the caller's app, in
    today's shapes; and whether this request stored it (False: the app imported this log before, and
    this is that game: the same log is one game, whoever sends it how often).

    The imported game has no token hashes: nobody may act for its seats (it is over anyway). Its
    people are the app's (a seat's player_id is the app's player of that id; a seat without one a
    guest), but nothing an import claims is rated or counted in statistics: kaiten did not see the
    game played. Each event's metadata says where it came from (`imported_from`, the original
    `version`, and the original `recorded_at` when the log shows it); the new rows are recorded now.
    """
    app_id = writing_app(caller, games.open_app)
    # Off the event loop: a long log takes a moment to check, and the server answers others meanwhile.
    checked = await asyncio.to_thread(check_log, document)
    game_id = imported_game_id(app_id, checked)
    if await games.store.summary(game_id) is not None:
        return await games.view(GetTable(game_id, AppCaller(app_id))), False
    if games.quotas is not None:
        await games.quotas.before_import(app_id)
    events = document["events"]
    codec = checked.codec
    seated = [await _seated(games, app_id, event) for event in checked.events]
    await games.keep_guests(app_id, [seating for _, seating in seated if seating is not None])
    rows = [
        NewEvent(
            type=type(event).__name__,
            data=codec.encode_event(event),
            metadata=_imported(checked.original_id, shown, app_id if version == 1 else None),
            schema_version=codec.schema_version(event),
        )
        for version, ((event, _), shown) in enumerate(zip(seated, events, strict=True), start=1)
    ]
    table = tables.replay(checked.game, [event for event, _ in seated])
    now = games.clock.now()
    summary = summary_of(game_id, checked.game, table, len(rows), {}, now, now, app_id=app_id, imported=True)
    try:
        stored = await games.store.append(game_id, 0, rows, summary)
    except ConcurrencyConflict:
        # The same log, imported by another request a moment ago.
        return await games.view(GetTable(game_id, AppCaller(app_id))), False
    return imported_view(checked.game, game_id, table, stored, await games.names.of_seats(table.seats)), True


def imported_game_id(app_id: str, checked: CheckedLog) -> str:
    """The id an app's import of this log gets: from what the log holds (its events, in today's
    shapes), so that importing it again finds the same game."""
    content = hashlib.sha256(b"\n".join(_encoder.encode(event) for event in checked.events)).hexdigest()
    return str(uuid.uuid5(IMPORT_NAMESPACE, f"{app_id}:{content}"))


async def _seated(games: Games, app_id: str, event: Any) -> tuple[Any, Seating | None]:
    """The event as the log keeps it: a person who takes a seat is one of the app's people."""
    if not isinstance(event, tables.SeatTaken) or event.bot is not None:
        return event, None
    seating = await games.seating(app_id, NewSeat(name=event.name, player_id=event.player_id))
    kept = tables.SeatTaken(seat=event.seat, person=seating.person, guest=seating.guest)
    return kept, seating


def _imported(original: str | None, shown: Mapping[str, Any], app_id: str | None) -> dict[str, Any]:
    metadata: dict[str, Any] = {"imported_from": original, "imported_version": shown["version"]}
    if app_id is not None:
        metadata["app"] = app_id
    recorded_at = shown.get("recorded_at")
    if isinstance(recorded_at, str) and _is_time(recorded_at):
        metadata["recorded_at"] = recorded_at
    return metadata


def _is_time(text: str) -> bool:
    try:
        msgspec.json.decode(_encoder.encode(text), type=datetime)
    except msgspec.ValidationError:
        return False
    return True


def imported_view(
    game: AnyGame, game_id: str, table: Table[Any], stored: Sequence[StoredEvent], people: Mapping[str, Person]
) -> SeenTable:
    # An imported log is a finished game's (`log-not-finished`): every seat's cards are public.
    view = stored_log_table(game, game_id, table, stored, people)
    return dataclasses.replace(view, imported=True, imported_from=imported_from(stored)[1])
