"""Sending webhook deliveries over HTTP, never into the server's own network unless allowed.

A webhook's URL is chosen by whoever holds a seat: without a check, kaiten would POST wherever it is
told, from inside its own network (a probe of internal services). So the host must resolve to public
addresses only: checked when the webhook is registered (to refuse it at once), and on every new
connection by the connection itself, which resolves the host, checks every address, and connects to
the address it checked. A name that resolves to a public address for the check and to a private one
a moment later (DNS rebinding) therefore gets nowhere. `allow_private`
(KAITEN_WEBHOOK_ALLOW_PRIVATE=1) lifts the check for tests and local development.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import ssl
import time
from collections.abc import Awaitable, Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import httpcore

from kaiten.services.ports import SendResult

if TYPE_CHECKING:
    import httpx

TIMEOUT_SECONDS = 5.0
#: The most of a receiver's answer that is read; the start of it is kept with the attempt.
MAX_ANSWER_BYTES = 16 * 1024
KEPT_ANSWER_CHARS = 500
#: How an attempt's error begins when no request left (the destination was refused).
NOT_SENT = "not sent: "


#: IPv6 prefixes that carry an IPv4 address in their last 32 bits (NAT64): where they lead is where
#: that address does.
NAT64 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))


def is_public(address: str) -> bool:
    """Whether the address is one of the public internet's (`is_global`, unicast), and so is every
    IPv4 address it carries (IPv4-mapped, 6to4, Teredo, NAT64): shared address space (100.64.0.0/10,
    where cloud metadata services live), private, loopback, link-local and reserved ones are not."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        carried = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
        if any(ip in network for network in NAT64):
            carried.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        if ip.ipv4_mapped is not None:
            return is_public(str(ip.ipv4_mapped))
        if not all(is_public(str(inner)) for inner in carried if inner is not None):
            return False
    return ip.is_global and not ip.is_multicast


#: A host and port to the addresses they resolve to, in the resolver's order.
Resolver = Callable[[str, int], Awaitable[list[str]]]


async def resolve(host: str, port: int) -> list[str]:
    """The system resolver's addresses of the host; none when it does not resolve."""
    try:
        lookup = asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        found = await asyncio.wait_for(lookup, TIMEOUT_SECONDS)
    except (OSError, ValueError, TimeoutError, UnicodeError):
        return []
    return list(dict.fromkeys(str(info[4][0]) for info in found))


class Destinations:
    """Where webhooks may go: the addresses of a host, unless one of them is private (when not allowed)."""

    def __init__(self, resolver: Resolver, allow_private: bool) -> None:
        self._resolver = resolver
        self._allow_private = allow_private

    async def addresses(self, host: str, port: int) -> list[str] | str:
        """The host's addresses, or why no request goes there."""
        addresses = await self._resolver(host, port)
        if not addresses:
            return f"the host {host} does not resolve"
        if not self._allow_private and not all(is_public(address) for address in addresses):
            return f"the host {host} resolves to an address that is not the public internet's"
        return addresses


class _CheckedConnections(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, connecting only to addresses `Destinations` allows, and to the very
    address it checked (TLS still verifies the certificate for the URL's host name)."""

    def __init__(self, destinations: Destinations) -> None:
        self._destinations = destinations
        self._network = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await self._destinations.addresses(host, port)
        if isinstance(addresses, str):
            raise httpcore.ConnectError(f"{NOT_SENT}{addresses}")
        return await self._network.connect_tcp(addresses[0], port, timeout, local_address, socket_options)

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("webhooks go over TCP only")

    async def sleep(self, seconds: float) -> None:
        await self._network.sleep(seconds)


@cache
def _verifying_context() -> ssl.SSLContext:
    """One context for the process, checking servers against certifi's authorities as httpx does: reading
    that bundle costs 40 ms of CPU, which every set of services (each test's too) paid twice."""
    import httpx

    return httpx.create_ssl_context(trust_env=False)


def _checked_client(destinations: Destinations, timeout: float) -> httpx.AsyncClient:
    """httpx's client over a pool whose connections are checked (httpx takes no network backend of its
    own, so the pool its transport built is replaced by one that has ours)."""
    import httpx

    transport = httpx.AsyncHTTPTransport(verify=_verifying_context(), trust_env=False)
    transport._pool = httpcore.AsyncConnectionPool(
        ssl_context=_verifying_context(), network_backend=_CheckedConnections(destinations)
    )
    return httpx.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False, transport=transport)


class HttpWebhookSender:
    """Made with every set of services, and sends once a webhook is due: httpx (its import pulls in its
    command line's click, rich and pygments) and its TLS context, about 0.12 s of CPU, wait for the first
    delivery rather than weigh on every start of a server or a command."""

    def __init__(
        self, *, allow_private: bool = False, timeout: float = TIMEOUT_SECONDS, resolver: Resolver = resolve
    ) -> None:
        self._destinations = Destinations(resolver, allow_private)
        self._timeout = timeout
        self._client: httpx.AsyncClient | None = None

    async def refusal(self, url: str) -> str | None:
        try:
            parts = urlsplit(url)
            host, port = parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:  # `http://[::1/`, a port out of range...
            return "a webhook's URL is http:// or https:// with a host"
        if parts.scheme not in ("http", "https") or not host:
            return "a webhook's URL is http:// or https:// with a host"
        addresses = await self._destinations.addresses(host, port)
        return addresses if isinstance(addresses, str) else None

    async def send(self, url: str, body: bytes, headers: dict[str, str]) -> SendResult:
        import httpx

        if self._client is None:
            self._client = _checked_client(self._destinations, self._timeout)
        started = time.perf_counter()
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
        if self._client is not None:
            await self._client.aclose()


def _since(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)


def _describe(error: httpx.HTTPError) -> str:
    import httpx

    if str(error).startswith(NOT_SENT):
        return str(error)
    kind = "timed out" if isinstance(error, httpx.TimeoutException) else "no answer"
    return f"{kind}: {type(error).__name__} {error}"[:300]
