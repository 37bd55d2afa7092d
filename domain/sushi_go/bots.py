"""Bots: they see only their own seat's view and legal commands, and draw from the chance they are handed.

- `random`: uniform over the legal commands.
- `greedy`: the best immediate marginal score, with a simple lookahead for sets: an incomplete
  tempura or sashimi set, a wasabi waiting for a nigiri, chopsticks and puddings are worth their
  points times a rough chance to be completed (or to matter) in the picks left this round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb, floor
from typing import Any

import msgspec

from domain.chance import Chance
from domain.sushi_go.cards import (
    CHOPSTICKS,
    CHOPSTICKS_IDS,
    DUMPLING,
    KIND,
    MAKI_ICONS,
    NIGIRI_POINTS,
    PUDDING,
    ROUNDS,
    SASHIMI,
    TEMPURA,
    WASABI,
)
from domain.sushi_go.commands import SINGLE_PICKS, pair_picks
from domain.sushi_go.decide import follow, revealed
from domain.sushi_go.events import CardPicked
from domain.sushi_go.evolve import NO_PICKS, SEATS, evolve
from domain.sushi_go.scoring import DUMPLING_POINTS, maki_points, pudding_points
from domain.sushi_go.state import SushiGoState
from domain.sushi_go.view import SushiGoView

_replace = msgspec.structs.replace


class RandomBot:
    """Any legal command, uniformly (and fast, a whole game at a time: `play_bots`)."""

    __slots__ = ()
    #: It never reads its view, so it is handed None (see `domain.engine.Bot`).
    reads_view = False

    def choose(self, view: Any, commands: Sequence[Any], chance: Chance) -> Any:
        # floor is int() for a float >= 0, and cheaper
        return commands[floor(chance.rng.random() * len(commands))]


def _at_least(picks: int, needed: int, rate: float = 0.3) -> float:
    """The chance of at least `needed` successes in `picks` tries of probability `rate`."""
    if needed <= 0:
        return 1.0
    if picks < needed:
        return 0.0
    return 1.0 - sum(comb(picks, k) * rate**k * (1 - rate) ** (picks - k) for k in range(needed))


#: _CHANCE[picks][needed]: a rough chance to complete a set needing `needed` more cards.
_CHANCE: tuple[tuple[float, ...], ...] = tuple(tuple(_at_least(p, n) for n in range(4)) for p in range(12))


class _Tally:
    """The viewer's own tableau as counts, and what it needs of the others' (maki icons, puddings)."""

    __slots__ = (
        "chopsticks",
        "dumpling",
        "icons",
        "others_icons",
        "puddings",
        "sashimi",
        "seat",
        "tempura",
        "wasabi",
    )

    def __init__(self, view: SushiGoView, seat: int) -> None:
        self.seat = seat
        self.tempura = self.sashimi = self.dumpling = self.wasabi = self.icons = self.chopsticks = 0
        #: Puddings per seat, kept ones and those played this round.
        self.puddings = [
            len(kept) + sum(1 for card in tableau if KIND[card] == PUDDING)
            for kept, tableau in zip(view.puddings, view.tableaus, strict=True)
        ]
        for card in view.tableaus[seat]:
            self.add(KIND[card], count_pudding=False)
        self.others_icons = [
            sum(MAKI_ICONS[KIND[card]] for card in tableau)
            for other, tableau in enumerate(view.tableaus)
            if other != seat
        ]

    def copy(self) -> _Tally:
        # Attribute by attribute rather than a loop over __slots__: the search's rollouts copy often.
        other = _Tally.__new__(_Tally)
        other.seat = self.seat
        other.tempura = self.tempura
        other.sashimi = self.sashimi
        other.dumpling = self.dumpling
        other.wasabi = self.wasabi
        other.icons = self.icons
        other.chopsticks = self.chopsticks
        other.others_icons = self.others_icons
        other.puddings = list(self.puddings)
        return other

    def add(self, kind: int, count_pudding: bool = True) -> None:
        if kind == TEMPURA:
            self.tempura += 1
        elif kind == SASHIMI:
            self.sashimi += 1
        elif kind == DUMPLING:
            self.dumpling += 1
        elif kind == WASABI:
            self.wasabi += 1
        elif kind == CHOPSTICKS:
            self.chopsticks += 1
        elif kind == PUDDING:
            if count_pudding:
                self.puddings[self.seat] += 1
        elif NIGIRI_POINTS[kind]:
            if self.wasabi:
                self.wasabi -= 1
        else:
            self.icons += MAKI_ICONS[kind]


class GreedyBot:
    """The card worth the most points now, counting what incomplete sets may still bring."""

    __slots__ = ()

    def choose(self, view: Any, commands: Sequence[Any], chance: Chance) -> Any:
        assert isinstance(view, SushiGoView) and view.seat is not None
        seat = view.seat
        future = min(view.hand_size - 1, len(_CHANCE) - 1)
        values: dict[tuple[int, ...], float] = {}
        start = _Tally(view, seat)
        best: Any = commands[0]
        best_value = float("-inf")
        for command in commands:
            kinds = tuple([KIND[card] for card in command.cards])
            value = values.get(kinds)
            if value is None:
                tally = start.copy()
                value = 0.0
                for kind in kinds:
                    value += _value(kind, tally, view, seat, future)
                    tally.add(kind)
                if len(kinds) == 2:
                    # The chopsticks go back into the hand: their future use is lost.
                    value -= 1.5 if future >= 3 else 0.0
                values[kinds] = value
            if value > best_value:
                best, best_value = command, value
        return best


def _value(kind: int, tally: _Tally, view: SushiGoView, seat: int, future: int) -> float:
    """The marginal points of adding one card of `kind`, plus the lookahead for incomplete sets."""
    chance = _CHANCE[future]
    if kind == TEMPURA:
        return 5.0 if tally.tempura % 2 else 2.5 * chance[1]
    if kind == SASHIMI:
        have = tally.sashimi % 3
        return 10.0 if have == 2 else 5.0 * chance[2 - have]
    if kind == DUMPLING:
        have = min(tally.dumpling, 5)
        return float(DUMPLING_POINTS[min(have + 1, 5)] - DUMPLING_POINTS[have]) + 0.5 * chance[1]
    nigiri = NIGIRI_POINTS[kind]
    if nigiri:
        return float(3 * nigiri if tally.wasabi else nigiri)
    if kind == WASABI:
        return 3.0 * chance[min(tally.wasabi + 1, len(chance) - 1)]
    if kind == CHOPSTICKS:
        return 1.5 * chance[2] if tally.chopsticks == 0 else 0.3 * chance[3]
    if kind == PUDDING:
        counts = list(tally.puddings)
        before = pudding_points(counts)[seat]
        counts[seat] += 1
        gain = pudding_points(counts)[seat] - before
        return float(gain) if view.round >= ROUNDS else 1.5 + 0.5 * max(gain, 0)
    icons = MAKI_ICONS[kind]
    others = tally.others_icons
    before = maki_points([tally.icons, *others])[0]
    after = maki_points([tally.icons + icons, *others])[0]
    return float(after - before) + 0.4 * icons * chance[1]


def play_bots(
    state: SushiGoState,
    bots: Sequence[Any],
    choosing: Callable[[int, int], Chance],
    rules_chance: Callable[[int], Chance],
    version: int,
) -> tuple[list[Any], SushiGoState, int] | None:
    """Random bots in every seat playing the game to its end (`domain.engine.Game.play_bots`): each
    round's turns on lists changed in place, drawing as `RandomBot` draws over `legal_commands` without
    listing them, and writing what `decide` and `follow` write; what follows a round's last pick (the
    last cards, the scores, the next deal) is the rules' own `follow`, folded by `evolve`."""
    if len(bots) != state.players or any(type(bot) is not RandomBot for bot in bots):
        return None
    events: list[Any] = []
    decisions = 0
    while state.result is None:
        state, at, played = _turns(state, events, choosing, version)
        decisions += played
        chance = rules_chance(at)
        while written := follow(state, chance):
            for event in written:
                state = evolve(state, event)
            events.extend(written)
    return events, state, decisions


