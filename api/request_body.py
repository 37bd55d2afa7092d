"""Request bodies: JSON that is UTF-8 and nested no deeper than any body of the API needs.

A body nested a thousand levels deep makes a JSON decoder (and every encoder after it) recurse past
Python's limit, and a body that is not UTF-8 is not JSON (RFC 8259): both are the client's mistake,
so both are refused with a 400 before any decoding, rather than failing somewhere inside.
"""

from __future__ import annotations

import re
from typing import Any

from litestar import Request
from litestar.exceptions import ClientException

#: The deepest body the API takes (an imported log: events, data, result, scores, breakdown) is
#: far shallower; this leaves room for any request while staying far from the recursion limit.
MAX_JSON_DEPTH = 64

#: Brackets, and strings as whole tokens, so that brackets inside strings are not counted.
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def nests_too_deep(body: bytes) -> bool:
    """Whether the arrays and objects of a JSON text nest deeper than MAX_JSON_DEPTH."""
    # Fast path: a body with no more brackets than the limit cannot nest deeper than it.
    if body.count(b"[") + body.count(b"{") <= MAX_JSON_DEPTH:
        return False
    depth = 0
    for token in _TOKENS.finditer(body):
        bracket = token.group()
        if bracket in (b"[", b"{"):
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        elif bracket in (b"]", b"}"):
            depth -= 1
    return False


def checked_json(body: bytes) -> bytes:
    """The body, if it is UTF-8 and nests no deeper than MAX_JSON_DEPTH; else a 400."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ClientException(f"the body is not UTF-8 (byte {error.start} cannot start a character)") from None
    if nests_too_deep(body):
        raise ClientException(f"the body nests arrays and objects deeper than {MAX_JSON_DEPTH} levels")
    return body


class KaitenRequest(Request[Any, Any, Any]):
    async def json(self) -> Any:
        checked_json(await self.body())
        return await super().json()

    async def checked_body(self) -> bytes:
        """The raw body, checked as `json` checks it, for a handler that decodes it itself."""
        return checked_json(await self.body())
