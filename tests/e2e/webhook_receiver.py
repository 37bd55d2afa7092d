"""A webhook receiver on 127.0.0.1 for the tests (keeps every request, answers with chosen statuses),
and the moves of the webhook tests."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import importlib.util
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.app_client import AppClient
from tests.e2e.play import bearer, create
from tests.e2e.servers import free_port

SECRET = "a-shared-secret-of-some-length"
#: The receiver example the README points to, whose `verify` every test delivery must pass.
RECEIVER_EXAMPLE_PATH = Path(__file__).resolve().parents[2] / "docs" / "webhook_receiver.py"


def _load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("webhook_receiver_example", RECEIVER_EXAMPLE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECEIVER_EXAMPLE = _load_example()
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
        """Signed as docs/webhook_receiver.py checks it (and as API 1.0's receivers did, the body alone)."""
        header, delivery = self.headers.get("kaiten-signature", ""), self.headers.get("x-kaiten-delivery", "")
        legacy = "sha256=" + hmac.new(secret.encode(), self.body, hashlib.sha256).hexdigest()
        verified: bool = RECEIVER_EXAMPLE.verify(secret, header, delivery, self.body)
        return verified and hmac.compare_digest(self.headers.get("x-kaiten-signature", ""), legacy)


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

    async def wait_for(self, count: int, event: str | None = None, game_id: str | None = None) -> list[dict[str, Any]]:
        """The payloads once `count` distinct deliveries arrived (those of `event`, of `game_id`, when
        given: other tests' leftover deliveries may reach a port used again)."""
        async with asyncio.timeout(WAIT_SECONDS):
            while True:
                payloads = [item.payload for item in self.accepted()]
                if game_id is not None:
                    payloads = [payload for payload in payloads if payload["game_id"] == game_id]
                if event is not None:
                    payloads = [payload for payload in payloads if payload["event"] == event]
                if len(payloads) >= count:
                    return payloads
                await asyncio.sleep(0.05)


async def register(
    client: AppClient,
    game: dict[str, Any],
    url: str,
    events: list[str] | None = None,
    seat: str = "0",
) -> dict[str, Any]:
    body = {"url": url, "events": events or ["turn", "finished"], "secret": SECRET}
    response = await client.post(f"/v1/games/{game['id']}/webhooks", json=body, headers=bearer(game["tokens"][seat]))
    assert response.status_code == 201, response.text
    hook: dict[str, Any] = response.json()
    return hook


async def person_against_a_bot(client: AppClient) -> dict[str, Any]:
    return await create(client, "sushi-go", 2, seats=[{"name": "Alice"}, {"bot": "greedy"}], seed=5)


async def pick(client: AppClient, game: dict[str, Any]) -> int:
    """Alice picks her first legal command; the version after it."""
    headers = bearer(game["tokens"]["0"])
    legal = (await client.get(f"/v1/games/{game['id']}/legal-commands", headers=headers)).json()
    sent = await client.post(f"/v1/games/{game['id']}/commands", json=legal["commands"][0], headers=headers)
    assert sent.status_code == 200, sent.text
    version: int = sent.json()["version"]
    return version
