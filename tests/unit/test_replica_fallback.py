"""A read replica that cannot answer hands its reads to the primary, and is tried again a little later."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import OperationalError, ProgrammingError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from kaiten.adapters.replica import Replica


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Copy:
    """One copy of the database, which answers with its name or fails as told."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.failure: Exception | None = None
        self.asked = 0

    async def __call__(self) -> str:
        self.asked += 1
        if self.failure is not None:
            raise self.failure
        return self.name


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def replica(clock: Clock) -> Replica:
    return Replica(retry_seconds=5.0, now=clock)


async def test_a_replica_that_answers_answers(replica: Replica) -> None:
    on_replica, on_primary = Copy("replica"), Copy("primary")
    assert await replica.read(on_replica, on_primary) == "replica"
    assert on_primary.asked == 0


async def test_an_unreachable_replica_is_left_alone_a_while_then_tried_again(replica: Replica, clock: Clock) -> None:
    on_replica, on_primary = Copy("replica"), Copy("primary")
    on_replica.failure = OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))
    assert await replica.read(on_replica, on_primary) == "primary"
    assert not replica.up
    clock.now += 4.9
    assert await replica.read(on_replica, on_primary) == "primary"
    assert on_replica.asked == 1
    on_replica.failure = None
    clock.now += 0.2
    assert await replica.read(on_replica, on_primary) == "replica"
    assert replica.up and on_replica.asked == 2 and on_primary.asked == 2


@pytest.mark.parametrize("failure", [OSError("no route to host"), PoolTimeout("the pool has no connection to give")])
async def test_a_replica_that_cannot_be_connected_to_hands_over(replica: Replica, failure: Exception) -> None:
    on_replica, on_primary = Copy("replica"), Copy("primary")
    on_replica.failure = failure
    assert await replica.read(on_replica, on_primary) == "primary"


async def test_a_wrong_query_is_an_error_on_the_replica_too(replica: Replica) -> None:
    on_replica, on_primary = Copy("replica"), Copy("primary")
    on_replica.failure = ProgrammingError("SELECT nothing", {}, Exception("syntax error"))
    with pytest.raises(ProgrammingError):
        await replica.read(on_replica, on_primary)
    assert replica.up and on_primary.asked == 0
