"""Builders for hand-made Dim Sum Derby states and table-driven games."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from msgspec import UNSET
from msgspec.structs import replace

from kaiten.domain import engine, lobby
from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby.cards import (
    ACTIONS_PER_TURN,
    CARD_CART,
    CART_DECKS,
    COPIES,
    DERBY_CARDS,
    DERBY_COPIES,
    DERBY_KINDS,
    DISH_BY_SLUG,
    DISH_CARDS,
    MARKERS,
    YEN_CARDS,
    YEN_DECKS,
)
from kaiten.domain.dim_sum_derby.evolve import evolve
from kaiten.domain.dim_sum_derby.game import DIM_SUM_DERBY as GAME
from kaiten.domain.dim_sum_derby.options import DerbyOptions
from kaiten.domain.dim_sum_derby.state import DerbyState
from tests.unit import bot_games

DERBY_BY_SLUG = {kind.slug: index for index, kind in enumerate(DERBY_KINDS)}


def dish(slug: str, copy: int = 0) -> int:
    """The dish card id of a copy of a dish."""
    return DISH_BY_SLUG[slug] * COPIES + copy


def yen(slug: str) -> int:
    return DISH_BY_SLUG[slug]


def derby(slug: str, copy: int = 0) -> int:
    return DERBY_BY_SLUG[slug] * DERBY_COPIES + copy


#: Default yen cards: seat s holds the s-th dish of each cart.
DEFAULT_YEN = tuple(tuple(YEN_DECKS[cart][seat] for cart in range(4)) for seat in range(4))


def make_state(
    *,
    players: int = 3,
    first_player: int = 0,
    turn_seat: int | None = None,
    actions_left: int = ACTIONS_PER_TURN,
    tops: Sequence[Sequence[int]] = ((), (), (), ()),
    exact_carts: bool = False,
    table: Sequence[tuple[int, Sequence[int]]] = (),
    discards: Sequence[Sequence[int]] = ((), (), (), ()),
    yen_cards: Sequence[Sequence[int]] | None = None,
    portions: Sequence[Sequence[int]] | None = None,
    supply: Sequence[int] | None = None,
    lost: Sequence[int] | None = None,
    hands: Sequence[Sequence[int]] | None = None,
    derby_deck: Sequence[int] | None = None,
    derby_discard: Sequence[int] = (),
    slots: tuple[int, ...] = (0, 1, 2, 3),
    turn: int = 1,
    rules_version: int = 1,
) -> DerbyState:
    """A dealt state. Carts hold ``tops`` (card ids, top first) then, unless ``exact_carts``, every other
    card of their type not on the table or in a discard pile, in id order. Markers on table dishes are
    taken from the seats' supplies unless ``supply`` is given. Unused Derby cards form the deck."""
    placed = {card for card, _ in table} | {card for pile in discards for card in pile}
    carts = []
    for cart in range(4):
        top = tuple(tops[cart])
        rest = () if exact_carts else tuple(c for c in CART_DECKS[cart] if c not in placed and c not in top)
        carts.append(top + rest)
    yen_cards = tuple(tuple(y) for y in (yen_cards or DEFAULT_YEN[:players]))
    held = {y for seat_yen in yen_cards for y in seat_yen}
    yen_decks = tuple(tuple(y for y in YEN_DECKS[cart] if y not in held) for cart in range(4))
    hands = tuple(tuple(h) for h in (hands or [()] * players))
    in_hands = {card for hand in hands for card in hand} | set(derby_discard)
    deck = tuple(derby_deck) if derby_deck is not None else tuple(c for c in range(DERBY_CARDS) if c not in in_hands)
    portions = tuple(tuple(p) for p in (portions or [(0, 0, 0, 0)] * players))
    on_table = [0] * players
    for _, markers in table:
        for seat in markers:
            on_table[seat] += 1
    lost = tuple(lost or (0,) * players)
    if supply is None:
        supply = tuple(MARKERS - on_table[s] - sum(portions[s]) - lost[s] for s in range(players))
    return DerbyState(
        players=players,
        first_player=first_player,
        carts=tuple(carts),
        slots=slots,
        dish_discards=tuple(tuple(pile) for pile in discards),
        table=tuple(card for card, _ in table),
        markers_on=tuple(tuple(markers) for _, markers in table),
        supply=tuple(supply),
        lost=lost,
        yen=yen_cards,
        portions=portions,
        yen_decks=yen_decks,
        derby_deck=deck,
        derby_discard=tuple(derby_discard),
        hands=hands,
        turn_seat=first_player if turn_seat is None else turn_seat,
        actions_left=actions_left,
        turn=turn,
        dealt=True,
        rules_version=UNSET if rules_version == 1 else rules_version,
    )


def run(state: DerbyState, seat: int, command: Any, seed: int = 0) -> tuple[list[Any], DerbyState]:
    """Decide a command and fold its events."""
    events, state = engine.play(GAME, state, seat, command, Chance(seed, 1))
    return list(events), state


def types(events: Sequence[Any]) -> list[str]:
    return [type(event).__name__ for event in events]


def dealt(players: int = 3, seed: int = 1, first_player: int = 0, rules_version: int | None = None) -> DerbyState:
    """A freshly dealt game, under the newest rules unless `rules_version` says otherwise."""
    options = DerbyOptions(first_player=first_player)
    game = GAME if rules_version is None else GAME.at_rules_version(rules_version)
    state = game.initial_state(options, players)
    for event in game.setup(options, players, Chance(seed, 0)):
        state = evolve(state, event)
    return state


new_table = partial(bot_games.new_table, GAME)
step = partial(bot_games.step, GAME)
play = partial(bot_games.play, GAME)


def check_conservation(state: DerbyState) -> None:
    """Every card is in exactly one place; every seat's 10 markers are accounted for."""
    dishes = [c for cart in state.carts for c in cart] + list(state.table)
    dishes += [c for pile in state.dish_discards for c in pile]
    assert sorted(dishes) == list(range(DISH_CARDS))
    for cart, cards in enumerate(state.carts):
        assert all(CARD_CART[c] == cart for c in cards)
    for cart, pile in enumerate(state.dish_discards):
        assert all(CARD_CART[c] == cart for c in pile)
    yens = [y for seat_yen in state.yen for y in seat_yen] + [y for deck in state.yen_decks for y in deck]
    assert sorted(yens) == list(range(YEN_CARDS))
    for cart in range(4):
        assert all(seat_yen[cart] in YEN_DECKS[cart] for seat_yen in state.yen)
        assert all(y in YEN_DECKS[cart] for y in state.yen_decks[cart])
    derbies = list(state.derby_deck) + list(state.derby_discard) + [c for hand in state.hands for c in hand]
    assert sorted(derbies) == list(range(DERBY_CARDS))
    for seat in range(state.players):
        on_table = sum(markers.count(seat) for markers in state.markers_on)
        total = state.supply[seat] + on_table + sum(state.portions[seat]) + state.lost[seat]
        assert total == MARKERS, (seat, state.supply[seat], on_table, state.portions[seat], state.lost[seat])
        assert state.supply[seat] >= 0
    assert len(state.table) == len(state.markers_on) <= 5
    assert all(len(hand) <= 2 for hand in state.hands)


def with_state(table: lobby.Table, state: DerbyState) -> lobby.Table:
    return replace(table, state=state)
