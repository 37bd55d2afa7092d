"""Golden logs: finished games recorded by earlier kaiten versions replay to what those versions showed.

Each file under tests/golden/<version>/ (see tests/golden/README.md) holds a game's whole log as
`GET /v1/games/{id}/events` returned it and the spectator's table view after the end. Here every
event goes through today's codec, the log is folded by today's rules, and the table is presented by
today's code; the view, its result and the re-presented events must equal the recorded ones byte for
byte (canonical JSON: sorted keys), once the recorded events are read in today's shapes through the
codec's upcasters (the one deliberate change an event's presentation may go through). A failure
means a rule, an event's shape or a view changed for games already played: fix the code (or make
the change a new rules version), never the golden file.
"""

from __future__ import annotations

import copy
import json
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
import pytest

from kaiten.api.contract.presenting import event_views, table_view
from kaiten.domain import lobby as tables
from kaiten.domain.catalog import GAMES
from kaiten.services.codec import codec_for
from kaiten.services.ports import StoredEvent
from kaiten.services.seen import seen_events, seen_table
from kaiten.services.upcasting import current_version, upcast

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FILES = sorted(GOLDEN.glob("*/*.json"))
FORMAT = "kaiten-golden/1"


def file_id(path: Path) -> str:
    return path.relative_to(GOLDEN).with_suffix("").as_posix()


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def as_served(value: Any) -> Any:
    """What the API's JSON encoder (msgspec) makes of a service's answer, read back."""
    return json.loads(msgspec.json.encode(value))


def shape_of(event: dict[str, Any]) -> int:
    """The event's schema version; kaiten 0.1.0 showed none, its events are all of shape 1."""
    version: int = event.get("schema_version", 1)
    return version


def upcast_view(game_id: str, event: dict[str, Any]) -> dict[str, Any]:
    """A recorded event as today's code presents it: its data in the current shape, which it names.

    These are the deliberate differences between a recorded event and today's presentation of it:
    shapes change only through the codec's upcasters (services/upcasting.py), the event view names
    its `schema_version`, and since 0.2 an event's `data` carries its `type` too (so that `data` is
    the event itself, one schema per type).
    """
    shape = current_version(game_id, event["type"])
    data = upcast(game_id, event["type"], shape_of(event), {"type": event["type"], **event["data"]})
    return {**event, "data": data, "schema_version": shape}


def timestamp(text: str) -> datetime:
    """A recorded timestamp, parsed as the server's own JSON encoder wrote it."""
    return msgspec.json.decode(json.dumps(text), type=datetime)


class Replayed(NamedTuple):
    final_view: dict[str, Any]
    #: The result today's rules work out from the replayed state (the view shows GameFinished's).
    result: dict[str, Any] | None
    events: list[dict[str, Any]]


def replay(document: dict[str, Any]) -> Replayed:
    """Today's code on a recorded log: decode, fold, present as a spectator of the finished game."""
    recorded = document["events"]
    recorded_view = document["final_view"]
    codec = codec_for(recorded[0]["data"]["game"])
    events = [
        codec.decode_event(
            event["type"], shape_of(event), json.dumps({"type": event["type"], **event["data"]}).encode()
        )
        for event in recorded
    ]
    table = tables.replay(codec.game, events)
    # The game under the rules version the log was created with (GameCreated says which).
    game = tables.rules_of(codec.game, table)
    game_id = recorded_view["id"]
    stored = [
        StoredEvent(
            global_position=0,
            stream_id=game_id,
            version=event["version"],
            type=event["type"],
            data=b"",
            metadata={},
            recorded_at=timestamp(event["recorded_at"]),
        )
        for event in recorded
    ]
    view = seen_table(
        game,
        game_id,
        table,
        None,
        stored[-1].version,
        created_at=timestamp(recorded_view["created_at"]),
        updated_at=timestamp(recorded_view["updated_at"]),
        public=table.status == "finished",
        # These logs hold their people's names themselves (recorded before people were references).
        people={},
    )
    served = as_served(table_view(view))
    # Today's view shows cards as objects; the view as the rules compute it holds their ids, as
    # 0.1.0 showed them: that is what must not have changed (test_card_objects checks the showing).
    served["state"] = as_served(game.view(table.state, None))
    return Replayed(
        final_view=served,
        result=as_served(game.result(table.state)),
        events=as_served(event_views(seen_events(game, game_id, table, None, stored, events, {}, stored[-1].version))),
    )


