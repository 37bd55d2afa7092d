"""Sushi Go Party!'s observations read off the state, kept up to date from one state to the next.

Every seat's observation (laid out in `sushi_go_party.py`) is one ordering of the same numbers: the
phase, the menu, the scalars, the waiting bonus action and the cards it offers, every seat's tableau
and fridge, totals, uramaki icons and points, and every seat's hand. `_orders` gives, per observer,
whether it observes its own view or a spectator's, and whether the bonus action asks it, where each
number of its observation is among them.

A `PartyObserver` keeps those numbers from the state it last observed (see `KeptNumbers`). The
names the observations count by (slugs, card types, desserts, phases, bonus actions) are here too.
"""

from __future__ import annotations

from array import array
from functools import cache, lru_cache
from struct import Struct
from typing import Any

import numpy as np

from kaiten.domain.sushi_go_party.cards import DESSERT_SLUGS, FACE_DOWN, SLUG, TYPES, URAMAKI_PLACES
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY
from kaiten.domain.sushi_go_party.options import MenuSpec
from kaiten.domain.sushi_go_party.state import Cards, PartyState, Prompt, Tableau
from kaiten.environments.features import KeptNumbers, per_player_count, turn_order

SLUGS: tuple[str, ...] = tuple(variant.slug for card_type in TYPES for variant in card_type.variants)
SLUG_INDEX: dict[str, int] = {slug: index for index, slug in enumerate(SLUGS)}
#: A card's slug's index, per card id.
SLUG_INDEX_OF_CARD = tuple(SLUG_INDEX[slug] for slug in SLUG)
TYPE_INDEX: dict[str, int] = {card_type.type: index for index, card_type in enumerate(TYPES)}
DESSERTS: tuple[str, ...] = tuple(slug for slug in SLUGS if slug in DESSERT_SLUGS)
DESSERT_INDEX: dict[str, int] = {slug: index for index, slug in enumerate(DESSERTS)}
PHASES = ("select", "pick", "resolve", "over")
PHASE_INDEX = {phase: index for index, phase in enumerate(PHASES)}
PROMPTS = ("copy", "chopsticks", "spoon", "give", "menu", "flip")
PROMPT_INDEX = {prompt: index for index, prompt in enumerate(PROMPTS)}

_SLOT = len(SLUGS)
#: Where a tableau entry counts, per slug it scores as (face down after the slugs).
_TABLEAU_INDEX = {**SLUG_INDEX, FACE_DOWN: _SLOT}
# Where each group of a `PartyObserver`'s numbers starts (in float32s) before the per-seat groups:
# the phase and the menu (one-hots), the scalars (round, turn, hand size, deck size, dessert pile
# size, passing right) and the next uramaki points, the bonus action's kind and the cards it offers,
# a 0 and a 1 (the flag of the seat asked), then every seat's cards: its tableau per slug and face
# down, and its fridge per dessert.
_MENU = len(PHASES)
_SCALARS = _MENU + len(TYPE_INDEX)
_URAMAKI = _SCALARS + 6
_PROMPT = _URAMAKI + 1
_OPTIONS = _PROMPT + len(PROMPTS)
_ZERO = _OPTIONS + _SLOT
_ONE = _ZERO + 1
_CARDS = _ONE + 1
_FRIDGE = _SLOT + 1
_CARD_FEATURES = _FRIDGE + len(DESSERTS)


class _Layout:
    """Where the per-seat groups of one player count start, in float32s."""

    def __init__(self, players: int) -> None:
        #: Every seat's total, then its uramaki icons, then its uramaki points.
        self.tail = _CARDS + players * _CARD_FEATURES
        self.hands = self.tail + 3 * players
        self.size = self.hands + players * _SLOT


_LAYOUTS = per_player_count(SUSHI_GO_PARTY, _Layout)


