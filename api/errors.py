"""Every failure leaves as RFC 9457 problem details with a stable `code`."""

from __future__ import annotations

import logging
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, NotFoundException, ValidationException
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR
from litestar.types import ExceptionHandlersMap
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from domain.engine import RuleViolation
from services.errors import ServiceError

log = logging.getLogger("kaiten.api")

PROBLEM_JSON = "application/problem+json"

#: Rule violations that mean "not now" rather than "never": the client may retry after a change.
CONFLICT_CODES = frozenset({"not-your-turn", "game-finished", "game-not-started", "game-full"})

STATUS_BY_KIND = {
    "not-found": 404,
    "unauthorized": 401,
    "forbidden": 403,
    "conflict": 409,
    "invalid": 422,
    "unavailable": 503,
}

TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Request too large",
    422: "Unprocessable request",
    500: "Internal server error",
    503: "Service unavailable",
}


def problem(request: Request[Any, Any, Any], status: int, code: str, detail: str) -> Response[dict[str, Any]]:
    body = {
        "type": f"urn:kaiten:problem:{code}",
        "title": TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
        "code": code,
        "instance": request.url.path,
    }
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return Response(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def rule_violation(request: Request[Any, Any, Any], exc: RuleViolation) -> Response[dict[str, Any]]:
    status = 409 if exc.code in CONFLICT_CODES else 422
    return problem(request, status, exc.code, exc.message)


def service_error(request: Request[Any, Any, Any], exc: ServiceError) -> Response[dict[str, Any]]:
    return problem(request, STATUS_BY_KIND[exc.kind], exc.code, exc.message)


def validation_error(request: Request[Any, Any, Any], exc: ValidationException) -> Response[dict[str, Any]]:
    detail = exc.detail
    if isinstance(exc.extra, list) and exc.extra:
        detail = f"{detail}: {exc.extra}"
    return problem(request, 400, "malformed-request", detail)


def not_found(request: Request[Any, Any, Any], exc: NotFoundException) -> Response[dict[str, Any]]:
    return problem(request, 404, "not-found", exc.detail)


def http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[dict[str, Any]]:
    """Litestar's own refusals (a body that is no JSON, a wrong method...), in our shape."""
    if exc.status_code == 400:
        return problem(request, 400, "malformed-request", exc.detail)
    code = "-".join(TITLES.get(exc.status_code, "error").lower().split())
    return problem(request, exc.status_code, code, exc.detail)


def database_unavailable(request: Request[Any, Any, Any], exc: DBAPIError) -> Response[dict[str, Any]]:
    if not exc.connection_invalidated and not isinstance(exc, OperationalError | InterfaceError):
        return internal_error(request, exc)
    log.warning("database unavailable on %s %s: %s", request.method, request.url.path, exc.orig)
    return problem(request, 503, "database-unavailable", "the database cannot be reached right now; try again")


def internal_error(request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, Any]]:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem(request, HTTP_500_INTERNAL_SERVER_ERROR, "internal-error", "something went wrong on our side")


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    RuleViolation: rule_violation,
    ServiceError: service_error,
    ValidationException: validation_error,
    NotFoundException: not_found,
    HTTPException: http_error,
    DBAPIError: database_unavailable,
    Exception: internal_error,
}
