"""Reading Server-Sent Events the way a browser's EventSource does, over real HTTP connections.

Litestar's test client collects a whole response before answering, so a stream that stays open would
never come back: the stream tests talk to a real server (uvicorn) instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import msgspec

#: Only reached when something that should arrive never does: the test fails instead of hanging.
WAIT_SECONDS = 20


@dataclass(frozen=True)
class Message:
    """One dispatched SSE message: an event (id and data) or a comment."""

    id: str | None = None
    data: str | None = None
    comment: str | None = None

    def event(self) -> dict[str, Any]:
        assert self.data is not None, f"not an event: {self}"
        event: dict[str, Any] = msgspec.json.decode(self.data)
        assert self.id == str(event["version"]), "an event's SSE id is its version"
        return event


async def _messages(response: httpx.Response) -> AsyncIterator[Message]:
    fields: dict[str, str] = {}
    async for line in response.aiter_lines():
        if not line:
            if fields:
                yield Message(fields.get("id"), fields.get("data"), fields.get("comment"))
                fields = {}
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        key = name or "comment"
        # Several data lines make one value, joined by newlines.
        fields[key] = f"{fields[key]}\n{value}" if key in fields else value


class EventStream:
    """Each read is bounded as a whole (keep-alive comments do not extend it)."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self._messages = _messages(response)

    async def next(self) -> Message | None:
        """The next message, or None when the server ended the stream."""
        async with asyncio.timeout(WAIT_SECONDS):
            return await anext(self._messages, None)

    async def until_version(self, version: int) -> list[dict[str, Any]]:
        """Events up to and including the one at `version` (the viewer must be able to see that one)."""
        events: list[dict[str, Any]] = []
        async with asyncio.timeout(WAIT_SECONDS):
            while not events or events[-1]["version"] < version:
                message = await anext(self._messages, None)
                assert message is not None, f"the stream ended after {events}"
                if message.data is not None:
                    events.append(message.event())
        assert events[-1]["version"] == version, f"version {version} was never sent"
        return events

    async def rest(self) -> list[dict[str, Any]]:
        """Every event until the server ends the stream."""
        async with asyncio.timeout(WAIT_SECONDS):
            return [message.event() async for message in self._messages if message.data is not None]


async def refused_stream(client: httpx.AsyncClient, path: str, headers: dict[str, str] | None = None) -> httpx.Response:
    """The answer to a GET of a stream that must be refused, read whole; fails as soon as the stream opens
    instead (a stream never ends, and keep-alive comments keep a client's read timeout from ending it)."""
    async with asyncio.timeout(WAIT_SECONDS), client.stream("GET", path, headers=headers) as response:
        assert response.status_code != 200, f"GET {path} opened a stream instead of refusing it"
        await response.aread()
        return response


@asynccontextmanager
async def open_stream(
    client: httpx.AsyncClient,
    game_id: str,
    headers: dict[str, str] | None = None,
    query: str = "",
) -> AsyncIterator[EventStream]:
    async with client.stream("GET", f"/v1/games/{game_id}/events/stream{query}", headers=headers) as response:
        assert response.status_code == 200, (await response.aread()).decode()
        assert response.headers["content-type"].startswith("text/event-stream")
        yield EventStream(response)
