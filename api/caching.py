"""What caches may do with the API's answers: keep them for the caller alone, and per credential.

Almost every answer under /v1 depends on who asks: a seat sees its own hand, an app its own games, a
private game answers only those who hold its credential. So every such answer says
`Cache-Control: private` (unless its route said otherwise, as a stream does) and
`Vary: Authorization, Origin`. The request log's middleware (api/request_log.py), which wraps the
whole application, CORS included, sets them: Litestar's CORS sets `Vary: Origin` in place of what the
route said, and a cache that then keys on the origin alone hands one token's answer to another
(api/conditional.py makes the entity tags differ per viewer too).
"""

from __future__ import annotations

from collections.abc import Iterable

#: What a caller-dependent answer varies with: the credential, and the page's origin (CORS).
VARY = ("Authorization", "Origin")
_VARIED = frozenset(name.lower() for name in VARY)
_PRIVATE = (b"cache-control", b"private")


def is_private(path: str) -> bool:
    return path.startswith("/v1/")


def private_headers(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """An answer's headers with `Vary` naming the credential and the origin first (in place of the
    first `Vary` the answer had, its other names kept after them), and `Cache-Control: private`
    unless the answer said how it may be cached."""
    kept: list[tuple[bytes, bytes]] = []
    named: list[str] = []
    vary_at = -1
    said_how = False
    for key, value in headers:
        lowered = key.lower()
        if lowered == b"vary":
            named += value.decode("latin-1").split(",")
            if vary_at >= 0:
                continue
            vary_at = len(kept)
        said_how = said_how or lowered == b"cache-control"
        kept.append((key, value))
    others = (name for name in (name.strip() for name in named) if name and name.lower() not in _VARIED)
    vary = (b"vary", ", ".join([*VARY, *others]).encode("latin-1"))
    if vary_at < 0:
        kept.append(vary)
    else:
        kept[vary_at] = vary
    if not said_how:
        kept.append(_PRIVATE)
    return kept