class PartyObserver(KeptNumbers):
    """Observations of the states of games of one player count, for one owner at a time (an
    environment or a match): it keeps the numbers of the state it last observed."""

    __slots__ = (
        "_fridges",
        "_hand_at",
        "_hands",
        "_icons",
        "_menu",
        "_orders",
        "_phase",
        "_points",
        "_prompt",
        "_seat_fridges",
        "_seat_tableaus",
        "_tableaus",
        "_tail",
        "_tail_at",
        "_totals",
    )

    def __init__(self, players: int) -> None:
        layout = _LAYOUTS[players]
        super().__init__(players, layout.size)
        self._cells[_ONE] = 1.0
        self._orders = _orders(players)
        self._hand_at = tuple(layout.hands + seat * _SLOT for seat in range(players))
        self._tail_at = 4 * layout.tail
        self._tail = _TAILS[players]
        # What the numbers were read from (None: nothing yet).
        self._phase: str | None = None
        self._menu: MenuSpec | None = None
        self._hands: list[Cards | None] = [None] * players
        self._prompt: Prompt | None = None
        self._tableaus: Any = None
        self._seat_tableaus: list[Tableau | None] = [None] * players
        self._fridges: Any = None
        self._seat_fridges: list[Any] = [None] * players
        self._totals: Any = None
        self._icons: Any = None
        self._points: Any = None

    def _read(self, party: Any, seat: int) -> None:
        # Called at every step: typed rather than checked.
        state: PartyState = party
        numbers = self._numbers
        phase, menu = state.phase, state.menu
        if phase is not self._phase or menu is not self._menu:
            self._phase, self._menu = phase, menu
            numbers[: 4 * _SCALARS] = _phase_and_menu(phase, menu)
        hands = state.hands
        # What `view` shows the seat, read straight off the state.
        _SCALAR_NUMBERS.pack_into(
            numbers,
            4 * _SCALARS,
            state.round,
            state.turn,
            len(hands[0]) if hands else 0,
            len(state.deck),
            len(state.dessert_pile),
            state.pass_both_ways and state.round == 2,
            _URAMAKI_NEXT[state.uramaki_claimed],
        )
        # Every hand changes at a reveal, and each seat is observed about once a turn: counted here
        # rather than in a method, a frame less.
        hand = hands[seat]
        if hand is not self._hands[seat]:
            self._hands[seat] = hand
            at = self._hand_at[seat]
            numbers[4 * at : 4 * (at + _SLOT)] = _NO_CARDS
            counts = self._cells
            for card in hand:
                counts[at + SLUG_INDEX_OF_CARD[card]] += 1.0
        prompt = state.prompt
        if prompt is not self._prompt:
            self._read_prompt(prompt)
        if state.tableaus is not self._tableaus:
            self._read_tableaus(state.tableaus)
        if state.fridges is not self._fridges:
            self._read_fridges(state.fridges)
        totals, icons, points = state.totals, state.uramaki_icons, state.uramaki_points
        if totals is not self._totals or icons is not self._icons or points is not self._points:
            self._totals, self._icons, self._points = totals, icons, points
            self._tail.pack_into(numbers, self._tail_at, *totals, *icons, *points)

    def _order_of(self, party: Any, seat: int, private: bool) -> np.ndarray[Any, np.dtype[np.intp]]:
        prompt: Prompt | None = party.prompt
        # Nobody is shown a menu's draw; the asked seat alone sees its options.
        asked = prompt is not None and prompt.seat == seat and prompt.kind != "draw-menu"
        return self._orders[seat][2 * private + asked]

    def _read_prompt(self, prompt: Prompt | None) -> None:
        self._prompt = prompt
        self._numbers[4 * _PROMPT : 4 * _ZERO] = _NO_PROMPT
        if prompt is not None and prompt.kind != "draw-menu":
            counts = self._cells
            counts[_PROMPT + PROMPT_INDEX[prompt.kind]] = 1.0
            for card in prompt.options:
                counts[_OPTIONS + SLUG_INDEX_OF_CARD[card]] += 1.0

    def _read_tableaus(self, tableaus: tuple[Tableau, ...]) -> None:
        self._tableaus = tableaus
        numbers, counts, held = self._numbers, self._cells, self._seat_tableaus
        for seat, tableau in enumerate(tableaus):
            before = held[seat]
            if tableau is before:
                continue
            held[seat] = tableau
            at = _CARDS + seat * _CARD_FEATURES
            # A reveal adds a card to every tableau and leaves the cards already there as they were.
            if before is not None and len(tableau) == len(before) + 1 and tableau[:-1] == before:
                counts[at + _TABLEAU_INDEX[tableau[-1][1]]] += 1.0
                continue
            numbers[4 * at : 4 * (at + _FRIDGE)] = _NO_TABLEAU
            for _, slug, _ in tableau:
                counts[at + _TABLEAU_INDEX[slug]] += 1.0

    def _read_fridges(self, fridges: tuple[tuple[tuple[int, str], ...], ...]) -> None:
        self._fridges = fridges
        numbers, counts, held = self._numbers, self._cells, self._seat_fridges
        for seat, fridge in enumerate(fridges):
            if fridge is not held[seat]:
                held[seat] = fridge
                at = _CARDS + seat * _CARD_FEATURES + _FRIDGE
                numbers[4 * at : 4 * (at + len(DESSERTS))] = _NO_FRIDGE
                for _, slug in fridge:
                    counts[at + DESSERT_INDEX[slug]] += 1.0


