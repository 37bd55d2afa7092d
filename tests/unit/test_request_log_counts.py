"""The request log counts the requests that write while they wait for their answer to start, for
the bot workers' searches to pause meanwhile (api/request_log.py, adapters/bot_workers.py)."""

from __future__ import annotations

from typing import Any

import pytest

from kaiten.adapters.bot_workers import RequestsInFlight
from kaiten.api.request_log import RequestLog

SCOPE = {"type": "http", "method": "POST", "path": "/v1/games/g/commands", "headers": []}


async def served(app: Any, in_flight: RequestsInFlight | None, method: str = "POST") -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await RequestLog(app, in_flight)({**SCOPE, "method": method}, receive, send)
    return sent


async def test_a_request_counts_until_its_answer_starts() -> None:
    in_flight = RequestsInFlight()
    seen: list[int] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(in_flight.shared.value)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        seen.append(in_flight.shared.value)
        await send({"type": "http.response.body", "body": b"{}"})

    await served(app, in_flight)
    assert seen == [1, 0] and in_flight.shared.value == 0


async def test_a_streamed_answer_stops_counting_when_it_starts() -> None:
    in_flight = RequestsInFlight()
    seen: list[int] = []

    async def stream(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        for _ in range(3):
            seen.append(in_flight.shared.value)
            await send({"type": "http.response.body", "body": b"data: x\n\n", "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    await served(stream, in_flight)
    assert seen == [0, 0, 0] and in_flight.shared.value == 0


async def test_a_request_that_fails_before_its_answer_stops_counting() -> None:
    in_flight = RequestsInFlight()

    async def failing(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("a bug")

    with pytest.raises(RuntimeError):
        await served(failing, in_flight)
    assert in_flight.shared.value == 0


async def test_requests_at_once_count_together() -> None:
    in_flight = RequestsInFlight()
    in_flight.started()  # another request, still waiting for its answer
    seen: list[int] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(in_flight.shared.value)
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    await served(app, in_flight)
    assert seen == [2] and in_flight.shared.value == 1


async def test_without_a_count_the_log_serves_as_before() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    sent = await served(app, None)
    assert sent[0]["status"] == 200 and any(name == b"x-request-id" for name, _ in sent[0]["headers"])


@pytest.mark.parametrize("method", ["GET", "HEAD", "OPTIONS"])
async def test_a_read_holds_no_bot(method: str) -> None:
    """A client polling a table would otherwise keep the bots at half speed."""
    in_flight = RequestsInFlight()
    seen: list[int] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(in_flight.shared.value)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    await served(app, in_flight, method)
    assert seen == [0] and in_flight.shared.value == 0
