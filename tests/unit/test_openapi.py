"""The committed OpenAPI document is the one the app generates: regenerate it with `kaiten openapi`."""

from __future__ import annotations

import json
from pathlib import Path

from kaiten.api.cli.service import openapi_document

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def test_the_committed_openapi_document_is_current():
    assert COMMITTED.exists(), "run `kaiten openapi` and commit openapi/openapi.json"
    assert COMMITTED.read_text() == openapi_document(), "openapi/openapi.json is stale: run `kaiten openapi`"


def test_every_operation_has_an_explicit_operation_id():
    document = json.loads(openapi_document())
    operation_ids = [op["operationId"] for path in document["paths"].values() for op in path.values()]
    assert len(operation_ids) == len(set(operation_ids))
    assert all("_" not in op_id and op_id[0].islower() for op_id in operation_ids)


def test_every_answer_that_may_say_when_to_retry_declares_retry_after():
    """429 (rate limits, quotas, bots busy) and 503 (database unavailable or busy) send Retry-After."""
    document = json.loads(openapi_document())
    answers = [
        (op["operationId"], status, answer)
        for path in document["paths"].values()
        for op in path.values()
        for status, answer in op["responses"].items()
        if status in ("429", "503")
    ]
    assert {status for _, status, _ in answers} == {"429", "503"}
    missing = [(op, status) for op, status, answer in answers if "Retry-After" not in answer.get("headers", {})]
    assert missing == []