@cache
def _orders(players: int) -> tuple[tuple[np.ndarray[Any, np.dtype[np.intp]], ...], ...]:
    """Per seat, then per `2 * private + asked` (whether the observation is its own view's rather
    than a spectator's, whether the bonus action asks it): where each number of its observation is
    among a `PartyObserver`'s numbers. A spectator's view shows no hand and no options, but whom
    the bonus action asks."""
    layout = _LAYOUTS[players]
    orders = []
    for seat in range(players):
        scalars = [*range(_MENU), *range(_SCALARS, _URAMAKI), *range(_MENU, _SCALARS)]
        hand = range(layout.hands + seat * _SLOT, layout.hands + (seat + 1) * _SLOT)
        seats: list[int] = []
        for other in turn_order(players)[seat]:
            at = _CARDS + other * _CARD_FEATURES
            seats += range(at, at + _CARD_FEATURES)
            seats += (layout.tail + other, layout.tail + players + other, layout.tail + 2 * players + other)
        by_mode = []
        for private in (False, True):
            head = [*scalars, *(hand if private else [_ZERO] * _SLOT), *range(_PROMPT, _OPTIONS)]
            options = range(_OPTIONS, _ZERO) if private else [_ZERO] * _SLOT
            by_mode.append([*head, *[_ZERO] * (1 + _SLOT), _URAMAKI, *seats])
            by_mode.append([*head, _ONE, *options, _URAMAKI, *seats])
        orders.append(tuple(np.array(order, np.intp) for order in by_mode))
    return tuple(orders)


@lru_cache(maxsize=1 << 8)
def _phase_and_menu(phase: str, menu: MenuSpec | None) -> bytes:
    """The phase one-hot and the menu's card types one-hot."""
    out = array("f", bytes(4 * _SCALARS))
    out[PHASE_INDEX[phase]] = 1.0
    for name in menu.types() if menu is not None else ():
        out[_MENU + TYPE_INDEX[name]] = 1.0
    return out.tobytes()


#: The next uramaki place's points, per places claimed (0 once all are).
_URAMAKI_NEXT = (*URAMAKI_PLACES, 0)
_SCALAR_NUMBERS = Struct("<7f")
_TAILS = {players: Struct(f"<{3 * players}f") for players in _LAYOUTS}
_NO_CARDS = bytes(4 * _SLOT)
_NO_PROMPT = bytes(4 * (_ZERO - _PROMPT))
_NO_TABLEAU = bytes(4 * _FRIDGE)
_NO_FRIDGE = bytes(4 * len(DESSERTS))
