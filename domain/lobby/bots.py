"""Bots at the table: which seat a bot plays next, what it chooses, and bots playing on until a
person is awaited or the game ends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from kaiten.domain.chance import Chance
from kaiten.domain.engine import Bot, C, E, Game, S, handlers, reads_view
from kaiten.domain.lobby.events import GameFinished
from kaiten.domain.lobby.folding import evolve_table
from kaiten.domain.lobby.results import leavers_last
from kaiten.domain.lobby.seeding import chance_key
from kaiten.domain.lobby.table import Decision, Table, awaiting, rules_of, state_of

_replace = msgspec.structs.replace


def next_bot_seat(game: Game[S, C, E, Any], table: Table[S]) -> int | None:
    """The lowest awaited seat that a bot holds, if any."""
    for seat in awaiting(game, table):
        if table.seats[seat].player is not None:
            return seat
    return None


def bot_command(game: Game[S, C, E, Any], table: Table[S], seat: int, chance: Chance, bot: str | None = None) -> C:
    """Ask the seat's bot (or the bot named), which sees only that seat's view and legal commands."""
    bot_name = bot or table.seats[seat].player
    assert bot_name is not None
    return bot_choice(game, table, seat, chance, rules_of(game, table).bots[bot_name]())


def bot_choice(game: Game[S, C, E, Any], table: Table[S], seat: int, chance: Chance, player: Bot) -> C:
    """Ask this bot (a game's own, or one from outside it such as a peer's search in a tournament) for
    the seat's command; it sees only that seat's view and legal commands (a bot that reads no view,
    see `domain.engine.reads_view`, is handed None: no view is built for it)."""
    game = rules_of(game, table)
    state = state_of(table)
    view = game.view(state, seat) if reads_view(player) else None
    command: C = player.choose(view, game.legal_commands(state, seat), chance)
    return command


class BotsStuck(RuntimeError):
    """Bots kept playing past any game's length: a bug in a game or a bot, never a rule."""


#: Far more decisions than any game of the family takes.
MAX_BOT_DECISIONS = 100_000


def run_bots(
    game: Game[S, C, E, Any],
    table: Table[S],
    version: int,
    choosing: Callable[[int, int], Chance] | None = None,
    max_decisions: int = MAX_BOT_DECISIONS,
    ask: Callable[[Game[S, C, E, Any], Table[S], int, Chance], C] = bot_command,
) -> Decision[S]:
    """Let bot seats play while the game awaits one of them; `version` is the log's length so far.

    By default each bot draws from its own stream (`seat_chance`), which is not the one the rules draw
    shuffles from, so a bot learns nothing about hidden cards from its own randomness;
    `choosing(version, seat)` may give another (the simulator keeps one generator per game).
    `ask(game, table, seat, chance)` answers a bot seat's command (the tournament wraps it to time
    each bot's decisions).
    """
    # Everything but the state is the table's for the whole run, so it is looked up once: the rules
    # version and its functions, the seats' bots, the chance key (a hash).
    game = rules_of(game, table)
    players = [seat.player for seat in table.seats]
    key = chance_key(table)
    awaited = game.awaiting
    decide = game.decide
    handler_of = handlers(game)
    follow = game.follow
    result_of = game.result
    # `bot_command` inline: the seat's bot, built afresh for each decision, sees its view (when it reads
    # one) and its legal commands.
    bots = game.bots if ask is bot_command else None
    legal_commands = game.legal_commands
    view = game.view
    events: list[Any] = []
    if table.status != "active":
        return Decision(events=(), table=table)
    state = state_of(table)
    # The table is built again from the state only when someone reads it: `ask`, the end, the result.
    if choosing is None:

        def seat_chance(at: int, seat: int) -> Chance:
            """`domain.lobby.seeding.seat_chance`, its key hashed once."""
            return Chance(key, at, "bot", seat)

        choosing = seat_chance
    behind = False
    if bots is not None:
        # The game's fast path, where it has one for these bots: no step of the loop below, the same events.
        played = game.play_bots(
            state,
            [None if player is None else bots[player]() for player in players],
            choosing,
            lambda at: Chance(key, at),
            version,
        )
        if played is not None:
            written, state, decisions = played
            if decisions > max_decisions:
                raise BotsStuck(f"{game.id}: bots still playing after {max_decisions} decisions")
            events.extend(written)
            behind = True
            result = result_of(state)
            if result is not None:
                table = _finished(game, table, state, result, events)
                behind = False
                if table.status != "active":
                    return Decision(events=tuple(events), table=table)
                state = state_of(table)
    # One Chance for the rules, keyed anew for each decision (`Chance.rekeyed`): most draw nothing.
    rules_chance = Chance(key, version)
    for _ in range(max_decisions):
        for seat in awaited(state):
            if players[seat] is not None:
                break
        else:
            break
        at = version + len(events)
        chance = choosing(at, seat)
        if bots is None:
            if behind:
                table = _replace(table, state=state)
                behind = False
            command = ask(game, table, seat, chance)
        else:
            player = bots[players[seat]]()  # type: ignore[index]
            command = player.choose(
                view(state, seat) if getattr(player, "reads_view", True) is not False else None,
                legal_commands(state, seat),
                chance,
            )
        # `_played` inline (`domain.engine.play`): the command's events and those that follow them,
        # each folded once.
        rules_chance = rules_chance.rekeyed(at)
        written = decide(state, seat, command, rules_chance)
        while written:
            for event in written:
                state = handler_of[type(event)](state, event)
            events.extend(written)
            written = follow(state, rules_chance)
        behind = True
        result = result_of(state)
        if result is not None:
            table = _finished(game, table, state, result, events)
            behind = False
            if table.status != "active":
                break
            state = state_of(table)
    else:
        raise BotsStuck(f"{game.id}: bots still playing after {max_decisions} decisions")
    if behind:
        table = _replace(table, state=state)
    return Decision(events=tuple(events), table=table)


def _finished(game: Game[S, C, E, Any], table: Table[S], state: S, result: Any, events: list[Any]) -> Table[S]:
    """The table at `state`, with the game's end recorded (`GameFinished`, added to `events`)."""
    table = _replace(table, state=state)
    finished = GameFinished(result=leavers_last(result, table), seed=table.seed, salt=table.salt)
    events.append(finished)
    return evolve_table(game, table, finished)
