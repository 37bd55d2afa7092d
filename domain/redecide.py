"""Deciding a log again: whether a log is one the rules would have written, choice by choice.

A log holds people's choices and what the rules made of them. Deciding it again takes each choice
from the log (a seat taken or given back, a command, a resignation, an invitation...), sends it through the rules in
log order with the game's own chance (its revealed seed and salt), and requires the rules to write
exactly the events the log holds. A forged score, a card a hand never held, a deal the seed and salt
do not give: each makes the rules write something else somewhere, and the first version where they
do is the answer. Logs hold the events of commands, not the commands: the awaited seats' legal
commands are each decided until one is decided into the events the log holds next.

What no rule decides is taken as the log says, where it may stand: who sits down (and so whom the
deal waits for), the moment a turn timed out, invitations and their codes' hashes. The caller checks
what is beyond the rules (a revealed seed against its commitment, the shape of ids).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.engine import AnyGame, RuleViolation
from kaiten.domain.lobby import (
    ACCESS_EVENTS,
    Decision,
    GameAbandoned,
    GameCreated,
    InvitationIssued,
    InvitationRevoked,
    SeatClaimed,
    SeatLeft,
    SeatResigned,
    SeatTaken,
    Table,
    TurnTimedOut,
)


class Divergence(msgspec.Struct, frozen=True):
    """Where the rules part from the log: the first version they would have written otherwise."""

    version: int
    reason: str


def first_divergence(game: AnyGame, events: Sequence[Any]) -> Divergence | None:
    """None when deciding the log again gives the log, event for event; else where it does not."""
    created = events[0]
    if not isinstance(created, GameCreated) or created.seed is None or created.salt is None:
        return Divergence(1, "a log decided again starts with GameCreated, its seed and salt revealed")
    game = game.at_rules_version(created.rules_version)
    try:
        salt = bytes.fromhex(created.salt)
        made = lobby.create_game(
            game, created.players, created.options, created.seed, salt, created.visibility, created.rematch_of
        )[0]
    except (ValueError, RuleViolation):
        return Divergence(1, "GameCreated names a salt or options that create no game")
    made = msgspec.structs.replace(made, chosen_deal=created.chosen_deal)
    # Compared as JSON values: options are a dict of what the options' struct holds (tuples, in its
    # fields' order) or a log shows (lists, in any order).
    if _as_json(msgspec.structs.replace(made, chance_from=created.chance_from)) != _as_json(created):
        return Divergence(1, "GameCreated is not what creating that game with that seed and salt writes")
    table = lobby.replay(game, [created])
    at = 1
    while at < len(events):
        best = 0
        for decision in _decisions(game, table, events, at):
            written = tuple(events[at : at + len(decision.events)])
            if decision.events == written:
                table, at = decision.table, at + len(written)
                break
            best = max(best, _same_start(decision.events, written))
        else:
            return Divergence(at + best + 1, f"the rules do not write {type(events[at + best]).__name__} here")
    return None


def _as_json(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def _same_start(decided: Sequence[Any], written: Sequence[Any]) -> int:
    """How many events the decision and the log share from the start."""
    shared = 0
    for mine, theirs in zip(decided, written, strict=False):
        if mine != theirs:
            break
        shared += 1
    return shared


def _decisions(game: AnyGame, table: Table[Any], events: Sequence[Any], at: int) -> Iterator[Decision[Any]]:
    """What the rules decide of each choice the event at `at` may come from (none when it comes from
    no choice there)."""
    event = events[at]

    def chance() -> Chance:
        # A fresh one for each decision: a generator draws on from where the last decision left it.
        return lobby.rules_chance(table, at)

    try:
        if isinstance(event, SeatTaken):
            yield lobby.seated(game, table, event, chance())
        elif isinstance(event, SeatLeft):
            yield lobby.leave_seat(game, table, event.seat)
        elif isinstance(event, ACCESS_EVENTS):
            yield from _access(game, table, event)
        elif isinstance(event, SeatResigned):
            yield lobby.resign(game, table, event.seat)
        elif isinstance(event, GameAbandoned):
            yield lobby.abandon(game, table)
        elif isinstance(event, TurnTimedOut):
            yield from _timed_out(game, table, event, chance)
        else:
            yield from _commands(game, table, chance, _seat_of(event))
    except RuleViolation:
        return


def _commands(
    game: AnyGame, table: Table[Any], chance: Callable[[], Chance], named: int | None
) -> Iterator[Decision[Any]]:
    """Every awaited seat's every legal command, decided: the seat an event names first."""
    awaited = lobby.awaiting(game, table)
    for seat in sorted(awaited, key=lambda seat: seat != named):
        for command in lobby.rules_of(game, table).legal_commands(lobby.state_of(table), seat):
            yield lobby.act(game, table, seat, command, chance())


def _timed_out(
    game: AnyGame, table: Table[Any], event: TurnTimedOut, chance: Callable[[], Chance]
) -> Iterator[Decision[Any]]:
    """A turn that ran out, and each move the server could have made for the seat."""
    if table.clock is None or event.seat not in lobby.awaiting(game, table):
        return
    for command in lobby.rules_of(game, table).legal_commands(lobby.state_of(table), event.seat):
        moved = lobby.act(game, table, event.seat, command, chance())
        yield Decision(events=(event, *moved.events), table=moved.table)


def _access(game: AnyGame, table: Table[Any], event: Any) -> Iterator[Decision[Any]]:
    """Who may sit or watch changes while the game runs, by a seated person."""
    seat = lobby.seated_at(table, event.seat)
    if lobby.is_over(table) or seat is None or seat.bot is not None:
        return
    if table.access_events >= lobby.MAX_ACCESS_EVENTS:
        return
    if isinstance(event, InvitationIssued) and event.invitation_id in table.invitations:
        return
    if isinstance(event, InvitationRevoked) and event.invitation_id not in table.invitations:
        return
    if isinstance(event, SeatClaimed) and table.rematch_of is None:
        return
    yield Decision(events=(event,), table=lobby.evolve_table(game, table, event))


def _seat_of(event: Any) -> int | None:
    seat = getattr(event, "seat", None)
    return seat if isinstance(seat, int) else None
