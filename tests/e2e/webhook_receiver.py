"""A webhook receiver on 127.0.0.1 for the tests: keeps every request, answers with chosen statuses."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.servers import free_port

#: How long a test waits for deliveries before it says what it got.
WAIT_SECONDS = 30


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes

    @property
    def payload(self) -> dict[str, Any]:
        decoded: dict[str, Any] = json.loads(self.body)
        return decoded

    def signed_with(self, secret: str) -> bool:
        expected = "sha256=" + hmac.new(secret.encode(), self.body, hashlib.sha256).hexdigest()
        return hmac.compare_digest(self.headers.get("x-kaiten-signature", ""), expected)


@dataclass
class Receiver:
    port: int = field(default_factory=free_port)
    #: Statuses of the next answers, in order; then 200.
    statuses: list[int] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    _server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._answer, "127.0.0.1", self.port)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")[1:]
        headers = {
            name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines if line)
        }
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        self.received.append(Received(headers, body))
        status = self.statuses.pop(0) if self.statuses else 200
        writer.write(f"HTTP/1.1 {status} X\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".encode())
        await writer.drain()
        writer.close()

    def accepted(self) -> Iterator[Received]:
        """One request per delivery (by `X-Kaiten-Delivery`), its last attempt, in order of arrival."""
        last: dict[str, Received] = {}
        for item in self.received:
            last[item.headers["x-kaiten-delivery"]] = item
        return iter(last.values())

    async def wait_for(self, count: int, event: str | None = None) -> list[dict[str, Any]]:
        """The payloads once `count` distinct deliveries arrived (those of `event` when given)."""
        async with asyncio.timeout(WAIT_SECONDS):
            while True:
                payloads = [item.payload for item in self.accepted()]
                if event is not None:
                    payloads = [payload for payload in payloads if payload["event"] == event]
                if len(payloads) >= count:
                    return payloads
                await asyncio.sleep(0.05)
