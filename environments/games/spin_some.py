"""Sushi Go! Spin Some for Dim Sum (`spin-some-for-dim-sum`, 2-6 players) for the environments.

**Actions** (16, one per command, for every player count):

- 0: `take` (no rotation; or the forced free rotation when no other command is legal);
- 1..10: `rotate` by -5..-1, then 1..5 steps (paid in chopsticks tokens);
- 11..15: `return-bun` and rotate 1..5 steps clockwise for free.

**Observation** (`6 * (K + 2) + players * (K + 2) + 2` numbers, `K` = 23 card kinds in catalog
order: the 8 dishes, then the 15 special plates):

- the six baskets, starting with the one in front of the observer and going clockwise: the top
  card's kind one-hot (all zero when empty), cards left, chopsticks tokens lying in it;
- per seat, in turn from the observer: menu cards per kind, chopsticks tokens, 1 when it holds the
  squishy bun;
- 1 when the squishy bun is in the middle; cards taken by the observer so far.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from kaiten.domain.spin_some.cards import CARD_KIND, CARD_SLUG, SLUGS
from kaiten.domain.spin_some.commands import ReturnBun, Rotate, Take
from kaiten.domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM
from kaiten.domain.spin_some.state import BASKETS, MAX_STEPS, MENU_SIZE, SpinState, front, top
from kaiten.environments.games.spin_some_observer import BLOCK, SpinSomeObserver
from kaiten.environments.render import card_list, scores_line
from kaiten.environments.spec import ActionTable, Observer

ROTATIONS = tuple(steps for steps in range(-MAX_STEPS, MAX_STEPS + 1) if steps)


def _name(key: Hashable) -> str:
    assert isinstance(key, tuple)
    return key[0] if len(key) == 1 else f"{key[0]} {key[1]:+d}"


_ACTIONS = ActionTable(
    [("take",), *[("rotate", steps) for steps in ROTATIONS], *[("return-bun", s) for s in range(1, MAX_STEPS + 1)]],
    _name,
)

_TAKE = _ACTIONS.index[("take",)]
_ROTATE = {steps: _ACTIONS.index[("rotate", steps)] for steps in ROTATIONS}
_RETURN_BUN = {steps: _ACTIONS.index[("return-bun", steps)] for steps in range(1, MAX_STEPS + 1)}


class SpinSomeSpec:
    game = SPIN_SOME_FOR_DIM_SUM
    simultaneous = False
    utility_bound = 300.0

    def actions(self, players: int) -> ActionTable:
        return _ACTIONS

    def actions_of(self, state: Any, seat: int, commands: Sequence[Any]) -> list[int]:
        actions = []
        for command in commands:
            kind = type(command)
            if kind is Take:
                actions.append(_TAKE)
            elif kind is Rotate:
                actions.append(_ROTATE[command.steps])
            elif kind is ReturnBun:
                actions.append(_RETURN_BUN[command.steps])
            else:
                raise TypeError(f"not a Spin Some for Dim Sum command: {command!r}")
        return actions

    def observation_size(self, players: int) -> int:
        return (BASKETS + players) * BLOCK + 2

    def observer(self, players: int) -> Observer:
        return SpinSomeObserver(players)

    def simultaneous_now(self, state: Any) -> bool:
        return False

    def max_moves(self, players: int) -> int:
        # One turn per card taken, and the chance step that fills the baskets.
        return MENU_SIZE * players + 1

    def render(self, state: Any) -> str:
        assert isinstance(state, SpinState)
        lines = [f"Spin Some for Dim Sum: seat {state.current} to play; squishy bun: {state.bun}"]
        for basket in range(BASKETS):
            card = top(state, basket) if state.piles else None
            facing = [seat for seat in range(state.players) if front(state, seat) == basket]
            lines.append(
                f"basket {basket}: top {SLUGS[CARD_KIND[card]] if card is not None else '-'}"
                f" tokens {state.basket_tokens[basket]} facing {facing}"
            )
        for seat in range(state.players):
            menu = card_list(state.menus[seat], CARD_SLUG.__getitem__)
            lines.append(f"seat {seat}: menu [{menu}] tokens {state.tokens[seat]}")
        lines.append(scores_line(SPIN_SOME_FOR_DIM_SUM.result(state)))
        return "\n".join(line for line in lines if line)


SPEC = SpinSomeSpec()
