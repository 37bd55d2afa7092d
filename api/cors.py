"""Browsers on other origins (API.md, "Browsers"): Litestar's CORS, with the headers the API reads
and the ones it answers with that a page needs to see."""

from __future__ import annotations

from collections.abc import Sequence

from litestar.config.cors import CORSConfig

#: What a front end sends: its seat token, JSON, the version it read, and its retry key.
REQUEST_HEADERS = ["Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key", "Last-Event-ID"]
#: What a front end reads: the version of an answer, and where a new game is.
RESPONSE_HEADERS = ["ETag", "Location", "Retry-After", "X-Request-ID"]


def cors_config(origins: Sequence[str]) -> CORSConfig:
    return CORSConfig(
        allow_origins=list(origins),
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=REQUEST_HEADERS,
        expose_headers=RESPONSE_HEADERS,
        max_age=600,
    )
