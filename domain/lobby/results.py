"""A game's result as the table ranks it: the seats whose people resigned last."""

from __future__ import annotations

from typing import Any

from kaiten.domain.engine import C, E, Game, Result, S
from kaiten.domain.lobby.table import Table, rules_of, state_of


def table_result(game: Game[S, C, E, Any], table: Table[S]) -> Result | None:
    """The game's result once it is over, with the seats whose people resigned ranked last."""
    result = rules_of(game, table).result(state_of(table))
    return None if result is None else leavers_last(result, table)


def leavers_last(result: Result, table: Table[Any]) -> Result:
    """The result with the seats whose people resigned ranked last (among themselves by the game's
    ranking) and never winning; when the game's winners all left, the best ranked stayer wins."""
    left = {seat.seat for seat in table.seats if seat.resigned}
    if not left:
        return result
    stayed = tuple(s for s in result.ranking if s not in left)
    ranking = (*stayed, *(s for s in result.ranking if s in left))
    winners = tuple(s for s in result.winners if s not in left) or stayed[:1]
    return Result(scores=result.scores, winners=winners, ranking=ranking)
