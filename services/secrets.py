"""Secrets kaiten hands out (seat tokens, invitation codes, stream tickets, app keys) are kept only
as their SHA-256: they are 256 random bits, so a plain hash is enough to make a stolen table useless."""

from __future__ import annotations

import hashlib


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()
