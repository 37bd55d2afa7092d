"""Requests per client, with Litestar's own rate-limit middleware (a kept library, not our counter).

A client is its seat token when it sends one (so players behind one address are counted apart),
else its address. The counts live in the serving process's memory: with N processes behind a load
balancer a client may make up to N times the limit, which the README says.
"""

from __future__ import annotations

import hashlib
from typing import Any

from litestar import Request
from litestar.middleware.rate_limit import RateLimitConfig, get_remote_address

from api.settings import RateLimit

#: Probes and metrics are asked for by the platform, not by clients.
UNLIMITED_PATHS = ["^/health$", "^/ready$", "^/metrics", "^/schema"]


def client_of(request: Request[Any, Any, Any]) -> str:
    authorization = request.headers.get("authorization")
    if authorization:
        # Keyed by a hash: a token is never kept, not even in the limiter's memory.
        return "token:" + hashlib.sha256(authorization.encode("utf-8", "replace")).hexdigest()
    return "address:" + get_remote_address(request)


def rate_limit_config(limit: RateLimit) -> RateLimitConfig:
    return RateLimitConfig(
        rate_limit=(limit.per, limit.requests),
        identifier_for_request=client_of,
        exclude=UNLIMITED_PATHS,
    )
