"""Bots: they see only their own seat's view and legal commands, and draw from the chance they are handed.

- `random`: uniform over the legal commands.
- `greedy`: the best immediate marginal score, with a simple lookahead for sets: an incomplete
  tempura or sashimi set, a wasabi waiting for a nigiri, chopsticks and puddings are worth their
  points times a rough chance to be completed (or to matter) in the picks left this round.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, filterfalse
from math import comb, floor
from typing import Any

import msgspec

from kaiten.domain.chance import Chance
from kaiten.domain.sushi_go.cards import (
    CARD_ICONS,
    CHOPSTICKS,
    CHOPSTICKS_IDS,
    DUMPLING,
    IS_CHOPSTICKS,
    IS_PUDDING,
    KIND,
    MAKI_ICONS,
    NIGIRI_POINTS,
    PUDDING,
    ROUNDS,
    SASHIMI,
    TEMPURA,
    WASABI,
)
from kaiten.domain.sushi_go.commands import SINGLE_CARDS
from kaiten.domain.sushi_go.decide import NO_CHOPSTICKS, deal, puddings_scored, revealed, round_scored
from kaiten.domain.sushi_go.events import CardPicked, CardsRevealed
from kaiten.domain.sushi_go.evolve import NO_PICKS, SEATS, final_result
from kaiten.domain.sushi_go.scoring import DUMPLING_POINTS, maki_points, pudding_points
from kaiten.domain.sushi_go.state import Cards, SushiGoState
from kaiten.domain.sushi_go.view import SushiGoView

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


#: What every seat shows that a greedy seat weighs: its maki icons this round, and its puddings (kept
#: ones and those played this round).
Shown = tuple[list[int], list[int]]


def shown_by(tableaus: Sequence[Sequence[int]], puddings: Sequence[Sequence[int]]) -> Shown:
    """What every seat shows, from the tableaus as revealed this round and the puddings kept."""
    return (
        [sum(map(CARD_ICONS.__getitem__, tableau)) for tableau in tableaus],
        [len(kept) + sum(map(IS_PUDDING.__getitem__, tableau)) for kept, tableau in zip(puddings, tableaus)],  # noqa: B905
    )


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

    def __init__(
        self,
        seat: int,
        counts: tuple[int, int, int, int, int, int],
        others_icons: list[int],
        puddings: list[int],
    ) -> None:
        self.seat = seat
        self.tempura, self.sashimi, self.dumpling, self.wasabi, self.icons, self.chopsticks = counts
        self.others_icons = others_icons
        self.puddings = puddings

    def copy(self) -> _Tally:
        return _Tally(
            self.seat,
            (self.tempura, self.sashimi, self.dumpling, self.wasabi, self.icons, self.chopsticks),
            self.others_icons,
            list(self.puddings),
        )

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


def _tally(tableau: Sequence[int], shown: Shown, seat: int) -> _Tally:
    """The tally of a seat's own tableau, beside what every seat shows (`shown`)."""
    icons, puddings = shown
    tally = _Tally(seat, (0, 0, 0, 0, 0, 0), icons[:seat] + icons[seat + 1 :], list(puddings))
    for card in tableau:
        tally.add(KIND[card], count_pudding=False)
    return tally


class GreedyBot:
    """The card worth the most points now, counting what incomplete sets may still bring."""

    __slots__ = ()

    def choose(self, view: Any, commands: Sequence[Any], chance: Chance) -> Any:
        assert isinstance(view, SushiGoView) and view.seat is not None
        start = _tally(view.tableaus[view.seat], shown_by(view.tableaus, view.puddings), view.seat)
        return commands[_best([command.cards for command in commands], start, view.round, view.hand_size)]


def _best(choices: Iterable[Cards], start: _Tally, round_: int, hand_size: int) -> int:
    """The index of the first of `choices` (each the cards of a pick, in the order of `legal_commands`)
    worth the most to the seat whose tally is `start`: `GreedyBot`'s choice, over its view's commands
    or over `play_bots`' lists."""
    future = min(hand_size - 1, len(_CHANCE) - 1)
    values: dict[tuple[int, ...], float] = {}
    best = 0
    best_value = float("-inf")
    for index, cards in enumerate(choices):
        kinds = tuple([KIND[card] for card in cards])
        value = values.get(kinds)
        if value is None:
            tally = start.copy()
            value = 0.0
            for kind in kinds:
                value += _value(kind, tally, round_, future)
                tally.add(kind)
            if len(kinds) == 2:
                # The chopsticks go back into the hand: their future use is lost.
                value -= 1.5 if future >= 3 else 0.0
            values[kinds] = value
        if value > best_value:
            best, best_value = index, value
    return best


