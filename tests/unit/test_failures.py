"""A background loop's failures through an outage: one traceback, then a line now and then, then recovery."""

from __future__ import annotations

import logging

import pytest

from kaiten.services.failures import RepeatedFailures


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_outage_of_a_minute_is_one_traceback_two_lines_and_a_recovery(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    failures = RepeatedFailures(logging.getLogger("kaiten.test"), "projection history", every=30, now=clock)
    caplog.set_level(logging.WARNING, "kaiten.test")
    # A round fails every 0.2 s for 65 s: 325 failures.
    for _ in range(325):
        failures.failed(ConnectionError("connection refused\n  on 127.0.0.1"))
        clock.now += 0.2
    assert failures.failing == 325
    failures.succeeded()

    records = caplog.records
    assert [record.levelno for record in records] == [logging.ERROR, logging.WARNING, logging.WARNING, logging.WARNING]
    assert records[0].exc_info is not None and "projection history failed" in records[0].getMessage()
    assert all(record.exc_info is None for record in records[1:])
    assert "150 more failures in 30s" in records[1].getMessage()
    assert "ConnectionError: connection refused on 127.0.0.1" in records[1].getMessage()
    assert "150 more failures in 30s, 60s since the first" in records[2].getMessage()
    assert records[3].getMessage() == "projection history recovered after 325 failures over 65s"
    assert failures.failing == 0


def test_rounds_that_succeed_say_nothing_and_a_new_outage_starts_over(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    failures = RepeatedFailures(logging.getLogger("kaiten.test"), "webhook deliveries", every=30, now=clock)
    caplog.set_level(logging.WARNING, "kaiten.test")
    for _ in range(5):
        failures.succeeded()
    assert caplog.records == []
    failures.failed(OSError("down"))
    failures.succeeded()
    failures.failed(OSError("down again"))
    tracebacks = [record for record in caplog.records if record.exc_info is not None]
    assert len(tracebacks) == 2
    assert "recovered after 1 failures" in caplog.records[1].getMessage()
