"""Failures of a use case that are not rule violations, each with a stable code and a kind."""

from __future__ import annotations

from typing import Literal

Kind = Literal["malformed", "not-found", "unauthorized", "forbidden", "conflict", "invalid", "too-many", "unavailable"]


class ServiceError(Exception):
    def __init__(self, kind: Kind, code: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.code = code
        self.message = message
