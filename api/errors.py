"""Every failure leaves as RFC 9457 problem details with a stable `code`."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, NotFoundException, ValidationException
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR
from litestar.types import ExceptionHandlersMap
from msgspec import UNSET, UnsetType
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from kaiten.api.contract.problems import FieldError, Problem
from kaiten.domain.engine import RuleViolation
from kaiten.services.errors import AppKeyRequired, ServiceError

log = logging.getLogger("kaiten.api")

PROBLEM_JSON = "application/problem+json"
#: The longest text a problem repeats from a request (a detail, a path, a field's message).
MAX_ECHO = 300
MAX_FIELD_NAME = 100
MAX_FIELD_ERRORS = 20


STATUS_BY_KIND = {
    "malformed": 400,
    "not-found": 404,
    "unauthorized": 401,
    "forbidden": 403,
    "conflict": 409,
    "invalid": 422,
    "too-many": 429,
    "unavailable": 503,
}

APP_KEY_REQUIRED = "this needs an app key (`Bearer kaiten_app_...`)"

TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Request too large",
    422: "Unprocessable request",
    429: "Too many requests",
    500: "Internal server error",
    503: "Service unavailable",
}


def problem(
    request: Request[Any, Any, Any],
    status: int,
    code: str,
    detail: str,
    headers: Mapping[str, str] | None = None,
    errors: list[FieldError] | None = None,
    version: int | UnsetType | None = UNSET,
) -> Response[Problem]:
    body = Problem(
        type=f"urn:kaiten:problem:{code}",
        title=TITLES.get(status, "Error"),
        status=status,
        detail=bounded(detail),
        code=code,
        instance=bounded(request.url.path),
        errors=UNSET if errors is None else errors,
        version=version,
    )
    headers = {**(headers or {}), **({"WWW-Authenticate": "Bearer"} if status == 401 else {})}
    return Response(body, status_code=status, media_type=PROBLEM_JSON, headers=headers or None)


def bounded(text: str, limit: int = MAX_ECHO) -> str:
    """Text that may carry the client's input, cut short: a problem never echoes unbounded input."""
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def rule_violation(request: Request[Any, Any, Any], exc: RuleViolation) -> Response[Problem]:
    status = 409 if exc.kind == "conflict" else 422
    return problem(request, status, exc.code, exc.message)


def service_error(request: Request[Any, Any, Any], exc: ServiceError) -> Response[Problem]:
    # Over a quota or a rate limit: the earliest moment a request is taken again.
    retry_after = getattr(exc, "retry_after", None)
    headers = None if retry_after is None else {"Retry-After": str(retry_after)}
    # The services say what is missing; how to send it over HTTP is said here.
    detail = APP_KEY_REQUIRED if isinstance(exc, AppKeyRequired) else exc.message
    return problem(request, STATUS_BY_KIND[exc.kind], exc.code, detail, headers)


def validation_error(request: Request[Any, Any, Any], exc: ValidationException) -> Response[Problem]:
    """Each invalid field with a plain message; Litestar's own detail names the whole URL, so it is
    not used (a query string can be as long as the client likes)."""
    found = exc.extra if isinstance(exc.extra, list) else []
    errors = [field_error(item) for item in found[:MAX_FIELD_ERRORS] if isinstance(item, dict)]
    if not errors:
        return problem(request, 400, "malformed-request", "the request is not valid")
    summary = "; ".join(f"{error.field}: {error.message}" for error in errors[:3])
    return problem(request, 400, "malformed-request", f"the request is not valid: {summary}", errors=errors)


def field_error(item: dict[str, Any]) -> FieldError:
    """One of Litestar's validation errors as {field, message}, in plain words.

    Body errors come from msgspec, which names the field by its path at the end of the message
    ("Expected `int`, got `str` - at `$.seats[0].name`"); parameters are named by their key.
    """
    message = str(item.get("message", "is not valid"))
    field = str(item.get("key", ""))
    message, at, path = message.partition(" - at `$")
    if at:
        field = path.rstrip("`").lstrip(".") or field
    if field == "data":
        field = "body"
    return FieldError(field=bounded(field, MAX_FIELD_NAME), message=bounded(message.replace("`", "")))


def not_found(request: Request[Any, Any, Any], exc: NotFoundException) -> Response[Problem]:
    return problem(request, 404, "not-found", exc.detail)


def http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Problem]:
    """Litestar's own refusals (a body that is no JSON, a wrong method...), in our shape, with their
    headers (the `Allow` of a 405)."""
    headers = dict(exc.headers or {})
    if exc.status_code == 400:
        return problem(request, 400, "malformed-request", exc.detail, headers)
    code = "-".join(TITLES.get(exc.status_code, "error").lower().split())
    return problem(request, exc.status_code, code, exc.detail, headers)


#: When a request that found no writable database may try again: a failover takes seconds.
UNAVAILABLE_RETRY_AFTER_SECONDS = 2
#: PostgreSQL's "read-only SQL transaction": a statement that writes reached a server that is not
#: (or no longer) the primary, a standby or a demoted primary in the middle of a failover.
READ_ONLY_SQL_TRANSACTION = "25006"


def database_unavailable(request: Request[Any, Any, Any], exc: DBAPIError) -> Response[Problem]:
    """The database is out of reach, restarting, or has no primary (a failover in progress): the
    request did not happen, or (a commit cut off) happened once and answers the same when sent again
    with its idempotency key."""
    read_only = getattr(exc.orig, "sqlstate", None) == READ_ONLY_SQL_TRANSACTION
    if not exc.connection_invalidated and not read_only and not isinstance(exc, OperationalError | InterfaceError):
        return internal_error(request, exc)
    log.warning("database unavailable on %s %s: %s", request.method, request.url.path, exc.orig)
    return problem(
        request,
        503,
        "database-unavailable",
        "the database cannot be reached right now; try again",
        {"Retry-After": str(UNAVAILABLE_RETRY_AFTER_SECONDS)},
    )


#: When a request that found every database connection of its process in use may try again.
BUSY_RETRY_AFTER_SECONDS = 1


def database_busy(request: Request[Any, Any, Any], exc: PoolTimeout) -> Response[Problem]:
    """Every connection of the process's budget (KAITEN_DB_CONNECTIONS) stayed in use for as long as
    a request waits for one. It may be sent again: a command with the same idempotency key, which
    answers the first answer if the command was appended before a later step found no connection."""
    log.warning("no database connection free in time on %s %s: %s", request.method, request.url.path, exc)
    return problem(
        request,
        503,
        "database-busy",
        "every database connection of this server is in use; try again",
        {"Retry-After": str(BUSY_RETRY_AFTER_SECONDS)},
    )


def internal_error(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem(request, HTTP_500_INTERNAL_SERVER_ERROR, "internal-error", "something went wrong on our side")


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    RuleViolation: rule_violation,
    ServiceError: service_error,
    ValidationException: validation_error,
    NotFoundException: not_found,
    HTTPException: http_error,
    DBAPIError: database_unavailable,
    PoolTimeout: database_busy,
    Exception: internal_error,
}