def _turns(
    state: SushiGoState, events: list[Any], choosing: Callable[[int, int], Chance], version: int
) -> tuple[SushiGoState, int, int]:
    """The turns left in the round, from a state that awaits seats: the state once its hands are down
    to their last card, the log's length at its last decision and the decisions made."""
    players = state.players
    hands = [list(hand) for hand in state.hands]
    tableaus = [list(tableau) for tableau in state.tableaus]
    picks = list(state.picks)
    awaiting = state.awaiting
    turn = state.turn
    round_ = state.round
    at = version
    decisions = 0
    while awaiting:
        for seat in awaiting:
            at = version + len(events)
            hand = hands[seat]
            size = len(hand)
            # `legal_commands` lists the singles in the hand's order, then with chopsticks every ordered
            # pair (first in the hand's order, then the others in theirs): size + size * (size - 1).
            pairs = size >= 2 and not CHOPSTICKS_IDS.isdisjoint(tableaus[seat])
            # floor is int() for a float >= 0, and cheaper
            index = floor(choosing(at, seat).rng.random() * (size * size if pairs else size))
            if index < size:
                cards = SINGLE_PICKS[hand[index]].cards
            else:
                first, second = divmod(index - size, size - 1)
                cards = pair_picks(hand[first])[hand[second + (second >= first)]].cards
            picks[seat] = cards
            events.append(CardPicked(seat, cards))
            decisions += 1
        reveal = revealed(round_, turn, picks, tableaus)
        events.append(reveal)
        for seat, (hand, pick, used) in enumerate(zip(hands, picks, reveal.chopsticks)):  # noqa: B905
            for card in pick:
                hand.remove(card)
            tableau = tableaus[seat]
            tableau.extend(pick)
            if used is not None:
                hand.append(used)
                tableau.remove(used)
        # Seat i passes to seat i + 1: seat i receives the hand of seat i - 1.
        hands.insert(0, hands.pop())
        turn += 1
        picks = list(NO_PICKS[players])
        awaiting = SEATS[players] if len(hands[0]) >= 2 else ()
    state = _replace(
        state,
        turn=turn,
        hands=tuple([tuple(hand) for hand in hands]),
        tableaus=tuple([tuple(tableau) for tableau in tableaus]),
        picks=NO_PICKS[players],
        awaiting=(),
    )
    return state, at, decisions