def _value(kind: int, tally: _Tally, round_: int, future: int) -> float:
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
        seat = tally.seat
        before = pudding_points(counts)[seat]
        counts[seat] += 1
        gain = pudding_points(counts)[seat] - before
        return float(gain) if round_ >= ROUNDS else 1.5 + 0.5 * max(gain, 0)
    icons = MAKI_ICONS[kind]
    others = tally.others_icons
    before = maki_points([tally.icons, *others])[0]
    after = maki_points([tally.icons + icons, *others])[0]
    return float(after - before) + 0.4 * icons * chance[1]


def _choices(hand: list[int], pairs: bool) -> Iterator[Cards]:
    """The cards of each pick `legal_commands` lists for this hand, in its order: the singles, then with
    chopsticks every ordered pair of different cards."""
    for card in hand:
        yield (card,)
    if pairs:
        for first in hand:
            for second in hand:
                if second != first:
                    yield (first, second)


def play_bots(
    state: SushiGoState,
    bots: Sequence[Any],
    choosing: Callable[[int, int], Chance],
    rules_chance: Callable[[int], Chance],
    version: int,
) -> tuple[list[Any], SushiGoState, int] | None:
    """Random and greedy bots in every seat playing the game to its end (`domain.engine.Game.play_bots`)
    on a working copy of the state in lists, changed in place, and the state built once at the end.
    Each pick is what the seat's bot chooses over `legal_commands` (a random one drawn as `RandomBot`
    draws, without listing them); what the rules write on their own is what `follow` writes (the same
    functions of `decide`, in the same order), and each event changes the lists as `evolve` changes the
    state. The search's rollouts (`domain.mcts`) play greedy bots through it."""
    players = state.players
    if len(bots) != players or any(type(bot) is not RandomBot and type(bot) is not GreedyBot for bot in bots):
        return None
    greedy = [type(bot) is GreedyBot for bot in bots]
    anyone_greedy = any(greedy)
    round_ = state.round
    turn = state.turn
    deck = state.deck
    hands = [list(hand) for hand in state.hands]
    picks = list(state.picks)
    awaiting = state.awaiting
    tableaus = [list(tableau) for tableau in state.tableaus]
    puddings = [list(kept) for kept in state.puddings]
    discards = list(state.discards)
    totals = list(state.totals)
    scored = list(state.scored)
    result = state.result
    #: What every seat showed when the turn began, which a greedy seat weighs (the picks below go to the
    #: tableaus as they are made, and nobody sees a pick before the reveal); None between turns.
    shown: Shown | None = shown_by(state.tableaus, state.puddings) if awaiting and anyone_greedy else None
    # Whether each tableau holds chopsticks (its seat may pick two cards), kept as cards are placed.
    holds_chopsticks = [not CHOPSTICKS_IDS.isdisjoint(tableau) for tableau in tableaus]
    # The turn's picks made before are placed now, as the picks below are (see there).
    for seat, pick in enumerate(picks):
        for card in pick:
            hands[seat].remove(card)
            tableaus[seat].append(card)
            if IS_CHOPSTICKS[card]:
                holds_chopsticks[seat] = True
    #: Whether a seat picked two cards this turn (only then does a chopsticks go back into a hand).
    paired = 2 in map(len, picks)
    events: list[Any] = []
    record = events.append
    picked = CardPicked
    single = SINGLE_CARDS
    is_chopsticks = IS_CHOPSTICKS
    decisions = 0
    at = version
    #: The rules' chance of the last decision, made when what follows it first draws (`follow` draws
    #: every deal after a decision from that decision's one Chance).
    chance: Chance | None = None
    while result is None:
        if awaiting:
            if anyone_greedy and shown is None:
                shown = shown_by(tableaus, puddings)
            for seat in awaiting:
                at = version + len(events)
                hand = hands[seat]
                size = len(hand)
                # `legal_commands` lists the singles in the hand's order, then with chopsticks every
                # ordered pair (first in the hand's order, then the others in theirs): size + size *
                # (size - 1). floor is int() for a float >= 0, and cheaper.
                pairs = size >= 2 and holds_chopsticks[seat]
                if greedy[seat]:
                    # The bot's chance is asked for as `run_bots` asks for it, though greedy draws nothing.
                    choosing(at, seat)
                    assert shown is not None
                    # A seat that has not picked this turn holds a hand of the turn's size, and its own
                    # tableau as revealed.
                    index = _best(_choices(hand, pairs), _tally(tableaus[seat], shown, seat), round_, size)
                elif pairs:
                    index = floor(choosing(at, seat).rng.random() * (size * size))
                else:
                    index = floor(choosing(at, seat).rng.random() * size)
                tableau = tableaus[seat]
                # The picked cards go from the hand to the tableau now rather than at the reveal: the
                # seat picks nothing more this turn, and what the others draw reads only their own
                # hands and tableaus. A pair is picked with chopsticks already in the tableau, so the
                # reveal finds the same earliest chopsticks behind the picks.
                if index < size:
                    card = hand.pop(index)
                    cards = single[card]
                    tableau.append(card)
                    if is_chopsticks[card]:
                        holds_chopsticks[seat] = True
                else:
                    first, second = divmod(index - size, size - 1)
                    cards = (hand[first], hand[second + (second >= first)])
                    paired = True
                    for card in cards:
                        hand.remove(card)
                        tableau.append(card)
                picks[seat] = cards
                record(picked(seat, cards))
                decisions += 1
            chance = None
            reveal = (
                revealed(round_, turn, picks, tableaus)
                if paired
                else CardsRevealed(round_, turn, tuple(picks), NO_CHOPSTICKS[players])
            )
            record(reveal)
            if paired:
                paired = False
                for seat, used in enumerate(reveal.chopsticks):
                    if used is not None:
                        hands[seat].append(used)
                        tableau = tableaus[seat]
                        tableau.remove(used)
                        holds_chopsticks[seat] = not CHOPSTICKS_IDS.isdisjoint(tableau)
            # Seat i passes to seat i + 1: seat i receives the hand of seat i - 1.
            hands.insert(0, hands.pop())
            turn += 1
            picks = list(NO_PICKS[players])
            shown = None
            awaiting = SEATS[players] if len(hands[0]) >= 2 else ()
        elif hands[0]:
            # One card per hand is left: it is placed automatically (no chopsticks to hand back, and
            # nobody picks before the round's tableaus are scored and cleared).
            record(CardsRevealed(round_, turn, tuple([tuple(hand) for hand in hands]), NO_CHOPSTICKS[players], True))
            for hand, tableau in zip(hands, tableaus):  # noqa: B905 (equal lengths)
                tableau.extend(hand)
                hand.clear()
            turn += 1
        elif len(scored) < round_:
            scores = round_scored(round_, tableaus)
            record(scores)
            for seat, (score, tableau) in enumerate(zip(scores.scores, tableaus)):  # noqa: B905
                totals[seat] += score.total
                for card in tableau:
                    if IS_PUDDING[card]:
                        puddings[seat].append(card)
                    else:
                        discards.append(card)
                tableau.clear()
                holds_chopsticks[seat] = False
            scored.append(scores.scores)
        elif round_ < ROUNDS:
            if chance is None:
                chance = rules_chance(at)
            dealt = deal(players, deck, discards, round_ + 1, chance)
            record(dealt)
            hands = [list(hand or ()) for hand in dealt.hands]
            taken = set(chain.from_iterable(hands))
            if dealt.reshuffled:
                deck = tuple(filterfalse(taken.__contains__, sorted((*deck, *discards))))
                discards = []
            else:
                deck = tuple(filterfalse(taken.__contains__, deck))
            round_ = dealt.round
            turn = 1
            awaiting = SEATS[players] if dealt.hand_size else ()
        else:
            final = puddings_scored(puddings)
            record(final)
            for seat, score in enumerate(final.scores):
                totals[seat] += score.total
            scored.append(final.scores)
            result = final_result(scored, final.puddings)
    state = SushiGoState(
        players=players,
        round=round_,
        turn=turn,
        deck=deck,
        hands=tuple([tuple(hand) for hand in hands]),
        picks=NO_PICKS[players],
        awaiting=(),
        tableaus=tuple([tuple(tableau) for tableau in tableaus]),
        puddings=tuple([tuple(kept) for kept in puddings]),
        discards=tuple(discards),
        totals=tuple(totals),
        scored=tuple(scored),
        result=result,
    )
    return events, state, decisions
