"""Conditional reads (RFC 9110), and the versions callers name in headers.

An answer that shows a game at a version carries `ETag: "<version>-<digest>"`: the version, and a
digest of the very bytes answered. The digest makes the tag differ wherever the answers differ, so
one seat's view never revalidates another's in a cache (nor a view from before a change that moved
no version, like a rematch offered or a name erased). `If-None-Match` holding the tag answers 304.

Versions named in headers (`If-Match`, `If-None-Match`, `Last-Event-ID`) are read here and only
here: plain digits (weak tags and quotes allowed where a tag is), never more than a stream holds, so
that no header reaches Python's int limits or the database's.
"""

from __future__ import annotations

import hashlib
import re
from typing import Annotated, Any, TypeVar

import msgspec
from litestar import Response
from litestar.enums import MediaType
from litestar.params import HeaderParameter, QueryParameter

from kaiten.services.errors import ServiceError
from kaiten.services.ports import MAX_VERSION

T = TypeVar("T")

IfNoneMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-None-Match",
        required=False,
        description="The `ETag` of an earlier answer (several, separated by commas)",
    ),
]

MinVersion = Annotated[
    int | None,
    QueryParameter(
        ge=1,
        le=MAX_VERSION,
        description=(
            "The newest version of this game the caller has seen (e.g. the `version` its last command "
            "answered): the answer is at least that new once the game has reached it. A read that names a "
            "version it has seen (here, in If-None-Match, or an events page's `after`) may be answered by a "
            "read replica that has replayed it; one that names none is answered by the primary."
        ),
    ),
]

#: A version: at most ten digits (MAX_VERSION has ten).
_VERSION = re.compile(r"[0-9]{1,10}", re.ASCII)
#: An entity tag kaiten wrote (`"42-<digest>"`), or one naming a bare version (`"42"`, `W/"42"`, `42`).
_TAG = re.compile(r'(?:W/)?"?([0-9]{1,10})(?:-[0-9a-f]{16})?"?', re.ASCII)


def version_number(text: str) -> int | None:
    """The version that `text` names (plain digits), or None."""
    found = _VERSION.fullmatch(text.strip())
    return _bounded(found[0]) if found else None


def tag_version(tag: str) -> int | None:
    """The version an entity tag names, or None (`*`, or a tag that names none)."""
    found = _TAG.fullmatch(tag.strip())
    return _bounded(found[1]) if found else None


def _bounded(digits: str) -> int | None:
    number = int(digits)
    return number if number <= MAX_VERSION else None


def seen_version(if_none_match: str | None, min_version: int | None = None) -> int | None:
    """The newest version the caller says it has seen: `min_version`, or the highest version among the
    entity tags it holds (`*` and tags that name no version say nothing); None when it says nothing."""
    versions = [] if min_version is None else [min_version]
    for candidate in (if_none_match or "").split(","):
        version = tag_version(candidate)
        if version is not None:
            versions.append(version)
    return max(versions, default=None)


def parse_if_match(value: str | None) -> int | None:
    """`If-Match: "42"` (or an answer's whole ETag, whose version is what is compared); weak tags and
    bare numbers are accepted too."""
    if value is None:
        return None
    version = tag_version(value)
    if version is None:
        raise ServiceError("invalid", "invalid-if-match", 'If-Match must name a version, like "42"')
    return version


def entity_tag(version: int, body: bytes) -> str:
    return f'"{version}-{hashlib.sha256(body).hexdigest()[:16]}"'


def matches(if_none_match: str | None, tag: str) -> bool:
    if if_none_match is None:
        return False
    given = [candidate.strip().removeprefix("W/") for candidate in if_none_match.split(",")]
    return "*" in given or tag in given


def conditional(answer: T, version: int, if_none_match: str | None) -> Response[T | None]:
    """The answer with its entity tag, or 304 without a body when the caller has it already."""
    body = msgspec.json.encode(answer)
    tag = entity_tag(version, body)
    if matches(if_none_match, tag):
        return Response(None, status_code=304, headers={"ETag": tag})
    # Encoded once: the bytes the tag was made from are the bytes answered.
    response: Response[Any] = Response(body, headers={"ETag": tag}, media_type=MediaType.JSON)
    return response
