"""A bot worker's search pauses between iterations while its server answers a request
(adapters/bot_workers.py): for as long as it has thought lately, never longer."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from kaiten.adapters.bot_workers import PAUSE_CREDIT_SECONDS, PAUSE_STEP_SECONDS, PauseForRequests, RequestsInFlight


@dataclass
class Requests:
    value: int = 0


class Clocks:
    """The search's CPU time and the wall clock, moved by the test; sleeping moves the wall clock and
    may answer the requests after a number of steps."""

    def __init__(self, requests: Requests, answered_after: int | None = None) -> None:
        self.requests = requests
        self.answered_after = answered_after
        self.cpu = 0.0
        self.wall = 100.0
        self.sleeps = 0

    def thought(self) -> float:
        return self.cpu

    def now(self) -> float:
        return self.wall

    def sleep(self, seconds: float) -> None:
        self.sleeps += 1
        self.wall += seconds
        if self.sleeps == self.answered_after:
            self.requests.value = 0

    def think(self, seconds: float) -> None:
        self.cpu += seconds
        self.wall += seconds


def pause_for(requests: Requests, clocks: Clocks) -> PauseForRequests:
    return PauseForRequests(requests, thought=clocks.thought, now=clocks.now, sleep=clocks.sleep)


def never_answered() -> tuple[PauseForRequests, Clocks]:
    """A search's pause, and its clocks, while a request waits for an answer that never starts."""
    requests = Requests(1)
    clocks = Clocks(requests)
    return pause_for(requests, clocks), clocks


def paused(pause: PauseForRequests, clocks: Clocks) -> float:
    """How long one pause lasted."""
    started = clocks.wall
    pause()
    return clocks.wall - started


def test_with_no_request_in_flight_a_search_goes_on_at_once() -> None:
    requests = Requests(0)
    clocks = Clocks(requests)
    pause = pause_for(requests, clocks)
    clocks.think(0.01)
    pause()
    assert clocks.sleeps == 0


def test_a_search_waits_until_the_answer_starts() -> None:
    requests = Requests(1)
    clocks = Clocks(requests, answered_after=6)
    pause = pause_for(requests, clocks)
    clocks.think(0.01)
    pause()
    assert clocks.sleeps == 6 and requests.value == 0


def test_a_pause_lasts_at_most_what_the_search_has_thought_since() -> None:
    pause, clocks = never_answered()
    clocks.think(0.004)
    assert 0.004 <= paused(pause, clocks) < 0.004 + 2 * PAUSE_STEP_SECONDS
    assert paused(pause, clocks) == 0, "the credit is spent: no pause without thinking again"


def test_under_requests_without_end_a_search_thinks_at_half_speed_at_worst() -> None:
    pause, clocks = never_answered()
    for _ in range(1000):
        clocks.think(0.001)
        pause()
    assert clocks.wall - 100.0 <= 2 * clocks.cpu + PAUSE_STEP_SECONDS * 10


def test_thinking_long_earns_one_pause_of_the_credit_at_most() -> None:
    pause, clocks = never_answered()
    clocks.think(5.0)
    assert paused(pause, clocks) == pytest.approx(PAUSE_CREDIT_SECONDS, abs=2 * PAUSE_STEP_SECONDS)


def test_the_shared_count_follows_requests_started_and_answered() -> None:
    in_flight = RequestsInFlight()
    in_flight.started()
    in_flight.started()
    in_flight.answered()
    assert in_flight.shared.value == 1
    in_flight.answered()
    assert in_flight.shared.value == 0
