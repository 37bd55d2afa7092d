"""Bots: `random` (any legal command) and `greedy` (the command worth the most right now).

A bot sees only its seat's view and its legal commands, and draws from `chance.rng`. The greedy bot
values each card by what it adds to its tableau now, plus a little for sets it can still finish
with the cards left in the round (a first tempura, two sashimi, a wasabi early on...). It plays
every card type and every bonus action: calls chopsticks when its hand holds two good cards and a
spoon while others hold cards, copies its best card, asks a spoon for its best card, flips with a
takeout box every card worth less than 2, and plays the best card a menu draws.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kaiten.domain.chance import Chance
from kaiten.domain.sushi_go_party.cards import (
    COLOUR,
    FRUIT_ICONS,
    MAKI_ICONS,
    NIGIRI_POINTS,
    NOT_COPYABLE,
    ONIGIRI_SHAPES,
    SLUG,
    URAMAKI_ICONS,
)
from kaiten.domain.sushi_go_party.commands import (
    ChooseMenu,
    Chopsticks,
    Copy,
    Flip,
    Give,
    MenuPick,
    Pick,
    ProposeMenu,
    Spoon,
    Vote,
)
from kaiten.domain.sushi_go_party.scoring import DUMPLING_POINTS as DUMPLING_POINTS_TABLE
from kaiten.domain.sushi_go_party.scoring import (
    fruit_points,
    most_fewest_points,
    onigiri_points,
    round_breakdowns,
)
from kaiten.domain.sushi_go_party.view import PartyView


class RandomBot:
    """Any legal command, uniformly."""

    #: It never reads its view, so it is handed None (see `domain.engine.Bot`).
    reads_view = False

    def choose(self, view: Any, commands: Sequence[Any], chance: Chance) -> Any:
        return commands[chance.rng.randrange(len(commands))]


class _Context:
    """What the greedy bot knows about its own tableau and the table."""

    __slots__ = (
        "colours",
        "counts",
        "desserts",
        "edamame_opponents",
        "free_wasabi",
        "largest",
        "left",
        "maki",
        "most_colours",
        "players",
        "puddings",
        "seat",
        "temaki",
    )

    def __init__(self, view: PartyView) -> None:
        seat = view.seat if view.seat is not None else 0
        self.seat = seat
        tableau = view.tableaus[seat]
        counts: dict[str, int] = {}
        colours: dict[str, int] = {}
        used = {on for _, _, on in tableau if on >= 0}
        free = 0
        for card, slug, _ in tableau:
            counts[slug] = counts.get(slug, 0) + 1
            colour = COLOUR.get(slug)
            if colour is not None:
                colours[colour] = colours.get(colour, 0) + 1
            if slug == "wasabi" and card not in used:
                free += 1
        self.counts = counts
        self.free_wasabi = free
        self.largest = max(colours.values()) if colours else 0
        self.left = len(view.hand or ()) - 1
        self.edamame_opponents = sum(
            1
            for other, entries in enumerate(view.tableaus)
            if other != seat and any(slug == "edamame" for _, slug, _ in entries)
        )
        desserts: dict[str, int] = {}
        for _, slug in view.fridges[seat]:
            desserts[slug] = desserts.get(slug, 0) + 1
        for slug in ("pudding", "green-tea-ice-cream"):
            desserts[slug] = desserts.get(slug, 0) + counts.get(slug, 0)
        for slug in FRUIT_ICONS:
            desserts[slug] = desserts.get(slug, 0) + counts.get(slug, 0)
        self.desserts = desserts
        self.players = view.players
        self.colours = colours
        maki: list[int] = []
        temaki: list[int] = []
        puddings: list[int] = []
        most_colours = 0
        for other, entries in enumerate(view.tableaus):
            slugs = [slug for _, slug, _ in entries]
            maki.append(sum(MAKI_ICONS.get(slug, 0) for slug in slugs))
            temaki.append(slugs.count("temaki"))
            puddings.append(slugs.count("pudding") + sum(1 for _, slug in view.fridges[other] if slug == "pudding"))
            if other != seat:
                most_colours = max(most_colours, len({COLOUR[slug] for slug in slugs if slug in COLOUR}))
        self.maki = maki
        self.temaki = temaki
        self.puddings = puddings
        self.most_colours = most_colours

    def gain(self, values: list[int], add: int, rule: Callable[[list[int]], list[int]]) -> int:
        """How much this seat's points under `rule` change when its value grows by `add`."""
        after = list(values)
        after[self.seat] += add
        return rule(after)[self.seat] - rule(values)[self.seat]

    def value(self, slug: str) -> float:
        """Roughly what playing a card of this slug is worth now."""
        count = self.counts.get(slug, 0)
        left = self.left
        nigiri = NIGIRI_POINTS.get(slug)
        if nigiri is not None:
            return 3.0 * nigiri if self.free_wasabi else float(nigiri)
        if slug in MAKI_ICONS:
            icons = MAKI_ICONS[slug]
            return 1.1 * icons
        if slug in URAMAKI_ICONS:
            return 1.2 * URAMAKI_ICONS[slug]
        if slug in ONIGIRI_SHAPES:
            shapes = [self.counts.get(shape, 0) for shape in ONIGIRI_SHAPES]
            after = [count + (1 if shape == slug else 0) for shape, count in zip(ONIGIRI_SHAPES, shapes, strict=True)]
            return float(onigiri_points(after) - onigiri_points(shapes))
        if slug in FRUIT_ICONS:
            return self._fruit(slug)
        rule: Callable[[_Context, int, int], float] = _VALUES.get(slug, _flat)
        return rule(self, count, left)

    def _fruit(self, slug: str) -> float:
        icons = [0, 0, 0]
        for fruit, count in self.desserts.items():
            if fruit in FRUIT_ICONS:
                for kind, n in enumerate(FRUIT_ICONS[fruit]):
                    icons[kind] += n * count
        after = [icons[kind] + FRUIT_ICONS[slug][kind] for kind in range(3)]
        return float(fruit_points(after) - fruit_points(icons)) + 0.5


