"""Export and import of a log: the checks (pure) on the golden logs of kaiten 0.1.0 and on logs
tampered with, and the import use case over the in-memory store."""

from __future__ import annotations

import copy
import hashlib
import json
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.api.contract.presenting import event_page, log_document, table_view
from kaiten.services.commands import CreateGame, GetTable, ListEvents, NewSeat, Resign
from kaiten.services.errors import ServiceError
from kaiten.services.games import Games
from kaiten.services.logs import FORMAT, InvalidLog, check_log, export_log, import_log
from kaiten.services.verification import verify_game
from tests.bots import bots_move
from tests.unit.seats.fixtures import server

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FILES = sorted(GOLDEN.glob("*/*.json"))
PARTY = GOLDEN / "0.1.0" / "party-2p-dinner-for-two-2p-variant-humans.json"
SUSHI_GO = GOLDEN / "0.1.0" / "sushi-go-2p-bots.json"


@cache
def _golden(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def golden(path: Path) -> dict[str, Any]:
    """A fresh copy of a golden file, to hand to the checks or tamper with."""
    return copy.deepcopy(_golden(path))


def refusal(document: Any) -> tuple[str, int | None]:
    with pytest.raises(InvalidLog) as refused:
        check_log(document)
    return refused.value.code, refused.value.version


def renumbered(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for version, event in enumerate(events, start=1):
        event["version"] = version
    return events


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_every_golden_log_of_0_1_0_passes_the_checks(path: Path) -> None:
    document = golden(path)
    checked = check_log(document)
    assert checked.table.status == "finished" and checked.table.rules_version == 1
    assert checked.game.rules_version == 1
    assert json.loads(json.dumps(_as_builtins(checked.table.result))) == document["final_view"]["result"]
    assert checked.original_id is None  # a golden file names no game of its own ("other fields ignored")


def _as_builtins(value: Any) -> Any:
    return msgspec.to_builtins(value)


def test_the_document_must_be_a_log() -> None:
    assert refusal([]) == ("invalid-log", None)
    assert refusal({"events": []}) == ("invalid-log", None)
    assert refusal({"events": [1, 2]}) == ("invalid-log", None)
    assert refusal({**golden(SUSHI_GO), "format": "kaiten-log/9"}) == ("unknown-format", None)


def test_an_event_removed_leaves_a_gap() -> None:
    document = golden(SUSHI_GO)
    del document["events"][10]
    assert refusal(document) == ("version-gap", 11)


def test_an_event_removed_and_the_versions_renumbered_is_not_what_the_rules_write() -> None:
    """Deciding the log again finds where it parts from the rules: the round's scores are missing."""
    document = golden(PARTY)
    removed = next(at for at, event in enumerate(document["events"]) if event["type"] == "RoundScored")
    del document["events"][removed]
    renumbered(document["events"])
    assert refusal(document) == ("import-not-reproducible", removed + 1)


def test_a_changed_final_result_is_refused() -> None:
    document = golden(SUSHI_GO)
    scores = document["events"][-1]["data"]["result"]["scores"]
    scores[0]["breakdown"]["maki"] += 1
    scores[0]["total"] += 1
    assert refusal(document) == ("result-mismatch", len(document["events"]))


def test_a_round_scored_higher_with_a_matching_result_is_refused_where_it_is_forged() -> None:
    """The issue's reproduction: RoundScored +100 and a GameFinished that agrees with it folded into a
    consistent log, accepted before (139:56). The rules score the round otherwise."""
    document = golden(SUSHI_GO)
    at = next(at for at, event in enumerate(document["events"]) if event["type"] == "RoundScored")
    document["events"][at]["data"]["scores"][0]["breakdown"]["maki"] += 100
    document["events"][at]["data"]["scores"][0]["total"] += 100
    final = document["events"][-1]["data"]["result"]["scores"][0]
    final["breakdown"]["maki"] += 100
    final["total"] += 100
    assert refusal(document) == ("import-not-reproducible", at + 1)


def test_the_first_event_must_create_a_known_game_under_a_known_rules_version() -> None:
    document = golden(SUSHI_GO)
    document["events"] = document["events"][1:]
    renumbered(document["events"])
    assert refusal(document) == ("not-game-created", 1)
    document = golden(SUSHI_GO)
    document["events"][0]["data"]["game"] = "chess"
    assert refusal(document) == ("unknown-game", 1)
    document = golden(SUSHI_GO)
    document["events"][0].update(schema_version=3, data={**document["events"][0]["data"], "rules_version": 7})
    assert refusal(document)[0] == "invalid-event"  # schema 3 names seed_commitment, not seed_hash
    created = document["events"][0]["data"]
    created["seed_commitment"] = created.pop("seed_hash")
    created["salt"] = ""
    assert refusal(document) == ("unknown-rules-version", 1)
    export = {"format": FORMAT, "game": "sushi-go", "events": golden(SUSHI_GO)["events"]}
    assert refusal({**export, "rules_version": 2}) == ("rules-version-mismatch", 1)
    assert refusal({**export, "rules_version": 1, "game": "sushi-go-party"}) == ("game-mismatch", 1)
    assert check_log({**export, "rules_version": 1}).table.status == "finished"


def test_unknown_types_shapes_and_data_are_refused_at_their_version() -> None:
    document = golden(SUSHI_GO)
    document["events"][6]["type"] = "CardsStolen"
    assert refusal(document) == ("unknown-event-type", 7)
    document = golden(SUSHI_GO)
    document["events"][6]["schema_version"] = 9
    assert refusal(document) == ("unknown-schema-version", 7)
    document = golden(SUSHI_GO)
    document["events"][6]["data"]["cards"] = "all of them"
    assert refusal(document) == ("invalid-event", 7)


def test_a_version_2_outcome_event_has_no_place_in_a_version_1_log() -> None:
    document = golden(PARTY)
    at = next(at for at, event in enumerate(document["events"]) if event["type"] == "CardsRevealed")
    passed = {"version": 0, "type": "HandsPassed", "data": {"direction": "left", "turn": 2}}
    document["events"].insert(at + 1, passed)
    renumbered(document["events"])
    assert refusal(document) == ("unknown-event-type", at + 2)


def test_events_out_of_place_do_not_fold() -> None:
    document = golden(SUSHI_GO)
    events = document["events"]
    events[1], events[3] = events[3], events[1]  # GameStarted before the seats
    renumbered(events)
    assert refusal(document) == ("does-not-fold", 2)
    document = golden(SUSHI_GO)
    document["events"].append({**document["events"][-2], "version": len(document["events"]) + 1})
    assert refusal(document) == ("events-after-the-end", len(document["events"]))


def test_a_log_must_be_finished_and_reveal_the_committed_seed() -> None:
    document = golden(SUSHI_GO)
    document["events"].pop()
    assert refusal(document) == ("log-not-finished", len(document["events"]))
    document = golden(SUSHI_GO)
    for event in (document["events"][0], document["events"][-1]):
        event["data"]["seed"] += 1
    assert refusal(document) == ("seed-mismatch", len(document["events"]))


# --- the use cases over the in-memory store -------------------------------------------------------


@pytest.fixture
def games() -> Games:
    return Games(InMemoryEventStore(), SystemClock(), SecureIds(), people=InMemoryPeople())


async def test_an_exported_log_imports_as_a_new_finished_game(games: Games) -> None:
    created = await games.create(CreateGame("sushi-go-party", 3, None, 17, [NewSeat(bot="random")] * 3))
    await bots_move(games, created.id)
    finished = table_view(await games.view(GetTable(created.id)))
    exported = log_document(await export_log(games, created.id, None))
    document = _as_builtins(exported)
    assert (document["format"], document["id"], document["game"], document["rules_version"]) == (
        FORMAT,
        created.id,
        "sushi-go-party",
        2,
    )
    page = event_page(await games.events(ListEvents(created.id, after=0, limit=1000)))
    assert document["events"] == [_as_builtins(view) for view in page.events]
    imported, _ = await import_log(games, _as_builtins(exported), None)
    assert imported.id != created.id and imported.imported_from == created.id
    assert imported.status == "finished" and table_view(imported).result == finished.result
    shown = table_view(await games.view(GetTable(imported.id)))
    assert shown.imported_from == created.id and shown.full_state == finished.full_state
    again = event_page(await games.events(ListEvents(imported.id, after=0, limit=1000)))
    assert [(e.version, e.type, e.data) for e in again.events] == [(e.version, e.type, e.data) for e in page.events]
    stored = await games.store.read(imported.id)
    assert stored[0].metadata["imported_from"] == created.id and "token_hash" not in str(stored)
    assert (await verify_game(games.store, imported.id)).drift == []


async def test_an_abandoned_games_log_is_exported_and_imported_as_abandoned(games: Games) -> None:
    seats = [NewSeat(name="ann"), NewSeat(bot="random")]
    created = await games.create(CreateGame("sushi-go", 2, None, 5, seats))
    await games.resign(Resign(created.id, created.tokens["0"]))
    document = _as_builtins(log_document(await export_log(games, created.id, None)))
    assert document["events"][-1]["type"] == "GameAbandoned"
    imported, _ = await import_log(games, document, None)
    assert imported.status == "abandoned" and imported.imported_from == created.id and imported.table.result is None
    tampered = copy.deepcopy(document)
    tampered["events"][-1]["data"]["seed"] += 1
    assert refusal(tampered) == ("seed-mismatch", len(document["events"]))
    document["events"].append({**document["events"][-3], "version": len(document["events"]) + 1})
    assert refusal(document) == ("events-after-the-end", len(document["events"]))


async def test_a_game_abandoned_before_it_started_has_a_log_too() -> None:
    s = server(abandon_after=timedelta(minutes=5))
    created = await s.games.create(CreateGame("sushi-go", 3, None, 5, [NewSeat(name="ann")]))
    s.clock.advance(301)
    assert await s.scheduler.run_once() == 1
    document = _as_builtins(log_document(await export_log(s.games, created.id, None)))
    assert [event["type"] for event in document["events"]][-2:] == ["SeatTaken", "GameAbandoned"]
    assert check_log(document).table.status == "abandoned"


async def test_a_game_that_is_not_over_has_no_log_to_export(games: Games) -> None:
    created = await games.create(CreateGame("sushi-go", 2, None, 5, [NewSeat(name="ann"), NewSeat(name="bo")]))
    with pytest.raises(ServiceError) as running:
        await export_log(games, created.id, None)
    assert running.value.code == "game-not-finished"


async def test_a_game_played_here_shows_no_imported_from(games: Games) -> None:
    created = await games.create(CreateGame("sushi-go", 2, None, 3, [NewSeat(bot="random")] * 2))
    assert "imported_from" not in msgspec.to_builtins(table_view(await games.view(GetTable(created.id))))


async def test_a_golden_log_of_0_1_0_imports_in_todays_shapes(games: Games) -> None:
    document = golden(PARTY)
    imported, _ = await import_log(games, document, None)
    assert imported.imported_from is None
    assert json.loads(json.dumps(_as_builtins(table_view(imported).result))) == document["final_view"]["result"]
    stored = await games.store.read(imported.id)
    assert stored[0].schema_version == 3 and stored[0].metadata["recorded_at"] == document["events"][0]["recorded_at"]
    exported = log_document(await export_log(games, imported.id, None))
    assert exported.rules_version == 1 and len(exported.events) == len(document["events"])


def test_a_pick_of_two_cards_not_in_the_hand_without_chopsticks_is_refused() -> None:
    """The issue's reproduction: a pick the rules refuse folded all the same (evolve trusts events)."""
    document = golden(SUSHI_GO)
    at = next(at for at, event in enumerate(document["events"]) if event["type"] == "CardPicked")
    document["events"][at]["data"]["cards"] = [0, 1]
    code, version = refusal(document)
    assert code in ("import-not-reproducible", "does-not-fold") and version is not None and version <= at + 1


def test_a_seed_and_commitment_swapped_for_another_seed_is_refused_at_the_deal() -> None:
    """The issue's reproduction: the revealed seed 1 and a commitment made for it, while the deals came
    from another seed. The commitment checks out; deciding the log again deals otherwise."""
    document = golden(GOLDEN / "0.1.0-4363b1c" / "sushi-go-2p-bots.json")
    events = document["events"]
    created, finished = events[0]["data"], events[-1]["data"]
    created["seed"] = finished["seed"] = 1
    created["seed_commitment"] = hashlib.sha256(bytes.fromhex(finished["salt"]) + b"1").hexdigest()
    dealt = next(at for at, event in enumerate(events) if event["type"] == "HandsDealt")
    assert refusal(document) == ("import-not-reproducible", dealt + 1)
