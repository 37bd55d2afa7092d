"""The OpenAPI document: Litestar's paths and parameters, with every body, answer and problem typed.

Litestar generates the paths, operations and parameters from the routes. This module then states,
for each operation, the schemas of its body and answers (`operations.py`), its problems with their
codes (`problems.py`), its auth (one bearer scheme) and its conditional requests, and replaces the
components with those msgspec generates from the structs the services serve (`components.py`).
"""

from __future__ import annotations

import copy
from typing import Any, Union

from kaiten.api.contract.components import REF_PREFIX, components
from kaiten.api.contract.examples import media_examples
from kaiten.api.contract.operations import OPERATIONS, Answer, Operation
from kaiten.api.contract.problems import FieldError, Problem, problems_of

PROBLEM_JSON = "application/problem+json"
#: The credentials, each sent as `Authorization: Bearer <secret>`; each says what it is by its prefix.
SECURITY_SCHEMES = {
    "appKey": (
        "An app's key (`kaiten_app_...`, from `kaiten apps create` or the admin API): the app owns what it "
        "makes, names its players, and reads all of its own records."
    ),
    "seatToken": (
        "A seat's token (`kaiten_seat_...`; older tokens have no prefix), given when the seat is taken: it acts "
        "for that seat alone and sees what the seat sees."
    ),
    "invitationCode": (
        "An invitation code of a game (`kaiten_inv_...`): while it is not revoked, its bearer watches the game "
        "(private or not) and takes a free seat with it."
    ),
    "playerToken": (
        "A player token (`kaiten_player_...`, from `createPlayerToken`), short-lived: it follows its player's "
        "stream and acts at the seats the app took under that player_id, and nothing else."
    ),
    "adminKey": "The server's admin key (`KAITEN_ADMIN_KEY`), for the apps' administration.",
}
STATUS_TEXT = {
    200: "OK",
    201: "Created",
    204: "No content",
    304: "Not modified: the caller's copy (`If-None-Match`) is current",
    400: "The request cannot be read",
    401: "No credential, or one that does not work here",
    403: "Not allowed with this credential",
    404: "Not found",
    409: "Not now: the game is not in a state to take this",
    422: "Refused by the rules or by a check of the request",
    429: "Too many requests from this client",
    503: "Unavailable for now; retry later",
}
ETAG = {
    "description": (
        'The version the answer shows and a digest of the answer itself, as an entity tag: `"42-<16 hex>"`. '
        "Answers that differ (another seat's view) have different tags; the version before the dash is what "
        "`If-Match` compares, and `If-None-Match` with the tag answers 304."
    ),
    "schema": {"type": "string", "pattern": '^"[0-9]{1,10}-[0-9a-f]{16}"$'},
}
HEADERS_BY_STATUS: dict[int, dict[str, Any]] = {
    401: {"WWW-Authenticate": {"description": "`Bearer`", "schema": {"type": "string"}}},
    429: {"Retry-After": {"description": "Seconds until the client may send again", "schema": {"type": "integer"}}},
    503: {
        "Retry-After": {
            "description": (
                "Seconds after which the same request (a command with the same Idempotency-Key) may succeed: "
                "sent with `database-unavailable` and `database-busy`"
            ),
            "schema": {"type": "integer"},
        }
    },
}


def _tagged_by_game(types: tuple[Any, ...]) -> bool:
    return all(getattr(getattr(t, "__struct_config__", None), "tag_field", None) == "game" for t in types)


class _Schemas:
    """Collects what needs a schema, then generates every component at once."""

    def __init__(self) -> None:
        self.targets: list[Any] = []

    def want(self, types: tuple[Any, ...]) -> list[int]:
        """Indexes of the schemas to come: one for a union over the games, else one per type (none
        for no type: an answer without a body)."""
        wanted = [Union[types]] if len(types) > 1 and _tagged_by_game(types) else list(types)  # noqa: UP007
        start = len(self.targets)
        self.targets.extend(wanted)
        return list(range(start, len(self.targets)))

    def generate(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return components([*self.targets, Problem, FieldError])


def _one_schema(schemas: list[dict[str, Any]], indexes: list[int]) -> dict[str, Any]:
    if len(indexes) == 1:
        return copy.deepcopy(schemas[indexes[0]])
    return {"anyOf": [copy.deepcopy(schemas[index]) for index in indexes]}


def _server_sent_event(data: dict[str, Any]) -> dict[str, Any]:
    """One event of a `text/event-stream`: its fields, `data` holding JSON of the given schema."""
    return {
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": "^[0-9]+$"},
            "event": {"type": "string"},
            "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": data},
        },
        "required": ["id", "data"],
    }


