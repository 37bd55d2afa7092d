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


class AppKeyRequired(ServiceError):
    """A write that makes something new (a game, an import, an erasure) needs the owning app's key; how a
    client sends one is the API's to say."""

    def __init__(self) -> None:
        super().__init__("unauthorized", "app-key-required", "this needs an app key")
