"""Sending webhook deliveries over HTTP, never into the server's own network unless allowed.

A webhook's URL is chosen by whoever holds a seat: without a check, kaiten would POST wherever it is
told, from inside its own network (a probe of internal services). So the host must resolve to public
addresses only, checked when the webhook is registered and again before every attempt (a name may
resolve elsewhere later); `allow_private` (KAITEN_WEBHOOK_ALLOW_PRIVATE=1) lifts it for tests and
local development.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import time
from urllib.parse import urlsplit

import httpx

from services.ports import SendResult

TIMEOUT_SECONDS = 5.0
#: The most of a receiver's answer that is read; the start of it is kept with the attempt.
MAX_ANSWER_BYTES = 16 * 1024
KEPT_ANSWER_CHARS = 500


def is_private(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast or ip.is_reserved


class HttpWebhookSender:
    def __init__(self, *, allow_private: bool = False, timeout: float = TIMEOUT_SECONDS) -> None:
        self._allow_private = allow_private
        self._client = httpx.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False)

    async def refusal(self, url: str) -> str | None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return "a webhook's URL is http:// or https:// with a host"
        if self._allow_private:
            return None
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
            lookup = asyncio.get_running_loop().getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
            found = await asyncio.wait_for(lookup, TIMEOUT_SECONDS)
        except (OSError, ValueError, TimeoutError):
            return f"the host {parts.hostname} does not resolve"
        addresses = {str(info[4][0]) for info in found}
        if not addresses or any(is_private(address) for address in addresses):
            return f"the host {parts.hostname} resolves to a loopback, link-local or private address"
        return None

    async def send(self, url: str, body: bytes, headers: dict[str, str]) -> SendResult:
        started = time.perf_counter()
        refused = await self.refusal(url)
        if refused is not None:
            return SendResult(status_code=None, latency_ms=0, error=f"not sent: {refused}", answer=None)
        try:
            async with self._client.stream("POST", url, content=body, headers=headers) as response:
                answer = bytearray()
                async for chunk in response.aiter_bytes():
                    answer += chunk
                    if len(answer) >= MAX_ANSWER_BYTES:
                        break
        except httpx.HTTPError as error:
            return SendResult(status_code=None, latency_ms=_since(started), error=_describe(error), answer=None)
        text = bytes(answer[:MAX_ANSWER_BYTES]).decode("utf-8", "replace")[:KEPT_ANSWER_CHARS]
        return SendResult(status_code=response.status_code, latency_ms=_since(started), error=None, answer=text)

    async def close(self) -> None:
        await self._client.aclose()


def _since(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)


def _describe(error: httpx.HTTPError) -> str:
    kind = "timed out" if isinstance(error, httpx.TimeoutException) else "no answer"
    return f"{kind}: {type(error).__name__} {error}"[:300]