def _flat(context: _Context, count: int, left: int) -> float:
    return 0.0


def _tempura(context: _Context, count: int, left: int) -> float:
    return 5.0 if count % 2 else (2.5 if left >= 1 else 0.0)


def _sashimi(context: _Context, count: int, left: int) -> float:
    if count % 3 == 2:
        return 10.0
    if count % 3 == 1:
        return 4.0 if left >= 1 else 0.0
    return 2.5 if left >= 2 else 0.0


def _dumpling(context: _Context, count: int, left: int) -> float:
    return float(DUMPLING_POINTS_TABLE[min(count + 1, 5)] - DUMPLING_POINTS_TABLE[min(count, 5)])


def _eel(context: _Context, count: int, left: int) -> float:
    if count == 0:
        return 1.5 if left >= 2 else -3.0
    return 10.0 if count == 1 else 0.0


def _tofu(context: _Context, count: int, left: int) -> float:
    return (2.0, 4.0, -6.0)[count] if count < 3 else 0.0


def _wasabi(context: _Context, count: int, left: int) -> float:
    return 3.5 if left >= 2 else 0.0


def _temaki(context: _Context, count: int, left: int) -> float:
    gain = context.gain(context.temaki, 1, lambda values: most_fewest_points(values, 4, context.players))
    return 0.7 * gain + 1.0


def _edamame(context: _Context, count: int, left: int) -> float:
    return min(context.edamame_opponents, 4) + 0.5


def _miso(context: _Context, count: int, left: int) -> float:
    return max(0.5, 3.0 - 0.35 * (context.players - 2))


def _tea(context: _Context, count: int, left: int) -> float:
    return 0.8 * (context.largest + 1) + (0.5 if left >= 2 else 0.0)


def _soy(context: _Context, count: int, left: int) -> float:
    colours = len(context.colours) + (0 if "soy-sauce" in context.colours else 1)
    return 4.0 if colours >= context.most_colours else 1.0


def _tool(context: _Context, count: int, left: int) -> float:
    return 2.0 if left >= 3 else 0.0


def _menu(context: _Context, count: int, left: int) -> float:
    return 3.0


def _takeout(context: _Context, count: int, left: int) -> float:
    dead = sum(
        n for slug, n in context.counts.items() if slug in ("chopsticks", "spoon", "wasabi", "soy-sauce", "eel", "tofu")
    )
    return 1.0 + 1.5 * dead


