"""`decide`: a seat's command checked against the rules, and its events; `follow`: the events the
rules write on their own once every seat has picked (chance drawn there, its outcomes written into
the events: the deals).

A turn: each awaited seat sends one `Pick` (one `CardPicked` each, hidden from the others). Once the
last pick is in, every pick is revealed at once (`CardsRevealed`), which moves the picks into the
tableaus, puts used chopsticks back into the hands, and passes the hands left. When that leaves one
card per hand, that card is placed automatically (a second `CardsRevealed` with `auto=True`); the
round is then scored (`RoundScored`), and the next round dealt (`HandsDealt`) or, after the third,
the puddings scored (`PuddingsScored`), which ends the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import floor
from typing import Any

from kaiten.domain.chance import Chance
from kaiten.domain.engine import NotNow, RuleViolation, seat_score
from kaiten.domain.sushi_go.cards import DEAL, DECK_SIZE, IS_CHOPSTICKS, KIND, ROUNDS
from kaiten.domain.sushi_go.commands import Pick
from kaiten.domain.sushi_go.events import CardPicked, CardsRevealed, HandsDealt, PuddingsScored, RoundScored
from kaiten.domain.sushi_go.legal import has_chopsticks
from kaiten.domain.sushi_go.scoring import CATEGORIES, pudding_points, round_breakdowns
from kaiten.domain.sushi_go.state import Cards, SushiGoState

#: No chopsticks back into any hand, by player count.
NO_CHOPSTICKS: dict[int, tuple[None, ...]] = {players: (None,) * players for players in range(1, 9)}


def decide(state: SushiGoState, seat: int, command: Any, chance: Chance) -> tuple[CardPicked]:
    if state.result is not None:
        raise NotNow("game-finished", "the game is over")
    if type(command) is not Pick:
        raise RuleViolation("invalid-command", f"Sushi Go! takes only pick commands, not {command!r}")
    if seat not in state.awaiting:
        if 0 <= seat < state.players and state.picks[seat]:
            raise RuleViolation("already-picked", "this seat has already picked this turn; picks are final")
        raise NotNow("not-your-turn", f"the game is not waiting for seat {seat}")
    # Read as objects: a caller in Python may send anything, and compiled code would read ints as ints.
    cards: tuple[object, ...] = command.cards
    hand = state.hands[seat]
    if not 1 <= len(cards) <= 2:
        raise RuleViolation("invalid-command", "pick one card, or two with chopsticks")
    for card in cards:
        if type(card) is not int or not 0 <= card < DECK_SIZE:
            raise RuleViolation("unknown-card", f"there is no card {card!r}")
        if card not in hand:
            raise RuleViolation("card-not-in-hand", f"card {card} is not in your hand")
    if len(cards) == 2:
        if cards[0] == cards[1]:
            raise RuleViolation("invalid-command", "the two cards must be different")
        if not has_chopsticks(state.tableaus[seat]):
            raise RuleViolation("no-chopsticks", "two cards need a chopsticks card in your tableau")
    return (CardPicked(seat, command.cards),)


def follow(state: SushiGoState, chance: Chance) -> tuple[Any, ...]:
    """Once nobody is awaited: reveal every pick; place the last cards; score the round; deal the next
    one or score the puddings. One event at a time, each read from the state the one before led to."""
    if state.awaiting or state.result is not None:
        return ()
    hands = state.hands
    if hands and hands[0]:
        if state.picks[0]:
            return (revealed(state.round, state.turn, state.picks, state.tableaus),)
        # One card per hand is left: it is placed automatically.
        return (CardsRevealed(state.round, state.turn, hands, NO_CHOPSTICKS[state.players], True),)
    if len(state.scored) < state.round:
        return (round_scored(state.round, state.tableaus),)
    if state.round < ROUNDS:
        return (deal(state.players, state.deck, state.discards, state.round + 1, chance),)
    return (puddings_scored(state.puddings),)


def revealed(round_: int, turn: int, picks: Sequence[Cards], tableaus: Sequence[Sequence[int]]) -> CardsRevealed:
    """Every pick (all are in), with the chopsticks going back into the hands: the earliest chopsticks
    of each tableau that took two cards. Over a state's tuples or the lists of `bots.play_bots`."""
    if 2 in map(len, picks):
        chopsticks = tuple(
            [
                next(card for card in tableau if IS_CHOPSTICKS[card]) if len(pick) == 2 else None
                for pick, tableau in zip(picks, tableaus)  # noqa: B905 (equal lengths)
            ]
        )
    else:
        chopsticks = NO_CHOPSTICKS[len(picks)]
    return CardsRevealed(round_, turn, tuple(picks), chopsticks)


def round_scored(round_: int, tableaus: Sequence[Sequence[int]]) -> RoundScored:
    """The round's points, its hands all played (a state's tableaus, or `bots.play_bots`' lists)."""
    breakdowns = round_breakdowns([[KIND[card] for card in tableau] for tableau in tableaus])
    return RoundScored(
        round=round_,
        scores=tuple([seat_score(seat, breakdown) for seat, breakdown in enumerate(breakdowns)]),
    )


def puddings_scored(puddings: Sequence[Sequence[int]]) -> PuddingsScored:
    """The puddings' points, after the last round, from the puddings each seat kept."""
    counts = tuple([len(kept) for kept in puddings])
    points = pudding_points(counts)
    return PuddingsScored(
        puddings=counts,
        scores=tuple(
            [
                seat_score(seat, {**dict.fromkeys(CATEGORIES, 0), "pudding": points[seat]})
                for seat in range(len(puddings))
            ]
        ),
    )


def deal(players: int, deck: Sequence[int], discards: Sequence[int], round_: int, chance: Chance) -> HandsDealt:
    """Deal a round from the remaining deck (ascending ids); if it runs out, the discards are shuffled
    into it.

    The deck's order is drawn here (a partial Fisher-Yates shuffle of the remaining deck, then of
    the discards if needed), and only the dealt hands are recorded.
    """
    uniform = chance.rng.random
    available = len(deck) + len(discards)
    size = min(DEAL[players], available // players)
    needed = size * players
    reshuffled = len(deck) < needed
    dealt = _draw(list(deck), min(needed, len(deck)), uniform)
    if reshuffled:
        dealt += _draw(sorted(discards), needed - len(deck), uniform)
    hands = tuple([tuple(dealt[seat::players]) for seat in range(players)])
    return HandsDealt(round=round_, hand_size=size, hands=hands, reshuffled=reshuffled)


def _draw(pool: list[int], count: int, uniform: Callable[[], float]) -> list[int]:
    """The first `count` cards of a uniform shuffle of `pool` (partial Fisher-Yates)."""
    size = len(pool)
    for index in range(count):
        # floor is int() for a float >= 0, and cheaper
        other = index + floor(uniform() * (size - index))
        pool[index], pool[other] = pool[other], pool[index]
    return pool[:count]
