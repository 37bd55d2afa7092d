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

    def token(self) -> str:
        # 256 random bits; only its SHA-256 is ever stored.
        return secrets.token_urlsafe(32)

    def salt(self) -> bytes:
        return secrets.token_bytes(16)