def _problem_response(status: int, codes: tuple[str, ...]) -> dict[str, Any]:
    listed = ", ".join(f"`{code}`" for code in codes)
    response: dict[str, Any] = {
        "description": f"{STATUS_TEXT.get(status, 'Problem')}. `code` is one of: {listed}",
        "content": {PROBLEM_JSON: {"schema": {"$ref": REF_PREFIX + "Problem"}}},
        "x-problem-codes": list(codes),
    }
    if status in HEADERS_BY_STATUS:
        response["headers"] = HEADERS_BY_STATUS[status]
    return response


def _answer(answer: Answer, schema: dict[str, Any] | None, conditional: bool) -> dict[str, Any]:
    response: dict[str, Any] = {"description": answer.description}
    if schema is not None:
        response["content"] = {answer.media_type: {"schema": schema}}
    if conditional and answer.status == 200:
        response["headers"] = {"ETag": ETAG}
    return response


def _parameters(operation: dict[str, Any]) -> list[dict[str, Any]]:
    kept = []
    for parameter in operation.get("parameters", []):
        if parameter["in"] == "header" and parameter["name"] == "Authorization":
            continue  # declared once, as the bearer security scheme
        if parameter["in"] == "path" and parameter["name"] == "game_id":
            parameter = {**parameter, "schema": {**parameter["schema"], "format": "uuid"}}
        kept.append(parameter)
    return kept


def typed_document(generated: dict[str, Any]) -> dict[str, Any]:
    """The document Litestar generated, with the contract's schemas, problems and auth."""
    document = copy.deepcopy(generated)
    wanted = _Schemas()
    plans: list[tuple[dict[str, Any], Operation, list[int] | None, list[list[int]]]] = []
    for path_item in document["paths"].values():
        for operation in path_item.values():
            if not isinstance(operation, dict) or "operationId" not in operation:
                continue
            spec = OPERATIONS[operation["operationId"]]
            body = wanted.want(spec.body) if spec.body else None
            answers = [wanted.want(answer.types or answer.events_of) for answer in spec.answers]
            plans.append((operation, spec, body, answers))
    schemas, generated_components = wanted.generate()

    for operation, spec, body, answers in plans:
        if body is not None:
            media = {"schema": _one_schema(schemas, body), "examples": media_examples(operation["operationId"])}
            operation["requestBody"] = {"required": spec.body_required, "content": {"application/json": media}}
        responses: dict[str, Any] = {}
        for answer, indexes in zip(spec.answers, answers, strict=True):
            schema = _one_schema(schemas, indexes) if indexes else None
            if answer.events_of and schema is not None:
                schema = _server_sent_event(schema)
            responses[str(answer.status)] = _answer(answer, schema, spec.conditional)
        if spec.conditional:
            responses["304"] = {"description": STATUS_TEXT[304], "headers": {"ETag": ETAG}}
        for status, codes in problems_of(operation["operationId"]).items():
            responses[str(status)] = _problem_response(status, codes)
        operation["responses"] = responses
        operation["parameters"] = _parameters(operation)
        _secure(operation, spec)

    document["components"] = {
        "schemas": dict(sorted(generated_components.items())),
        "securitySchemes": {
            name: {"type": "http", "scheme": "bearer", "description": description}
            for name, description in SECURITY_SCHEMES.items()
        },
    }
    return document


def _secure(operation: dict[str, Any], spec: Operation) -> None:
    """The credentials the operation takes (`security`, an empty requirement for none at all), and who
    may call it, in words, at the end of its description."""
    if not spec.credentials:
        return
    operation["security"] = [{name: []} for name in spec.credentials] + ([{}] if spec.anonymous else [])
    who = f"**Credentials.** {spec.who}"
    operation["description"] = f"{operation['description']}\n\n{who}" if operation.get("description") else who
