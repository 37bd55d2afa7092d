"""Bots: each sees only its seat's view and its legal commands, and draws randomness from `chance.rng`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from kaiten.domain.chance import Chance
from kaiten.domain.engine import Bot
from kaiten.domain.spin_some.cards import (
    CARD_KIND,
    CHIVE,
    DISH_KINDS,
    EGG_TART,
    FIRST_PLATE,
    KIND_COUNT,
    LARGE_SESAME,
    PLATE_DISH_INDICES,
    SHRIMP,
    SHUMAI,
    SMALL_SESAME,
    STEAMED_BUN,
    TURNIP,
)
from kaiten.domain.spin_some.commands import Command, ReturnBun, Rotate, Take
from kaiten.domain.spin_some.scoring import EGG_TART_POINTS, bun_points
from kaiten.domain.spin_some.state import BASKETS, MENU_SIZE
from kaiten.domain.spin_some.view import SpinView

#: What a chopsticks token is worth while the game runs (half a point at the end, plus spinning power).
TOKEN_VALUE: Final = 0.6
#: What holding the squishy bun is worth while the game runs (a free spin and the tie-breaks).
BUN_HOLD_VALUE: Final = 1.0
_NEAREST: Final = (1, -1, 2, -2, 3)


class RandomBot:
    """Any legal command, uniformly."""

    #: It never reads its view, so it is handed None (see `domain.engine.Bot`).
    reads_view = False

    def choose(self, view: SpinView | None, commands: Sequence[Command], chance: Chance) -> Command:
        return commands[chance.rng.randrange(len(commands))]


def _chance_to_finish(needed: int, slots: int) -> float:
    """A rough likelihood of still completing a set that needs `needed` more cards in `slots` turns."""
    if needed > slots:
        return 0.0
    return 0.6 if slots >= 2 * needed else 0.35


def menu_value(counts: Sequence[int], slots: int) -> float:
    """Points the menu scores now plus a guess at what its unfinished sets may still bring."""
    value = float(counts[SMALL_SESAME] + 2 * counts[LARGE_SESAME])
    turnips = counts[TURNIP]
    if turnips % 2:
        value += 2 * turnips
    elif turnips:
        value += 2 * (turnips + 1) * _chance_to_finish(1, slots)
    tarts = counts[EGG_TART]
    value += EGG_TART_POINTS[min(tarts, 5)]
    if 0 < tarts < 5:
        value += (EGG_TART_POINTS[tarts + 1] - EGG_TART_POINTS[tarts]) * 0.5 * _chance_to_finish(1, slots)
    for kind, size, points in ((SHUMAI, 4, 12), (SHRIMP, 3, 7), (CHIVE, 2, 4)):
        n = counts[kind]
        value += points * (n // size)
        rest = n % size
        if rest:
            value += points * rest / size * _chance_to_finish(size - rest, slots)
    dishes = [sum(counts[k] for k in kinds) for kinds in DISH_KINDS]
    for plate, needed in enumerate(PLATE_DISH_INDICES):
        if counts[FIRST_PLATE + plate]:
            have = [dishes[d] for d in needed]
            sets = min(have)
            missing = sum(1 for h in have if h == sets)
            value += 4 * sets + 4 * (4 - missing) / 4 * _chance_to_finish(missing, slots)
    return value


class GreedyBot:
    """Weighs the card gained (with the tokens lying in its basket) against the tokens or the squishy bun
    spent to reach it."""

    def choose(self, view: SpinView, commands: Sequence[Command], chance: Chance) -> Command:
        if len(commands) == 1:
            return commands[0]
        seat = view.seat
        assert seat is not None
        me = view.players[seat]
        here = me.basket
        counts = [0] * KIND_COUNT
        for card in me.menu:
            counts[CARD_KIND[card]] += 1
        buns = [sum(1 for card in p.menu if CARD_KIND[card] == STEAMED_BUN) for p in view.players]
        slots = MENU_SIZE - len(me.menu) - 1
        last = slots == 0
        best: Command = commands[0]
        best_value = float("-inf")
        cache: dict[tuple[int, bool], float] = {}
        for command in commands:
            if isinstance(command, Take):
                steps = 0
                if view.baskets[here].top is None:
                    steps = next(s for s in _NEAREST if view.baskets[(here + s) % BASKETS].top is not None)
                spent, returned = 0, False
            elif isinstance(command, Rotate):
                steps, spent, returned = command.steps, abs(command.steps), False
            elif isinstance(command, ReturnBun):
                steps, spent, returned = command.steps, 0, True
            else:  # pragma: no cover - the game offers no other command
                continue
            basket = view.baskets[(here + steps) % BASKETS]
            top_card = basket.top
            assert top_card is not None
            kind = CARD_KIND[top_card]
            holds = view.squishy_bun == seat and not returned
            if kind == STEAMED_BUN:
                holds = True
            key = (kind, holds)
            if key not in cache:
                counts[kind] += 1
                after_buns = list(buns)
                if kind == STEAMED_BUN:
                    after_buns[seat] += 1
                holder = seat if holds else (None if view.squishy_bun == seat else view.squishy_bun)
                value = menu_value(counts, slots) + bun_points(after_buns, holder)[seat] * 0.7
                value += (0.3 if last else BUN_HOLD_VALUE) if holds else 0.0
                counts[kind] -= 1
                cache[key] = value
            tokens = me.tokens - spent + basket.tokens
            value = cache[key] + ((tokens // 2) if last else tokens * TOKEN_VALUE)
            if value > best_value:
                best, best_value = command, value
        return best


BOTS: Final[Mapping[str, Callable[[], Bot]]] = {"random": RandomBot, "greedy": GreedyBot}
