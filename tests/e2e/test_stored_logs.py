"""Logs that kaiten 0.1.0 wrote (the unsalted `seed_hash`) still load, replay, display and play on.

The rows in tests/fixtures/stored_logs_0.1.0.json were recorded by that version
(tests/fixtures/record_stored_logs.py); they are stored here as they were, schema version 1.
"""

from __future__ import annotations

import hashlib
import json
import random
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from kaiten.api.bootstrap import Services
from kaiten.domain.sushi_go_party.events import OUTCOME_EVENT_TYPES
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY
from kaiten.services.ports import NewEvent
from tests.e2e.play import all_events, bearer, play_randomly

FIXTURE = json.loads((Path(__file__).parents[1] / "fixtures" / "stored_logs_0.1.0.json").read_text())
FINISHED, RUNNING_PARTY, RUNNING_SUSHI_GO = FIXTURE["logs"]


async def store_as_written(services: Services, log: dict[str, Any]) -> str:
    rows = [
        NewEvent(
            type=row["type"],
            data=msgspec.json.encode(row["data"]),
            metadata=row["metadata"],
            schema_version=row["schema_version"],
        )
        for row in log["rows"]
    ]
    # A game id of its own: the PostgreSQL database lives as long as the test session.
    game_id = str(uuid.uuid4())
    await services.games.store.append(game_id, 0, rows)
    return game_id


def unsalted(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


async def test_every_event_displays_as_written_but_the_seed_commitment(client, services):
    game_id = await store_as_written(services, FINISHED)
    shown = await all_events(client, game_id)
    written = [row["data"] for row in FINISHED["rows"]]
    assert [e["version"] for e in shown] == list(range(1, len(written) + 1))
    for event, data in zip(shown[1:], written[1:], strict=True):
        if event["type"] != "GameFinished":
            assert {**event["data"], "type": event["type"]} == data
    created = shown[0]["data"]
    assert created["seed_commitment"] == written[0]["seed_hash"] and "seed_hash" not in created
    # Written before rules versions: it shows, and plays, rules version 1.
    assert created["rules_version"] == 1 and "rules_version" not in written[0]
    assert shown[0]["schema_version"] == 3


async def test_a_finished_log_reveals_its_seed_against_the_old_commitment(client, services):
    game_id = await store_as_written(services, FINISHED)
    table = (await client.get(f"/v1/games/{game_id}")).json()
    written_result = FINISHED["rows"][-1]["data"]["result"]
    assert table["status"] == "finished" and table["result"] == written_result
    shown = await all_events(client, game_id)
    created, finished = shown[0]["data"], shown[-1]["data"]
    # An empty salt: the salted formula gives the unsalted hash of 0.1.0, so the check still holds.
    assert (created["salt"], finished["salt"]) == ("", "")
    assert created["seed_commitment"] == unsalted(finished["seed"]) == unsalted(123456)
    replayed = (await client.get(f"/v1/games/{game_id}/replay", params={"at": 40})).json()
    assert replayed["version"] == 40 and replayed["status"] == "active"


async def test_a_running_log_keeps_its_seed_secret_and_plays_to_the_end(client, services):
    game_id = await store_as_written(services, RUNNING_SUSHI_GO)
    created = (await all_events(client, game_id))[0]["data"]
    assert created["seed"] is None and created["salt"] is None
    table = (await client.get(f"/v1/games/{game_id}")).json()
    assert table["status"] == "active" and table["version"] == len(RUNNING_SUSHI_GO["rows"])

    player = {**table, "tokens": {"0": RUNNING_SUSHI_GO["seat_0_token"]}}
    ended = await play_randomly(client, player, random.Random(1))
    assert ended["status"] == "finished"
    shown = await all_events(client, game_id)
    assert shown[-1]["type"] == "GameFinished" and shown[-1]["data"]["salt"] == ""
    assert shown[0]["data"]["seed_commitment"] == unsalted(shown[-1]["data"]["seed"]) == unsalted(7)
    stored = await services.games.store.read(game_id)
    # New events are written in the current shapes, next to the old rows, which stay as they were.
    assert (stored[0].schema_version, stored[-1].schema_version) == (1, 2)
    assert datetime.fromisoformat(table["created_at"]) <= datetime.fromisoformat(ended["updated_at"])


async def test_a_running_party_log_shows_a_seat_its_hand(client, services):
    game_id = await store_as_written(services, RUNNING_PARTY)
    token = RUNNING_PARTY["seat_0_token"]
    table = (await client.get(f"/v1/games/{game_id}", headers=bearer(token))).json()
    assert table["viewer"] == {"seat": 0} and table["state"]["hand"]
    legal = (await client.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(token))).json()
    assert legal["version"] == len(RUNNING_PARTY["rows"])


async def test_a_running_version_1_party_game_finishes_under_version_1_rules(client, services):
    """Written by kaiten 0.1.0 (no rules version): after the upgrade it plays on under rules version 1,
    so no event of the newer rules (their outcome events) ever enters its log."""
    game_id = await store_as_written(services, RUNNING_PARTY)
    table = (await client.get(f"/v1/games/{game_id}")).json()
    player = {**table, "tokens": {"0": RUNNING_PARTY["seat_0_token"]}}
    ended = await play_randomly(client, player, random.Random(3))
    assert ended["status"] == "finished"
    shown = await all_events(client, game_id)
    assert shown[0]["data"]["rules_version"] == 1 and SUSHI_GO_PARTY.rules_version == 2
    newer = {event_type.__name__ for event_type in OUTCOME_EVENT_TYPES}
    assert newer and not newer & {event["type"] for event in shown}
    assert ended["result"] == shown[-1]["data"]["result"]
