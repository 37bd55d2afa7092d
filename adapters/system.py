"""The real clock and the real sources of ids, seeds and seat tokens."""

from __future__ import annotations

import os
import secrets
from datetime import UTC, datetime


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


def random_uuid_hex() -> str:
    """A random (version 4) UUID's 32 hex digits, as `uuid.uuid4().hex` writes them, in a third of its
    time: every command makes one (its id), and every request (its id) when the client sent none."""
    raw = bytearray(os.urandom(16))
    raw[6] = raw[6] & 0x0F | 0x40  # version 4
    raw[8] = raw[8] & 0x3F | 0x80  # RFC 4122's variant
    return raw.hex()


def random_uuid() -> str:
    """A random (version 4) UUID as `str(uuid.uuid4())` writes it."""
    digits = random_uuid_hex()
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


class SecureIds:
    def game_id(self) -> str:
        return random_uuid()

    def command_id(self) -> str:
        return random_uuid()

    def seed(self) -> int:
        return secrets.randbits(63)

    def token(self, kind: str = "seat") -> str:
        # 256 random bits behind a prefix that says what the secret is; only its SHA-256 is stored.
        return f"kaiten_{kind}_{secrets.token_urlsafe(32)}"

    def key_id(self) -> str:
        return secrets.token_hex(8)

    def person_id(self) -> str:
        return random_uuid()

    def salt(self) -> bytes:
        return secrets.token_bytes(16)