@cache
def load(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


@cache
def replayed(path: Path) -> Replayed:
    return replay(load(path))


def difference(recorded: Any, now: Any, where: str = "$") -> str | None:
    """Where the recorded JSON value first differs from today's (None when every recorded value is
    there now, byte for byte). A key that only today's value has is a field added since: the
    contract grows that way (API.md: extend, don't break), so it is no difference."""
    if canonical(recorded) == canonical(now):
        return None
    if isinstance(recorded, dict) and isinstance(now, dict):
        for key in sorted(recorded.keys()):
            if key not in now:
                return f"{where}.{key}: recorded, missing now"
            found = difference(recorded[key], now[key], f"{where}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(recorded, list) and isinstance(now, list):
        for index, (old, new) in enumerate(zip(recorded, now, strict=False)):
            found = difference(old, new, f"{where}[{index}]")
            if found is not None:
                return found
        if len(recorded) != len(now):
            return f"{where}: {len(recorded)} items recorded, {len(now)} now"
    return f"{where}: recorded {canonical(recorded)[:300]!r}, now {canonical(now)[:300]!r}"


def view_difference(document: dict[str, Any], now: Replayed) -> str | None:
    return difference(document["final_view"], now.final_view, "final_view")


def result_difference(document: dict[str, Any], now: Replayed) -> str | None:
    """The recorded result against the one the replayed table shows and the one its state scores to."""
    recorded = document["final_view"]["result"]
    return difference(recorded, now.final_view["result"], "result") or difference(recorded, now.result, "rescored")


def events_difference(document: dict[str, Any], now: Replayed) -> str | None:
    game_id = document["events"][0]["data"]["game"]
    return difference([upcast_view(game_id, event) for event in document["events"]], now.events, "events")


golden_files = pytest.mark.parametrize("path", FILES, ids=file_id)


def test_there_are_golden_logs_of_every_game() -> None:
    recorded = {load(path)["final_view"]["game"] for path in FILES}
    assert recorded >= set(GAMES), f"no golden log of {sorted(set(GAMES) - recorded)}"


@golden_files
def test_the_golden_log_is_a_finished_game(path: Path) -> None:
    document = load(path)
    assert document["format"] == FORMAT
    assert [event["version"] for event in document["events"]] == list(range(1, len(document["events"]) + 1))
    assert document["final_view"]["status"] == "finished"
    assert document["final_view"]["result"] is not None


@golden_files
def test_the_result_is_the_recorded_one(path: Path) -> None:
    found = result_difference(load(path), replayed(path))
    assert found is None, found


@golden_files
def test_the_final_view_is_the_recorded_one(path: Path) -> None:
    found = view_difference(load(path), replayed(path))
    assert found is None, found


@golden_files
def test_the_events_are_presented_as_recorded(path: Path) -> None:
    found = events_difference(load(path), replayed(path))
    assert found is None, found


# --- the comparison notices a tampered log (tampered in memory only) ------------------------------


def tampered() -> dict[str, Any]:
    """A deep copy of one golden log, to tamper with."""
    return copy.deepcopy(load(GOLDEN / "0.1.0" / "party-2p-dinner-for-two-2p-variant-humans.json"))


def differences(document: dict[str, Any]) -> dict[str, str | None]:
    now = replay(document)
    return {
        "result": result_difference(document, now),
        "final_view": view_difference(document, now),
        "events": events_difference(document, now),
    }


def test_a_changed_score_is_noticed() -> None:
    document = tampered()
    document["final_view"]["result"]["scores"][0]["total"] += 1
    found = differences(document)
    assert found["result"] is not None and found["result"].startswith("result.scores[0].total: ")
    assert found["final_view"] is not None and found["final_view"].startswith("final_view.result.scores[0].total: ")
    assert found["events"] is None


def test_an_event_field_the_code_no_longer_reads_is_noticed() -> None:
    document = tampered()
    document["events"][-1]["data"]["unknown"] = 1
    found = differences(document)
    assert found["events"] is not None and "unknown" in found["events"]


def test_a_forged_result_is_noticed() -> None:
    document = tampered()
    finished = document["events"][-1]
    assert finished["type"] == "GameFinished"
    for result in (finished["data"]["result"], document["final_view"]["result"]):
        result["scores"][0]["total"] += 1
    found = differences(document)
    assert found["result"] is not None and found["result"].startswith("rescored.scores[0].total: ")
    assert found["final_view"] is None and found["events"] is None


def test_a_field_added_since_is_no_difference_but_a_field_gone_is() -> None:
    assert difference({"a": 1}, {"a": 1, "new": 2}) is None
    assert difference({"a": 1, "gone": 2}, {"a": 1}) == "$.gone: recorded, missing now"
    assert difference({"a": [1, 2]}, {"a": [1, 3]}) is not None


def test_a_removed_event_is_noticed() -> None:
    document = tampered()
    removed = next(i for i, event in enumerate(document["events"]) if event["type"] == "DessertsScored")
    del document["events"][removed]
    for version, event in enumerate(document["events"], start=1):
        event["version"] = version
    found = differences(document)
    assert found["result"] is not None and found["result"].startswith("rescored: ")
    assert found["final_view"] is not None
