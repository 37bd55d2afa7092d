"""The catalog: which games exist, their cards and options, and a scoring calculator."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

import msgspec
from litestar import Controller, get, post
from litestar.params import PathParameter

from kaiten.api.contract.views import views_of
from kaiten.api.request_body import KaitenRequest
from kaiten.api.schemas import (
    BotCost,
    BotInfo,
    Catalog,
    CatalogEntry,
    CatalogGame,
    RulesVersionEntry,
    TypedCatalog,
    catalog_types,
)
from kaiten.domain.catalog import BOT_NAMES, GAMES, get_game
from kaiten.domain.engine import AnyGame, RuleViolation
from kaiten.services.commands import ScoreTableaus
from kaiten.services.errors import ServiceError
from kaiten.services.scoring import ScoreResponse, score_tableaus

GameName = Annotated[str, PathParameter(description="A game id of the catalog", max_length=64)]


def _bots(game: AnyGame) -> list[BotInfo]:
    """Each bot with the first paragraph of its docstring, which says how it plays, and what it costs."""
    bots = []
    for bot, factory in game.bots.items():
        measured = game.bot_costs[bot]
        costs = [BotCost(players, measured[players]) for players in range(game.min_players, game.max_players + 1)]
        bots.append(
            BotInfo(
                id=bot,
                name=BOT_NAMES.get(bot, bot),
                description=_first_paragraph(factory.__doc__),
                cpu_ms=max(cost.cpu_ms for cost in costs),
                cpu_ms_by_players=costs,
            )
        )
    return bots


def _first_paragraph(text: str | None) -> str:
    return " ".join((text or "").strip().split("\n\n")[0].split())


def _fields(game: AnyGame) -> dict[str, Any]:
    return {
        "name": game.name,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": game.options_type(),
        "bots": _bots(game),
        "rules_version": game.rules_version,
    }


def _summary(game: AnyGame) -> CatalogGame:
    return catalog_types(game.id)[0](**_fields(game))


def _known_game(game_id: str) -> AnyGame:
    try:
        return get_game(game_id)
    except RuleViolation as exc:
        raise ServiceError("not-found", exc.code, exc.message) from None


@cache
def _entry(game_id: str) -> CatalogEntry:
    game = get_game(game_id)
    return catalog_types(game.id)[1](
        **_fields(game),
        option_schema=msgspec.json.schema(game.options_type),
        details=game.catalog(),
        rules_versions=[RulesVersionEntry(entry.version, list(entry.changes)) for entry in game.rules_versions],
    )


class CatalogController(Controller):
    path = "/v1/catalog"
    tags = ["catalog"]

    @get("/", operation_id="listCatalog", summary="The games this service plays")
    async def list_games(self) -> Catalog:
        return TypedCatalog(games=[_summary(game) for game in GAMES.values()])

    @get("/{game:str}", operation_id="getCatalogGame", summary="One game's cards, options and menus")
    async def get_game(self, game: GameName) -> CatalogEntry:
        return _entry(_known_game(game).id)

    @post(
        "/{game:str}/score",
        operation_id="scoreTableaus",
        summary="Score tableaus without playing a game",
        status_code=200,
    )
    async def score(self, game: GameName, request: KaitenRequest) -> ScoreResponse:
        scored = score_tableaus(ScoreTableaus(game=game, body=await request.checked_body()))
        # Each breakdown typed as the game's, its cards as objects (api/contract/views.py).
        shown: ScoreResponse = views_of(get_game(game).id).shown.converter(ScoreResponse)(scored)
        return shown
