"""The real clock and the real sources of ids, seeds and seat tokens."""

from __future__ import annotations

import secrets
import uuid
from datetime import UTC, datetime


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class SecureIds:
    def game_id(self) -> str:
        return str(uuid.uuid4())

    def command_id(self) -> str:
        return str(uuid.uuid4())

    def seed(self) -> int:
        return secrets.randbits(63)

    def token(self, kind: str = "seat") -> str:
        # 256 random bits behind a prefix that says what the secret is; only its SHA-256 is stored.
        return f"kaiten_{kind}_{secrets.token_urlsafe(32)}"

    def key_id(self) -> str:
        return secrets.token_hex(8)

    def person_id(self) -> str:
        return str(uuid.uuid4())

    def salt(self) -> bytes:
        return secrets.token_bytes(16)
