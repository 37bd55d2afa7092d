"""The history projection reads GameCreated and GameFinished rows of every schema version as written."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec

from kaiten.adapters.projections.history import _Created, _Finished, _lobby_event

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "0.1.0" / "sushi-go-2p-bots.json"


def test_every_shape_of_the_lobby_events_is_read() -> None:
    events = json.loads(GOLDEN.read_text())["events"]
    first, last = events[0], events[-1]
    shapes = [
        {**first["data"]},  # schema 1: seed_hash, no salt, no rules version
        {"game": "sushi-go", "players": 2, "options": {}, "seed_commitment": "ab", "seed": None, "salt": None},
        {
            "game": "sushi-go",
            "players": 2,
            "options": {},
            "seed_commitment": "ab",
            "seed": 1,
            "salt": "",
            "rules_version": 2,
        },
    ]
    for data in shapes:
        created = _lobby_event.decode(msgspec.json.encode({"type": "GameCreated", **data}))
        assert created == _Created(game="sushi-go", players=2)
    finished = _lobby_event.decode(msgspec.json.encode({"type": "GameFinished", **last["data"]}))
    assert isinstance(finished, _Finished) and finished.result.winners == tuple(last["data"]["result"]["winners"])
