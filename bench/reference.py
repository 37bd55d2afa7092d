"""A plain reference simulator of Sushi Go! with random bots, written for the engine benchmark.

It plays the same rules as `domain.sushi_go` (../shared/rules/sushi-go.md: the deal, chopsticks, the
last card placed automatically, every scoring rule, the pudding tie-break) as fast as plain CPython
allows: cards are small ints (their kinds), hands are lists changed in place, and nothing is
allocated per card or per decision. A seat's tableau is never kept as cards, only as a tally: how
many cards of each kind it holds, with a wasabi's bonus counted when a nigiri is placed on it (the
only rule where play order matters), so scoring a round reads a dozen counts. Its random bot draws
uniformly over the same legal commands as kaiten's (one pick per card of the hand; with chopsticks in
the tableau, also every ordered pair of two different cards), so both simulators make the same
number of decisions per game.

It is the yardstick of `bench/engine.py`: what the rules cost without the engine around them.
"""

from __future__ import annotations

import random
from collections.abc import Callable

TEMPURA, SASHIMI, DUMPLING, MAKI_1, MAKI_2, MAKI_3, SALMON, SQUID, EGG, PUDDING, WASABI, CHOPSTICKS = range(12)
#: A tally's slots beyond the twelve kinds' counts: the wasabis a nigiri went on, and the points
#: those nigiri earned on top of their face value.
USED_WASABI, WASABI_BONUS = 12, 13
TALLY = 14
#: How many cards of each kind, in the order above.
COUNTS = (14, 14, 14, 6, 12, 8, 10, 5, 5, 10, 6, 4)
DECK = [kind for kind, count in enumerate(COUNTS) for _ in range(count)]
DEAL = {2: 10, 3: 9, 4: 8, 5: 7}
ROUNDS = 3
# 108 cards cover three deals at 2-5 players: the deck never runs out, so nothing is reshuffled (kaiten
# reshuffles only at 6 players, which this reference does not play).
assert all(ROUNDS * players * size <= len(DECK) for players, size in DEAL.items())
DUMPLINGS = (0, 1, 3, 6, 10, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15)
#: What a wasabi adds to each kind placed on it (twice its face value: the nigiri scores x3).
BONUS = (0, 0, 0, 0, 0, 0, 4, 6, 2, 0, 0, 0)


class Outcome:
    """A finished game: each seat's total and puddings, the winners, and the decisions taken."""

    __slots__ = ("decisions", "puddings", "totals", "winners")

    def __init__(self, totals: list[int], puddings: list[int], decisions: int) -> None:
        self.totals = totals
        self.puddings = puddings
        self.decisions = decisions
        keys = list(zip(totals, puddings, strict=True))
        best = max(keys)
        self.winners = [seat for seat, key in enumerate(keys) if key == best]


def play(players: int, rng: random.Random) -> Outcome:
    """One game with a random bot in every seat."""
    uniform = rng.random
    bits = rng.getrandbits
    size = DEAL[players]
    needed = size * players
    # The whole deck shuffled at once, sorted by random keys (a sort in C beats a Fisher-Yates loop
    # in Python); each round deals the next cards from the end.
    deck = sorted(DECK, key=lambda _: uniform())
    top = len(deck)
    totals = [0] * players
    puddings = [0] * players
    for _ in range(ROUNDS):
        top -= needed
        hands = [deck[top + seat * size : top + (seat + 1) * size] for seat in range(players)]
        tallies = [[0] * TALLY for _ in range(players)]
        for _ in range(size - 1):
            turn(hands, tallies, bits)
            hands.insert(0, hands.pop())  # seat i passes to seat i + 1
        turn(hands, tallies, bits)  # the last card, the one legal pick: no decision
        for seat, points in enumerate(round_points(tallies)):
            totals[seat] += points
        for seat, tally in enumerate(tallies):
            puddings[seat] += tally[PUDDING]
    for seat, points in enumerate(pudding_points(puddings)):
        totals[seat] += points
    return Outcome(totals, puddings, ROUNDS * (size - 1) * players)


def turn(hands: list[list[int]], tallies: list[list[int]], bits: Callable[[int], int]) -> None:
    """Every seat picks a uniformly random legal command from its hand and places it in its tally.

    A draw is `bits(32) % choices` (`random.Random.getrandbits`): uniform to within choices / 2**32,
    as kaiten's `int(random() * choices)` is to within choices / 2**53, and cheaper than either
    `int()` or `randrange`.
    """
    size = len(hands[0])  # every hand holds as many cards
    pairs = size * size
    for hand, tally in zip(hands, tallies):  # noqa: B905 (equal lengths; `strict=` costs a keyword parse per call)
        if tally[CHOPSTICKS]:
            # size singles, then size * (size - 1) ordered pairs of different cards (a one-card hand:
            # its one single)
            choice = bits(32) % pairs - size
            if choice >= 0:
                first, second = divmod(choice, size - 1)
                if second >= first:
                    second += 1
                kind = hand[first]
                other = hand[second]
                # Swap-remove the higher index first: the lower one stays where it is.
                if first < second:
                    first, second = second, first
                hand[first] = hand[-1]
                hand.pop()
                hand[second] = hand[-1]
                hand.pop()
                tally[kind] += 1
                bonus = BONUS[kind]
                if bonus and tally[WASABI] > tally[USED_WASABI]:
                    tally[USED_WASABI] += 1
                    tally[WASABI_BONUS] += bonus
                tally[other] += 1
                bonus = BONUS[other]
                if bonus and tally[WASABI] > tally[USED_WASABI]:
                    tally[USED_WASABI] += 1
                    tally[WASABI_BONUS] += bonus
                # The earliest chopsticks of the tableau go back into the hand.
                tally[CHOPSTICKS] -= 1
                hand.append(CHOPSTICKS)
                continue
            choice += size
        else:
            choice = bits(32) % size
        kind = hand[choice]
        hand[choice] = hand[-1]
        hand.pop()
        tally[kind] += 1
        bonus = BONUS[kind]
        if bonus and tally[WASABI] > tally[USED_WASABI]:
            tally[USED_WASABI] += 1
            tally[WASABI_BONUS] += bonus


def tally_of(kinds: list[int]) -> list[int]:
    """The tally of a tableau of these kinds, placed in this order by the simulator's own `turn`
    (one-card hands: the one legal pick)."""
    tally = [0] * TALLY
    for kind in kinds:
        turn([[kind]], [tally], random.getrandbits)
    return tally


def round_points(tallies: list[list[int]]) -> list[int]:
    """Each tally's points for the round."""
    points = []
    icons = []
    for tally in tallies:
        points.append(
            5 * (tally[TEMPURA] // 2)
            + 10 * (tally[SASHIMI] // 3)
            + DUMPLINGS[tally[DUMPLING]]
            + 2 * tally[SALMON]
            + 3 * tally[SQUID]
            + tally[EGG]
            + tally[WASABI_BONUS]
        )
        icons.append(tally[MAKI_1] + 2 * tally[MAKI_2] + 3 * tally[MAKI_3])
    most = max(icons)
    if most:
        first = icons.count(most)
        for seat, count in enumerate(icons):
            if count == most:
                points[seat] += 6 // first
        if first == 1:
            second_most = max([count for count in icons if count != most])
            if second_most:
                second = icons.count(second_most)
                for seat, count in enumerate(icons):
                    if count == second_most:
                        points[seat] += 3 // second
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
