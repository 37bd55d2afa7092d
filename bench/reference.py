"""A plain reference simulator of Sushi Go! with random bots, written for the engine benchmark.

It plays the same rules as `domain.sushi_go` (../shared/rules/sushi-go.md: the deal, chopsticks, the
last card placed automatically, every scoring rule, the pudding tie-break) with what a programmer would
write first: mutable lists of card kinds changed in place, one `random.Random`, no events, no views,
no validation. Its random bot draws uniformly over the same legal commands as kaiten's (one pick per
card of the hand; with chopsticks in the tableau, also every ordered pair of two different cards), so
both simulators make the same number of decisions per game.

It is the yardstick of `bench/engine.py`: what the rules cost without the engine around them.
"""

from __future__ import annotations

import random

TEMPURA, SASHIMI, DUMPLING, MAKI_1, MAKI_2, MAKI_3, SALMON, SQUID, EGG, PUDDING, WASABI, CHOPSTICKS = range(12)
#: How many cards of each kind, in the order above.
COUNTS = (14, 14, 14, 6, 12, 8, 10, 5, 5, 10, 6, 4)
DECK = [kind for kind, count in enumerate(COUNTS) for _ in range(count)]
DEAL = {2: 10, 3: 9, 4: 8, 5: 7}
ROUNDS = 3
DUMPLINGS = (0, 1, 3, 6, 10, 15)
NIGIRI = {SALMON: 2, SQUID: 3, EGG: 1}
ICONS = {MAKI_1: 1, MAKI_2: 2, MAKI_3: 3}


class Outcome:
    """A finished game: each seat's total and puddings, the winners, and the decisions taken."""

    __slots__ = ("decisions", "puddings", "totals", "winners")

    def __init__(self, totals: list[int], puddings: list[int], decisions: int) -> None:
        self.totals = totals
        self.puddings = puddings
        self.decisions = decisions
        best = max(zip(totals, puddings, strict=True))
        self.winners = [seat for seat, key in enumerate(zip(totals, puddings, strict=True)) if key == best]


def play(players: int, rng: random.Random) -> Outcome:
    """One game with a random bot in every seat."""
    deck = list(DECK)
    rng.shuffle(deck)
    discards: list[int] = []
    totals = [0] * players
    puddings = [0] * players
    decisions = 0
    for _ in range(ROUNDS):
        size = DEAL[players]
        if len(deck) < size * players:
            deck += discards
            discards.clear()
            rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(size)] for _ in range(players)]
        tableaus: list[list[int]] = [[] for _ in range(players)]
        while len(hands[0]) > 1:
            picks = [_random_pick(hand, tableau, rng) for hand, tableau in zip(hands, tableaus, strict=True)]
            decisions += players
            for hand, tableau, pick in zip(hands, tableaus, picks, strict=True):
                for index in sorted(pick, reverse=True):
                    del hand[index]
                tableau.extend(pick.values())
                if len(pick) == 2:
                    tableau.remove(CHOPSTICKS)
                    hand.append(CHOPSTICKS)
            hands.insert(0, hands.pop())
        for hand, tableau in zip(hands, tableaus, strict=True):
            tableau.extend(hand)
        for seat, points in enumerate(round_points(tableaus)):
            totals[seat] += points
        for seat, tableau in enumerate(tableaus):
            puddings[seat] += tableau.count(PUDDING)
            discards.extend(card for card in tableau if card != PUDDING)
    for seat, points in enumerate(pudding_points(puddings)):
        totals[seat] += points
    return Outcome(totals, puddings, decisions)


def _random_pick(hand: list[int], tableau: list[int], rng: random.Random) -> dict[int, int]:
    """A uniformly random legal command: hand index -> card, in play order."""
    size = len(hand)
    choices = size * size if CHOPSTICKS in tableau else size  # size singles, size * (size - 1) pairs
    choice = rng.randrange(choices)
    if choice < size:
        return {choice: hand[choice]}
    first, second = divmod(choice - size, size - 1)
    if second >= first:
        second += 1
    return {first: hand[first], second: hand[second]}


def round_points(tableaus: list[list[int]]) -> list[int]:
    """Each tableau's points for the round (cards in play order)."""
    points = []
    for tableau in tableaus:
        total = 5 * (tableau.count(TEMPURA) // 2) + 10 * (tableau.count(SASHIMI) // 3)
        total += DUMPLINGS[min(tableau.count(DUMPLING), 5)]
        wasabi = 0
        for card in tableau:
            if card == WASABI:
                wasabi += 1
            elif card in NIGIRI:
                if wasabi:
                    wasabi -= 1
                    total += 3 * NIGIRI[card]
                else:
                    total += NIGIRI[card]
        points.append(total)
    icons = [sum(ICONS.get(card, 0) for card in tableau) for tableau in tableaus]
    for seat, maki in enumerate(maki_points(icons)):
        points[seat] += maki
    return points


def maki_points(icons: list[int]) -> list[int]:
    """Most icons 6, split; second most 3, split, only when nobody ties for most; no icon, no points."""
    ranks = sorted({count for count in icons if count}, reverse=True)
    points = [0] * len(icons)
    if not ranks:
        return points
    first = [seat for seat, count in enumerate(icons) if count == ranks[0]]
    for seat in first:
        points[seat] = 6 // len(first)
    if len(first) == 1 and len(ranks) > 1:
        second = [seat for seat, count in enumerate(icons) if count == ranks[1]]
        for seat in second:
            points[seat] = 3 // len(second)
    return points


def pudding_points(counts: list[int]) -> list[int]:
    """Most +6 split, fewest -6 split (not with 2 players); nothing when every count is equal."""
    most, fewest = max(counts), min(counts)
    points = [0] * len(counts)
    if most == fewest:
        return points
    top = [seat for seat, count in enumerate(counts) if count == most]
    for seat in top:
        points[seat] = 6 // len(top)
    if len(counts) > 2:
        bottom = [seat for seat, count in enumerate(counts) if count == fewest]
        for seat in bottom:
            points[seat] = -(6 // len(bottom))
    return points


def simulate(players: int, games: int, seed: int = 0) -> list[Outcome]:
    rng = random.Random(seed)
    return [play(players, rng) for _ in range(games)]
