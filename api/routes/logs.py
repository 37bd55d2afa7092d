"""Export and import of a finished or abandoned game's log (API.md, "Export and import of a log")."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, get, post
from litestar.params import Body

from kaiten.api.auth import credential
from kaiten.api.contract import presenting
from kaiten.api.contract.problems import Problem
from kaiten.api.contract.views import LogDocument, TableView
from kaiten.api.errors import problem
from kaiten.api.request_body import KaitenRequest
from kaiten.api.routes.params import GameId, GamesDep
from kaiten.services.logs import MAX_LOG_BYTES, InvalidLog, export_log, import_log

LOG = Body(
    title="A finished or abandoned game's log",
    description=(
        'An export ({"format": "kaiten-log/1", "id", "game", "rules_version", "events"}), or any object whose '
        "`events` are exactly what GET /v1/games/{id}/events returned for a game that is over (pages joined)"
    ),
)


def invalid_log(request: Request[Any, Any, Any], exc: InvalidLog) -> Response[Problem]:
    """422 with the refusal's `code` and the first failing `version` (null: not a log at all)."""
    return problem(request, 422, exc.code, exc.message, version=exc.version)


class LogsController(Controller):
    path = "/v1/games"
    tags = ["logs"]
    exception_handlers = {InvalidLog: invalid_log}

    @get(
        "/{game_id:str}/export",
        operation_id="exportLog",
        summary="A finished or abandoned game's whole log (409 game-not-finished before the end)",
    )
    async def export(self, games: GamesDep, game_id: GameId, request: KaitenRequest) -> LogDocument:
        caller = credential(request)
        return presenting.log_document(await export_log(games, game_id, caller))

    @post(
        "/import",
        operation_id="importLog",
        summary="Check a finished or abandoned game's log and store it as a new game that is over",
        description=(
            "The log is checked, then decided again: from its revealed seed and salt and each choice it "
            "records, the rules must write exactly its events (`import-not-reproducible` names the first "
            "version where they would not). 201: stored now; 200: the app imported this very log before, "
            "and this is that game. An imported game counts in no statistics and no rating."
        ),
        status_code=201,
        # Larger than any other body: the longest log kaiten exports, and no more (413 beyond).
        request_max_body_size=MAX_LOG_BYTES,
    )
    async def import_(self, games: GamesDep, request: KaitenRequest, data: Annotated[Any, LOG]) -> Response[TableView]:
        caller = credential(request)
        seen, created = await import_log(games, data, caller)
        view = presenting.table_view(seen)
        return Response(view, status_code=201 if created else 200, headers={"Location": f"/v1/games/{view.id}"})
