"""Conditional reads (RFC 9110): an answer carries `ETag: "<version>"`; `If-None-Match` naming it gets 304.

A game's answers change only when its log grows, so its version is a sound entity tag. What a caller
sees also depends on its seat token, hence `Vary: Authorization`.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from litestar import Response
from litestar.params import HeaderParameter, QueryParameter

T = TypeVar("T")

IfNoneMatch = Annotated[
    str | None,
    HeaderParameter(name="If-None-Match", required=False, description='`"<version>"` of an earlier answer'),
]

MinVersion = Annotated[
    int | None,
    QueryParameter(
        ge=1,
        description=(
            "The newest version of this game the caller has seen (e.g. the `version` its last command "
            "answered): the answer is at least that new once the game has reached it. A read that names a "
            "version it has seen (here, in If-None-Match, or an events page's `after`) may be answered by a "
            "read replica that has replayed it; one that names none is answered by the primary."
        ),
    ),
]


def seen_version(if_none_match: str | None, min_version: int | None = None) -> int | None:
    """The newest version the caller says it has seen: `min_version`, or the highest version among the
    entity tags it holds (`*` and tags that name no version say nothing); None when it says nothing."""
    versions = [] if min_version is None else [min_version]
    for candidate in (if_none_match or "").split(","):
        tag = candidate.strip().removeprefix("W/").strip('"')
        if tag.isdigit():
            versions.append(int(tag))
    return max(versions, default=None)


def entity_tag(version: int) -> str:
    return f'"{version}"'


def matches(if_none_match: str | None, tag: str) -> bool:
    if if_none_match is None:
        return False
    given = [candidate.strip().removeprefix("W/") for candidate in if_none_match.split(",")]
    return "*" in given or tag in given


def conditional(answer: T, version: int, if_none_match: str | None) -> Response[T | None]:
    """The answer with its entity tag, or 304 without a body when the caller has it already."""
    tag = entity_tag(version)
    headers = {"ETag": tag, "Vary": "Authorization"}
    if matches(if_none_match, tag):
        return Response(None, status_code=304, headers=headers)
    response: Response[Any] = Response(answer, headers=headers)
    return response
