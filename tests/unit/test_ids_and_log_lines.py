"""The ids every command and request makes or reads, and the JSON line every request writes."""

from __future__ import annotations

import json
import logging
import sys
import uuid
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaiten.adapters.system import SecureIds, random_uuid, random_uuid_hex
from kaiten.api.logging_setup import JsonLines
from kaiten.api.request_log import request_id_of
from kaiten.services.errors import ServiceError
from kaiten.services.loading import check_game_id


@settings(max_examples=200)
@given(st.integers(min_value=0, max_value=3))
def test_random_uuids_are_version_4_written_as_the_uuid_module_writes_them(which: int) -> None:
    text = [random_uuid, SecureIds().command_id, SecureIds().game_id, SecureIds().person_id][which]()
    parsed = uuid.UUID(text)
    assert parsed.version == 4 and parsed.variant == uuid.RFC_4122
    assert str(parsed) == text


def test_random_uuid_hex_is_a_version_4_uuids_hex_and_never_repeats() -> None:
    drawn = [random_uuid_hex() for _ in range(10_000)]
    assert len(set(drawn)) == len(drawn)
    for digits in drawn[:500]:
        parsed = uuid.UUID(hex=digits)
        assert parsed.version == 4 and parsed.variant == uuid.RFC_4122 and parsed.hex == digits


def test_a_request_without_its_own_id_gets_a_fresh_one_and_keeps_a_plain_one_it_sent() -> None:
    made = request_id_of({"headers": []})  # type: ignore[typeddict-item]
    assert uuid.UUID(hex=made).version == 4
    assert request_id_of({"headers": [(b"x-request-id", b"trace-42")]}) == "trace-42"  # type: ignore[typeddict-item]
    refused = request_id_of({"headers": [(b"x-request-id", b"no spaces please")]})  # type: ignore[typeddict-item]
    assert refused != "no spaces please" and uuid.UUID(hex=refused).version == 4


def test_a_log_line_is_one_json_object_and_what_json_cannot_hold_is_written_as_text() -> None:
    record = logging.LogRecord("kaiten.request", logging.INFO, __file__, 1, "%s %s", ("POST", 201), None)
    record.request = {"request_id": "abc", "status": 201, "seat": None, "duration_ms": 1.25}
    record.fields = {"path": Path("/tmp/x"), "amount": Decimal("1.50"), "at": datetime(2026, 12, 6, tzinfo=UTC)}
    line = JsonLines().format(record)
    assert "\n" not in line
    parsed = json.loads(line)
    assert parsed["message"] == "POST 201" and parsed["logger"] == "kaiten.request" and parsed["level"] == "INFO"
    assert parsed["request_id"] == "abc" and parsed["status"] == 201 and parsed["seat"] is None
    assert parsed["path"] == "/tmp/x" and parsed["amount"] == "1.50"
    assert datetime.fromisoformat(parsed["at"].replace("Z", "+00:00")) == datetime(2026, 12, 6, tzinfo=UTC)
    assert datetime.fromisoformat(parsed["time"]).tzinfo is not None


def test_a_log_line_of_a_failure_holds_its_traceback() -> None:
    try:
        raise ValueError("broken")
    except ValueError:
        record = logging.LogRecord("kaiten", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    parsed = json.loads(JsonLines().format(record))
    assert "ValueError: broken" in parsed["exception"]


@given(st.uuids(), st.sampled_from(["canonical", "upper", "hex", "braces", "urn"]))
def test_a_game_id_in_any_form_uuid_reads_is_taken_in_its_canonical_form(game: uuid.UUID, form: str) -> None:
    written = {
        "canonical": str(game),
        "upper": str(game).upper(),
        "hex": game.hex,
        "braces": "{" + str(game) + "}",
        "urn": game.urn,
    }[form]
    assert check_game_id(written) == str(game)


@given(st.text(max_size=40))
def test_what_is_no_uuid_is_no_game(text: str) -> None:
    try:
        expected = str(uuid.UUID(text))
    except ValueError:
        with pytest.raises(ServiceError) as refused:
            check_game_id(text)
        assert refused.value.code == "game-not-found"
    else:
        assert check_game_id(text) == expected
