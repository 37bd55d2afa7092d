"""`legal_commands`: every command the seat whose turn it is may send (none for the others)."""

from __future__ import annotations

from typing import Final

from kaiten.domain.spin_some.commands import Command, ReturnBun, Rotate, Take
from kaiten.domain.spin_some.state import BASKETS, MAX_STEPS, SpinState, front, is_over

TAKE: Final = Take()

ROTATE: Final = {steps: Rotate(steps=steps) for steps in range(-MAX_STEPS, MAX_STEPS + 1) if steps}

RETURN_BUN: Final = {steps: ReturnBun(steps=steps) for steps in range(1, MAX_STEPS + 1)}

#: Paid rotations in the order legal_commands lists them: 1, -1, 2, -2, ...
_ROTATIONS: Final = tuple(s for k in range(1, MAX_STEPS + 1) for s in (k, -k))


def has_card(state: SpinState, basket: int) -> bool:
    return state.depth[basket] < len(state.piles[basket])


def paid_options(state: SpinState, seat: int, here: int) -> list[Command]:
    out: list[Command] = []
    tokens = state.tokens[seat]
    for steps in _ROTATIONS:
        if abs(steps) <= tokens and has_card(state, (here + steps) % BASKETS):
            out.append(ROTATE[steps])
    if state.bun == seat:
        for steps in range(1, MAX_STEPS + 1):
            if has_card(state, (here + steps) % BASKETS):
                out.append(RETURN_BUN[steps])
    return out


def legal_commands(state: SpinState, seat: int) -> list[Command]:
    if seat != state.current or not state.piles or is_over(state):
        return []
    here = front(state, seat)
    others = paid_options(state, seat, here)
    if has_card(state, here):
        return [TAKE, *others]
    if others:
        return others
    return [TAKE]  # the forced free rotation (is_over is False, so some basket still has a card)