def _special_order(context: _Context, count: int, left: int) -> float:
    options = [slug for slug in context.counts if slug not in NOT_COPYABLE]
    return max((context.value(slug) for slug in options), default=0.0)


def _pudding(context: _Context, count: int, left: int) -> float:
    return context.gain(context.puddings, 1, lambda values: most_fewest_points(values, 6, context.players)) + 1.0


def _green_tea(context: _Context, count: int, left: int) -> float:
    return 12.0 if context.desserts.get("green-tea-ice-cream", 0) % 4 == 3 else 3.0


_VALUES: dict[str, Callable[[_Context, int, int], float]] = {
    "tempura": _tempura,
    "sashimi": _sashimi,
    "dumpling": _dumpling,
    "eel": _eel,
    "tofu": _tofu,
    "wasabi": _wasabi,
    "temaki": _temaki,
    "edamame": _edamame,
    "miso-soup": _miso,
    "tea": _tea,
    "soy-sauce": _soy,
    "chopsticks": _tool,
    "spoon": _tool,
    "menu": _menu,
    "takeout-box": _takeout,
    "special-order": _special_order,
    "pudding": _pudding,
    "green-tea-ice-cream": _green_tea,
}


class GreedyBot:
    """The card worth roughly the most points now, counting what its sets, majorities and desserts may still
    bring; a copy, chopsticks, a spoon or a menu pick is weighed by the card it brings."""

    def choose(self, view: Any, commands: Sequence[Any], chance: Chance) -> Any:
        first = commands[0]
        kind = type(first)
        if kind is Pick:
            return self._pick(view, commands)
        if kind is Copy or kind is Chopsticks or kind is MenuPick:
            context = _Context(view)
            slugs = self._slugs(view)
            return max(commands, key=lambda command: context.value(slugs.get(command.card, SLUG[command.card])))
        if kind is Spoon:
            context = _Context(view)
            return max(commands, key=lambda command: context.value(command.request))
        if kind is Give:
            context = _Context(view)
            return min(commands, key=lambda command: context.value(SLUG[command.card]))
        if kind is Flip:
            return self._flip(view, commands)
        if kind is ChooseMenu or kind is ProposeMenu:
            return commands[chance.rng.randrange(len(commands))]
        if kind is Vote:
            return first if first.approve else commands[-1]
        return first

    @staticmethod
    def _slugs(view: PartyView) -> dict[int, str]:
        seat = view.seat if view.seat is not None else 0
        return {card: slug for card, slug, _ in view.tableaus[seat]}

    @staticmethod
    def _pick(view: PartyView, commands: Sequence[Any]) -> Any:
        context = _Context(view)
        hand = view.hand or ()
        values = {card: context.value(SLUG[card]) for card in hand}
        ranked = sorted(values.values(), reverse=True)
        second = ranked[1] if len(ranked) > 1 else 0.0
        others_hold = len(hand) > 1
        slugs = GreedyBot._slugs(view)
        best = None
        best_value = float("-inf")
        for command in commands:
            value = values[command.card]
            if command.call is not None:
                if slugs.get(command.call) == "chopsticks":
                    value += 0.8 * second - 1.5
                else:
                    value += 2.5 if others_hold else -1.0
            if value > best_value:
                best, best_value = command, value
        return best

    @staticmethod
    def _flip(view: PartyView, commands: Sequence[Any]) -> Any:
        seat = view.seat if view.seat is not None else 0
        assert view.menu is not None
        categories = [name for name in view.menu.types() if name != view.menu.dessert] + ["takeout-box"]
        tableaus = list(view.tableaus)

        def total() -> int:
            return sum(round_breakdowns(tableaus, view.players, categories)[seat].values())

        base = total()
        own = tableaus[seat]
        loss: dict[int, int] = {}
        for at, (card, _, _) in enumerate(own):
            tableaus[seat] = own[:at] + own[at + 1 :]
            loss[card] = base - total()
        tableaus[seat] = own
        return max(commands, key=lambda command: sum(2 - loss.get(card, 0) for card in command.cards))
