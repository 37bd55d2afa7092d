"""`decide`: a seat's command checked against the rules, and the events it leads to (chance drawn
here, its outcomes written into the events: the deals).

A turn: each awaited seat sends one `Pick` (one `CardPicked` each, hidden from the others). The last
pick of the turn also reveals every pick at once (`CardsRevealed`), which moves the picks into the
tableaus, puts used chopsticks back into the hands, and passes the hands left. When that leaves one
card per hand, that card is placed automatically (a second `CardsRevealed` with `auto=True`); the
round is then scored (`RoundScored`), and the next round dealt (`HandsDealt`) or, after the third,
the puddings scored (`PuddingsScored`), which ends the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.chance import Chance
from domain.engine import NotNow, RuleViolation, seat_score
from domain.sushi_go.cards import DEAL, DECK_SIZE, IS_CHOPSTICKS, KIND, ROUNDS
from domain.sushi_go.commands import Pick
from domain.sushi_go.events import CardPicked, CardsRevealed, HandsDealt, PuddingsScored, RoundScored
from domain.sushi_go.evolve import _revealed, _round_scored
from domain.sushi_go.legal import has_chopsticks
from domain.sushi_go.scoring import CATEGORIES, pudding_points, round_breakdowns
from domain.sushi_go.state import Cards, SushiGoState

_replace = msgspec.structs.replace


# --- evolve ---------------------------------------------------------------------------------------


# --- decide ---------------------------------------------------------------------------------------


def decide(state: SushiGoState, seat: int, command: Any, chance: Chance) -> list[Any]:
    if state.result is not None:
        raise NotNow("game-finished", "the game is over")
    if type(command) is not Pick:
        raise RuleViolation("invalid-command", f"Sushi Go! takes only pick commands, not {command!r}")
    if seat not in state.awaiting:
        if 0 <= seat < state.players and state.picks[seat]:
            raise RuleViolation("already-picked", "this seat has already picked this turn; picks are final")
        raise NotNow("not-your-turn", f"the game is not waiting for seat {seat}")
    cards = command.cards
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
    picked = CardPicked(seat=seat, cards=cards)
    if len(state.awaiting) > 1:
        return [picked]
    return [picked, *_end_of_turn(state, seat, cards, chance)]


def _end_of_turn(state: SushiGoState, seat: int, cards: Cards, chance: Chance) -> list[Any]:
    picks = list(state.picks)
    picks[seat] = cards
    if any([len(pick) == 2 for pick in picks]):
        # The earliest chopsticks of each tableau that took two cards go back into the hand.
        chopsticks = tuple(
            [
                next(card for card in tableau if IS_CHOPSTICKS[card]) if len(pick) == 2 else None
                for pick, tableau in zip(picks, state.tableaus, strict=False)
            ]
        )
    else:
        chopsticks = (None,) * state.players
    revealed = CardsRevealed(round=state.round, turn=state.turn, picks=tuple(picks), chopsticks=chopsticks)
    if len(state.hands[0]) > 2:
        return [revealed]
    # The round ends: place the last cards, score, then deal again or score the puddings.
    events: list[Any] = [revealed]
    after = _revealed(state, revealed)
    if after.hands and after.hands[0]:
        last = CardsRevealed(
            round=after.round,
            turn=after.turn,
            picks=after.hands,
            chopsticks=(None,) * state.players,
            auto=True,
        )
        events.append(last)
        after = _revealed(after, last)
    return events + end_of_round(after, chance)


def end_of_round(state: SushiGoState, chance: Chance) -> list[Any]:
    """Score a round whose hands are all played, then deal the next one or score the puddings."""
    breakdowns = round_breakdowns([[KIND[card] for card in tableau] for tableau in state.tableaus])
    scored = RoundScored(
        round=state.round,
        scores=tuple([seat_score(seat, breakdown) for seat, breakdown in enumerate(breakdowns)]),
    )
    after = _round_scored(state, scored)
    if state.round < ROUNDS:
        return [scored, deal(after, state.round + 1, chance)]
    counts = tuple([len(kept) for kept in after.puddings])
    points = pudding_points(counts)
    puddings = PuddingsScored(
        puddings=counts,
        scores=tuple(
            [
                seat_score(seat, {**dict.fromkeys(CATEGORIES, 0), "pudding": points[seat]})
                for seat in range(state.players)
            ]
        ),
    )
    return [scored, puddings]


def deal(state: SushiGoState, round_: int, chance: Chance) -> HandsDealt:
    """Deal a round from the remaining deck; if it runs out, the discards are shuffled into it.

    The deck's order is drawn here (a partial Fisher-Yates shuffle of the remaining deck, then of
    the discards if needed), and only the dealt hands are recorded.
    """
    players = state.players
    deck = state.deck
    uniform = chance.rng.random
    available = len(deck) + len(state.discards)
    size = min(DEAL[players], available // players)
    needed = size * players
    reshuffled = len(deck) < needed
    dealt = _draw(list(deck), min(needed, len(deck)), uniform)
    if reshuffled:
        dealt += _draw(sorted(state.discards), needed - len(deck), uniform)
    hands = tuple([tuple(dealt[seat::players]) for seat in range(players)])
    return HandsDealt(round=round_, hand_size=size, hands=hands, reshuffled=reshuffled)


def _draw(pool: list[int], count: int, uniform: Callable[[], float]) -> list[int]:
    """The first `count` cards of a uniform shuffle of `pool` (partial Fisher-Yates)."""
    size = len(pool)
    for index in range(count):
        other = index + int(uniform() * (size - index))
        pool[index], pool[other] = pool[other], pool[index]
    return pool[:count]


# --- legal commands -------------------------------------------------------------------------------
