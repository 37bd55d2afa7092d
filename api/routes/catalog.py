"""The catalog: which games exist, their cards and options, and a scoring calculator."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

import msgspec
from litestar import Controller, get, post
from litestar.params import FromPath

from api.examples import SCORE
from api.schemas import Catalog, CatalogBot, CatalogEntry, CatalogGame, ScoredPlayer, ScoreResponse
from domain.catalog import BOT_DESCRIPTIONS, GAMES, get_game
from domain.engine import Game, RuleViolation
from services.codec import codec_for
from services.errors import ServiceError


def _summary(game: Game) -> CatalogGame:
    return CatalogGame(
        id=game.id,
        name=game.name,
        min_players=game.min_players,
        max_players=game.max_players,
        options=msgspec.to_builtins(game.options_type()),
        bots=[
            CatalogBot(id=bot, name=BOT_DESCRIPTIONS[bot][0], description=BOT_DESCRIPTIONS[bot][1]) for bot in game.bots
        ],
    )


def _known_game(game_id: str) -> Game:
    try:
        return get_game(game_id)
    except RuleViolation as exc:
        raise ServiceError("not-found", exc.code, exc.message) from None


@cache
def _entry(game_id: str) -> CatalogEntry:
    game = get_game(game_id)
    summary = _summary(game)
    return CatalogEntry(
        **msgspec.structs.asdict(summary),
        option_schema=msgspec.json.schema(game.options_type),
        details=game.catalog(),
    )


class CatalogController(Controller):
    path = "/v1/catalog"
    tags = ["catalog"]

    @get("/", operation_id="listCatalog", summary="The games this service plays")
    async def list_games(self) -> Catalog:
        return Catalog(games=[_summary(game) for game in GAMES.values()])

    @get("/{game_id:str}", operation_id="getCatalogGame", summary="One game's cards, options and menus")
    async def get_game(self, game_id: FromPath[str]) -> CatalogEntry:
        return _entry(_known_game(game_id).id)

    @post(
        "/{game_id:str}/score",
        operation_id="scoreTableaus",
        summary="Score tableaus without playing a game",
        status_code=200,
    )
    async def score(self, game_id: FromPath[str], data: Annotated[dict[str, Any], SCORE]) -> ScoreResponse:
        game = _known_game(game_id)
        request = codec_for(game.id).decode_score_request(msgspec.json.encode(data))
        scores = game.score(request)
        return ScoreResponse(players=[ScoredPlayer(total=s.total, breakdown=s.breakdown) for s in scores])
