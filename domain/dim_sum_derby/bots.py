"""Bots: ``random`` picks any legal command; ``greedy`` eats what it is hungry for, serves and fetches
the dishes it wants, finishes dishes it will score, and plays Derby cards when they help it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby.cards import (
    CARD_DISH,
    CHANGE_OF_HEART,
    DERBY_KIND,
    DOUBLE_HELPING,
    EXTRA_HUNGRY,
    LAZY_SUSAN,
    PEEK,
    SEND_IT_BACK,
    SHARP_ELBOWS,
    SLOTS,
    SWITCH_PLATES,
    TABLE_LIMIT,
)
from kaiten.domain.dim_sum_derby.commands import Arrange, Cycle, DiscardDerby, DrawDerby, Eat, PlayDerby, Rotate, Serve
from kaiten.domain.dim_sum_derby.view import CartView, DerbyView
from kaiten.domain.engine import Bot


class RandomBot:
    """Any legal command, uniformly."""

    #: It never reads its view, so it is handed None (see `domain.engine.Bot`).
    reads_view = False

    def choose(self, view: Any, commands: Sequence[Any], chance: Chance) -> Any:
        return chance.choice(commands)


class _Situation:
    """What the greedy bot reads off its view once per decision."""

    __slots__ = ("arriving_ccw", "arriving_cw", "front", "full", "markers", "room", "table", "wanted")

    def __init__(self, view: DerbyView) -> None:
        assert view.viewer is not None
        me = view.seats[view.viewer]
        self.wanted = {dish for dish in me.yen if dish is not None}
        self.markers = me.markers
        by_slot: dict[int, CartView] = {cart.slot: cart for cart in view.carts}
        slot = next((cart.slot for cart in view.carts if cart.seat == view.viewer), 0)
        self.front = by_slot.get(slot)
        self.arriving_cw = by_slot.get((slot - 1) % SLOTS)
        self.arriving_ccw = by_slot.get((slot + 1) % SLOTS)
        self.table = {dish.card: dish for dish in view.table}
        self.room = {dish.card: dish.portions - len(dish.markers) for dish in view.table}
        self.full = len(view.table) >= TABLE_LIMIT

    def wants(self, card: int | None) -> bool:
        return card is not None and CARD_DISH[card] in self.wanted

    def wanted_on_table(self) -> bool:
        return any(self.wants(card) and room > 0 for card, room in self.room.items())


def _value(command: Any, s: _Situation, view: DerbyView) -> float:
    kind = type(command)
    front_top = s.front.top if s.front is not None else None
    if kind is Eat:
        room = s.room[command.dish]
        if s.wants(command.dish):
            return 10.0 + (2.0 if room == 1 else 0.0)
        if s.full and not s.wanted_on_table() and s.markers > 1:
            return 1.0 + (1.0 if room == 1 else 0.0)
        return -10.0
    if kind is Serve:
        return 8.0 if s.wants(front_top) else -3.0
    if kind is Cycle:
        return -5.0 if s.wants(front_top) or (s.front is not None and s.front.size < 2) else 3.0
    if kind is Rotate:
        if s.wants(front_top) and not s.full:
            return -4.0
        return 6.0 if s.arriving_cw is not None and s.wants(s.arriving_cw.top) else 2.5
    if kind is DrawDerby:
        return 3.5
    if kind is Arrange:
        return (10.0 if s.wants(command.cards[0]) else 0.0) + (
            1.0 if len(command.cards) > 1 and s.wants(command.cards[1]) else 0.0
        )
    if kind is DiscardDerby:
        return 3.6 if DERBY_KIND[command.card] == CHANGE_OF_HEART else -6.0
    if kind is PlayDerby:
        return _derby_value(command, s, view, front_top)
    return 0.0


def _derby_value(command: PlayDerby, s: _Situation, view: DerbyView, front_top: int | None) -> float:
    derby = DERBY_KIND[command.card]
    if derby == EXTRA_HUNGRY:
        return 9.0
    if derby == DOUBLE_HELPING:
        return 12.0 if s.wants(command.dish) else -10.0
    if derby == SWITCH_PLATES:
        return 11.0 if s.wants(command.to) and not s.wants(command.dish) else -10.0
    if derby == SEND_IT_BACK:
        return 5.0 if s.full and not s.wants(command.dish) else -5.0
    if derby == PEEK:
        return 5.0 if not s.wants(front_top) and s.front is not None and s.front.size > 1 else -5.0
    if derby == LAZY_SUSAN:
        arriving = s.arriving_ccw.top if s.arriving_ccw is not None else None
        return 6.5 if s.wants(arriving) and not s.wants(front_top) else -5.0
    if derby == SHARP_ELBOWS:
        if s.wants(command.dish) or command.target is None or command.dish is None:
            return -5.0
        flipped = view.seats[command.target].yen
        return 4.0 if CARD_DISH[command.dish] in flipped else 1.5
    return -5.0  # change-of-heart


class GreedyBot:
    """Eats, serves or plays a Derby card for the points it brings now, with an eye on its yen cards."""

    def choose(self, view: Any, commands: Sequence[Any], chance: Chance) -> Any:
        situation = _Situation(view)
        rng = chance.rng
        return max(commands, key=lambda command: (_value(command, situation, view), rng.random()))


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot}
