"""`setup` (the baskets filled) and `decide`: a command checked against the rules and the events it
leads to; a turn is one command that always ends with a card taken, so nothing `follow`s it."""

from __future__ import annotations

from typing import Final

from kaiten.domain.chance import Chance
from kaiten.domain.engine import NotNow, RuleViolation
from kaiten.domain.spin_some.cards import CARD_KIND, DECK, STEAMED_BUN
from kaiten.domain.spin_some.commands import ReturnBun, Rotate, Take
from kaiten.domain.spin_some.events import BasketsFilled, DimSumTaken, SquishyBunReturned, SquishyBunTaken, TableRotated
from kaiten.domain.spin_some.legal import has_card, paid_options
from kaiten.domain.spin_some.options import SpinOptions
from kaiten.domain.spin_some.state import BASKETS, MAX_STEPS, SpinState, front, is_over, top

Event = SquishyBunReturned | TableRotated | DimSumTaken | SquishyBunTaken

#: The forced free rotation's search order: nearest first, clockwise first.
_NEAREST: Final = (1, -1, 2, -2, 3)


def setup(options: SpinOptions, players: int, chance: Chance) -> tuple[BasketsFilled]:
    """The shuffled deck dealt into the six baskets, as evenly as it goes."""
    deck = chance.shuffled(DECK)
    base, extra = divmod(len(deck), BASKETS)
    piles: list[tuple[int, ...]] = []
    start = 0
    for basket in range(BASKETS):
        size = base + (1 if basket < extra else 0)
        piles.append(tuple(deck[start : start + size]))
        start += size
    filled = BasketsFilled(
        piles=tuple(piles),
        tops=tuple(pile[0] if pile else None for pile in piles),
        sizes=tuple(len(pile) for pile in piles),
    )
    return (filled,)


def _take(state: SpinState, seat: int, basket: int, bun: int | None) -> list[Event]:
    card = top(state, basket)
    assert card is not None
    depth = state.depth[basket] + 1
    pile = state.piles[basket]
    events: list[Event] = [
        DimSumTaken(
            seat=seat,
            basket=basket,
            card=card,
            tokens=state.basket_tokens[basket],
            revealed=pile[depth] if depth < len(pile) else None,
        )
    ]
    if CARD_KIND[card] == STEAMED_BUN and bun != seat:
        events.append(SquishyBunTaken(seat=seat, from_seat=bun))
    return events


def _check_steps(steps: object, low: int) -> int:
    if not isinstance(steps, int) or isinstance(steps, bool) or not low <= steps <= MAX_STEPS or steps == 0:
        raise RuleViolation(
            "invalid-steps",
            f"steps must be {'1..5' if low > 0 else '-5..-1 or 1..5'}, not {steps!r}",
        )
    return steps


def _target(state: SpinState, here: int, steps: int) -> int:
    target = (here + steps) % BASKETS
    if not has_card(state, target):
        raise RuleViolation("target-basket-empty", f"basket {target} is empty: rotate to another one")
    return target


def decide(state: SpinState, seat: int, command: object, chance: Chance) -> list[Event]:
    if seat != state.current or not state.piles or is_over(state):
        raise NotNow("not-your-turn", f"the game is not waiting for seat {seat}")
    here = front(state, seat)
    if isinstance(command, Take):
        if has_card(state, here):
            return _take(state, seat, here, state.bun)
        if paid_options(state, seat, here):
            raise RuleViolation(
                "empty-basket",
                f"basket {here} in front of you is empty: rotate to a non-empty one"
                " (with chopsticks tokens or the squishy bun)",
            )
        steps = next(s for s in _NEAREST if has_card(state, (here + s) % BASKETS))
        target = (here + steps) % BASKETS
        rotated = TableRotated(seat=seat, steps=steps, paid=(), how="empty-basket")
        return [rotated, *_take(state, seat, target, state.bun)]
    if isinstance(command, Rotate):
        steps = _check_steps(command.steps, -MAX_STEPS)
        distance = abs(steps)
        tokens = state.tokens[seat]
        if tokens == 0:
            raise RuleViolation("no-tokens", "you have no chopsticks tokens left to rotate the table")
        if tokens < distance:
            raise RuleViolation(
                "not-enough-tokens",
                f"rotating {distance} steps costs {distance} chopsticks tokens; you have {tokens}",
            )
        target = _target(state, here, steps)
        sign = 1 if steps > 0 else -1
        paid = tuple((here + sign * i) % BASKETS for i in range(distance))
        rotated = TableRotated(seat=seat, steps=steps, paid=paid, how="tokens")
        return [rotated, *_take(state, seat, target, state.bun)]
    if isinstance(command, ReturnBun):
        steps = _check_steps(command.steps, 1)
        if state.bun != seat:
            raise RuleViolation("no-squishy-bun", "you do not hold the squishy bun")
        target = _target(state, here, steps)
        return [
            SquishyBunReturned(seat=seat),
            TableRotated(seat=seat, steps=steps, paid=(), how="squishy-bun"),
            *_take(state, seat, target, None),
        ]
    raise RuleViolation("invalid-command", f"not a Spin Some for Dim Sum command: {command!r}")


def follow(state: SpinState, chance: Chance) -> tuple[()]:
    """Nothing happens in Spin Some but what a seat's command does."""
    return ()
