"""Which seat a request acted or read for, kept for the serving process's request log.

The seat is known only once a use case has matched the bearer token to a seat; the request log,
written after the response, reads it from here. Never the token itself.
"""

from __future__ import annotations

from contextvars import ContextVar

caller_seat: ContextVar[int | None] = ContextVar("caller_seat", default=None)
