"""The scoring calculator: tableaus scored by a game's rules without playing (API.md, "Games in the
catalog"), answered with each player's breakdown typed as the game's."""

from __future__ import annotations

import msgspec

from domain.catalog import get_game
from domain.engine import Breakdown, RuleViolation
from services.codec import codec_for
from services.commands import ScoreTableaus
from services.errors import ServiceError
from services.views import views_of


class ScoredPlayer(msgspec.Struct, frozen=True):
    total: int
    breakdown: Breakdown


class ScoreResponse(msgspec.Struct, frozen=True):
    players: list[ScoredPlayer]


def score_tableaus(command: ScoreTableaus) -> ScoreResponse:
    try:
        game = get_game(command.game)
    except RuleViolation as exc:
        raise ServiceError("not-found", exc.code, exc.message) from None
    request = codec_for(game.id).decode_score_request(command.body)
    answer = ScoreResponse(players=[ScoredPlayer(s.total, s.breakdown) for s in game.score(request)])
    shown: ScoreResponse = views_of(game.id).shown.converter(ScoreResponse)(answer)
    return shown
