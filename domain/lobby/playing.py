"""Playing a started game: a seat's command, a seat's time running out, a person resigning, a game
abandoned."""

from __future__ import annotations

from typing import Any

import msgspec

from kaiten.domain.chance import Chance
from kaiten.domain.engine import C, E, Game, NotNow, RuleViolation, S, play
from kaiten.domain.lobby.bots import bot_command
from kaiten.domain.lobby.events import GameAbandoned, GameFinished, SeatResigned, SeatTakenOver, TurnTimedOut
from kaiten.domain.lobby.folding import evolve_table, fold
from kaiten.domain.lobby.results import leavers_last
from kaiten.domain.lobby.table import Decision, Table, is_over, rules_of, state_of

_replace = msgspec.structs.replace

#: The bot that plays for a seat whose time ran out, or whose person resigned.
STAND_IN_BOT = "greedy"


def _check_playing(table: Table[Any]) -> None:
    if table.status == "open":
        raise NotNow("game-not-started", "the game starts when every seat is taken")
    if table.status == "finished":
        raise NotNow("game-finished", "the game is over")
    if table.status == "abandoned":
        raise NotNow("game-abandoned", "the game was abandoned")


def act(game: Game[S, C, E, Any], table: Table[S], seat: int, command: C, chance: Chance) -> Decision[S]:
    game = rules_of(game, table)
    _check_playing(table)
    if not 0 <= seat < table.players:
        raise RuleViolation("invalid-seat", f"there is no seat {seat}")
    state = state_of(table)
    if seat not in game.awaiting(state):
        raise NotNow("not-your-turn", f"the game is not waiting for seat {seat}")
    return _played(game, table, state, seat, command, chance)


def _played(game: Game[S, C, E, Any], table: Table[S], state: S, seat: int, command: C, chance: Chance) -> Decision[S]:
    """`act` once the table is known to await this seat (`game` is the table's rules version)."""
    events, state = play(game, state, seat, command, chance)
    after = _replace(table, state=state)
    result = game.result(state)
    if result is None:
        return Decision(events=events, table=after)
    finished = GameFinished(result=leavers_last(result, after), seed=table.seed, salt=table.salt)
    return Decision(events=(*events, finished), table=evolve_table(game, after, finished))


def time_out(
    game: Game[S, C, E, Any], table: Table[S], seat: int, at: str, chance: Chance, bot_chance: Chance
) -> Decision[S]:
    """The seat's time ran out at `at`: `TurnTimedOut`, then the move made for it (the greedy bot's,
    drawing from `bot_chance`, or with `on_timeout: "skip"` the game's default move, its first legal
    command); `chance` is the rules' for that move."""
    game = rules_of(game, table)
    if table.clock is None:
        raise ValueError("a game without a clock has no timeouts")
    _check_playing(table)
    if seat not in game.awaiting(state_of(table)):
        raise NotNow("not-your-turn", f"the game is not waiting for seat {seat}")
    timed_out = TurnTimedOut(seat=seat, at=at)
    if table.clock.on_timeout == "skip":
        command = default_command(game, table, seat)
    else:
        command = bot_command(game, table, seat, bot_chance, bot=STAND_IN_BOT)
    moved = act(game, table, seat, command, chance)
    return Decision(events=(timed_out, *moved.events), table=moved.table)


def default_command(game: Game[S, C, E, Any], table: Table[S], seat: int) -> C:
    """The game's default move for a seat: the first of its legal commands, in the game's order."""
    return rules_of(game, table).legal_commands(state_of(table), seat)[0]


def resign(game: Game[S, C, E, Any], table: Table[S], seat: int) -> Decision[S]:
    """The seat's person leaves: `SeatResigned`, then a bot takes the seat over to the end; when no
    person is left at the table, the game is abandoned instead."""
    _check_playing(table)
    if table.seats[seat].resigned:
        raise NotNow("seat-resigned", f"seat {seat} has already resigned")
    events: list[Any] = [SeatResigned(seat=seat)]
    people_left = [s for s in table.seats if s.player is None and s.seat != seat]
    if people_left:
        events.append(SeatTakenOver(seat=seat, bot=STAND_IN_BOT))
    else:
        events.append(GameAbandoned(reason="resigned", seed=table.seed, salt=table.salt))
    return Decision(events=tuple(events), table=fold(game, table, events))


def abandon(game: Game[S, C, E, Any], table: Table[S]) -> Decision[S]:
    """Nobody moved for too long: the unfinished game is abandoned."""
    if is_over(table):
        raise NotNow("game-finished", "the game is over")
    events = [GameAbandoned(reason="inactive", seed=table.seed, salt=table.salt)]
    return Decision(events=tuple(events), table=fold(game, table, events))
