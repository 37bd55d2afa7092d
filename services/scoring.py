"""The scoring calculator: tableaus scored by a game's rules without playing (API.md, "Games in the
catalog"), each player's total and breakdown as the rules work them out."""

from __future__ import annotations

import msgspec

from kaiten.domain.catalog import get_game
from kaiten.domain.engine import Breakdown, RuleViolation
from kaiten.services.codec import codec_for
from kaiten.services.commands import ScoreTableaus
from kaiten.services.errors import ServiceError


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
    return ScoreResponse(players=[ScoredPlayer(s.total, s.breakdown) for s in game.score(request)])
