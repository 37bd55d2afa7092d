"""The rules as the Decider's three functions: `decide` validates and draws, `evolve` folds, and
`legal_commands` lists what a seat may send.

A turn: each awaited seat sends one `Pick` (one `CardPicked` each, hidden from the others). The last
pick of the turn also reveals every pick at once (`CardsRevealed`), which moves the picks into the
tableaus, puts used chopsticks back into the hands, and passes the hands left. When that leaves one
card per hand, that card is placed automatically (a second `CardsRevealed` with `auto=True`); the
round is then scored (`RoundScored`), and the next round dealt (`HandsDealt`) or, after the third,
the puddings scored (`PuddingsScored`), which ends the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import add
from typing import Any

import msgspec

from domain.chance import Chance
from domain.engine import NotNow, Result, RuleViolation, SeatScore, rank_scores, seat_score
from domain.sushi_go.cards import CHOPSTICKS_IDS, DEAL, DECK_SIZE, IS_CHOPSTICKS, IS_PUDDING, KIND, ROUNDS
from domain.sushi_go.commands import SINGLE_PICKS, Pick, pair_picks
from domain.sushi_go.events import CardPicked, CardsRevealed, HandsDealt, PuddingsScored, RoundScored
from domain.sushi_go.scoring import CATEGORIES, pudding_points, round_breakdowns
from domain.sushi_go.state import Cards, SushiGoState

_replace = msgspec.structs.replace
#: Every seat, by player count.
SEATS: dict[int, tuple[int, ...]] = {players: tuple(range(players)) for players in range(1, 9)}


# --- evolve ---------------------------------------------------------------------------------------


def evolve(state: SushiGoState, event: Any) -> SushiGoState:
    kind = type(event)
    if kind is CardPicked:
        return _picked(state, event)
    if kind is CardsRevealed:
        return _revealed(state, event)
    if kind is HandsDealt:
        return _dealt(state, event)
    if kind is RoundScored:
        return _round_scored(state, event)
    if kind is PuddingsScored:
        return _puddings_scored(state, event)
    return state


def _picked(state: SushiGoState, event: CardPicked) -> SushiGoState:
    seat = event.seat
    picks = list(state.picks)
    picks[seat] = event.cards or ()
    awaiting = state.awaiting
    return _replace(
        state,
        picks=tuple(picks),
        awaiting=awaiting[1:] if awaiting[0] == seat else tuple([other for other in awaiting if other != seat]),
    )


def _revealed(state: SushiGoState, event: CardsRevealed) -> SushiGoState:
    picks = event.picks
    hands: list[Cards] = []
    for hand, pick in zip(state.hands, picks, strict=False):
        if len(pick) == 1:
            at = hand.index(pick[0])
            hands.append(hand[:at] + hand[at + 1 :])
        else:
            hands.append(tuple([card for card in hand if card not in pick]))
    tableaus = list(map(add, state.tableaus, picks))
    if event.chopsticks.count(None) != len(event.chopsticks):
        for seat, chopsticks in enumerate(event.chopsticks):
            if chopsticks is not None:
                hands[seat] += (chopsticks,)
                tableaus[seat] = tuple([card for card in tableaus[seat] if card != chopsticks])
    players = state.players
    # Seat i passes to seat i + 1: seat i receives the hand of seat i - 1.
    return _replace(
        state,
        turn=event.turn + 1,
        hands=(hands[-1], *hands[:-1]) if hands else (),
        tableaus=tuple(tableaus),
        picks=((),) * players,
        awaiting=SEATS[players] if hands and len(hands[0]) >= 2 else (),
    )


def _dealt(state: SushiGoState, event: HandsDealt) -> SushiGoState:
    hands = tuple([hand or () for hand in event.hands])
    dealt = {card for hand in hands for card in hand}
    if event.reshuffled:
        pool = sorted((*state.deck, *state.discards))
        discards: Cards = ()
    else:
        pool = list(state.deck)
        discards = state.discards
    players = state.players
    return _replace(
        state,
        round=event.round,
        turn=1,
        deck=tuple([card for card in pool if card not in dealt]),
        hands=hands,
        discards=discards,
        picks=((),) * players,
        awaiting=SEATS[players] if event.hand_size else (),
    )


def _round_scored(state: SushiGoState, event: RoundScored) -> SushiGoState:
    puddings = tuple(
        [
            kept + tuple([card for card in tableau if IS_PUDDING[card]])
            for kept, tableau in zip(state.puddings, state.tableaus, strict=False)
        ]
    )
    played = [card for tableau in state.tableaus for card in tableau if not IS_PUDDING[card]]
    return _replace(
        state,
        totals=tuple([total + score.total for total, score in zip(state.totals, event.scores, strict=False)]),
        scored=(*state.scored, event.scores),
        puddings=puddings,
        discards=(*state.discards, *played),
        tableaus=((),) * state.players,
        hands=((),) * state.players,
        awaiting=(),
    )


def _puddings_scored(state: SushiGoState, event: PuddingsScored) -> SushiGoState:
    scored = (*state.scored, event.scores)
    return _replace(
        state,
        totals=tuple([total + score.total for total, score in zip(state.totals, event.scores, strict=False)]),
        scored=scored,
        awaiting=(),
        result=final_result(scored, event.puddings),
    )


def final_result(scored: Sequence[Sequence[SeatScore]], puddings: Sequence[int]) -> Result:
    """Add up every scored round per seat and category; rank by total, then by puddings."""
    scores = []
    for seat in range(len(puddings)):
        rows = [stage[seat].breakdown for stage in scored]
        breakdown = {category: sum([row.get(category, 0) for row in rows]) for category in CATEGORIES}
        scores.append(seat_score(seat, breakdown))
    return rank_scores(scores, tiebreak=puddings)


# --- decide ---------------------------------------------------------------------------------------


def has_chopsticks(tableau: Cards) -> bool:
    return not CHOPSTICKS_IDS.isdisjoint(tableau)


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


def legal_commands(state: SushiGoState, seat: int) -> list[Pick]:
    """One pick per card of the hand; with chopsticks, also every ordered pair of different cards."""
    if seat not in state.awaiting:
        return []
    hand = state.hands[seat]
    commands = [SINGLE_PICKS[card] for card in hand]
    if len(hand) >= 2 and has_chopsticks(state.tableaus[seat]):
        for first in hand:
            row = pair_picks(first)
            commands.extend([row[second] for second in hand if second != first])
    return commands
