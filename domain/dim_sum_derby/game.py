"""The Dim Sum Derby game object (game id ``dim-sum-derby``), implementing ``domain.engine.Game``.

Rules versions (`rules_versions`; a game keeps the version it was created with):

- **1** (kaiten 0.1.0): the Kitchen sits on the first player's right, between the last seat and the first.
- **2**: the Kitchen sits directly to the **left** of the first player (seed 004), between the first
  player and the second; `lazy-susan` mirrors it. The state of a version-2 game carries its
  `rules_version` and the cart geometry reads it (`rules.Layout`); everything else is shared.

Every outcome is an event in both versions (a rotation, a refill from the Kitchen, a scored dish, a
full player...): `decide` works them out and `evolve` only applies them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from domain.chance import Chance
from domain.dim_sum_derby.bots import BOTS
from domain.dim_sum_derby.cards import (
    ACTIONS_PER_TURN,
    CARD_DISH,
    CART_DECKS,
    CART_NAMES,
    CART_SLUGS,
    CART_TYPES,
    COPIES,
    DERBY_CARDS,
    DERBY_COPIES,
    DERBY_HAND_LIMIT,
    DERBY_KIND,
    DERBY_KINDS,
    DISHES,
    HOUSE_CONTENT,
    MARKERS,
    ROUND_LIMIT,
    TABLE_LIMIT,
    YEN_DECKS,
)
from domain.dim_sum_derby.commands import DerbyCommand
from domain.dim_sum_derby.decide import decide
from domain.dim_sum_derby.events import EVENT_TYPES, DerbyDealt, DerbyPlayed, PortionEaten
from domain.dim_sum_derby.evolve import evolve
from domain.dim_sum_derby.legal import legal_commands
from domain.dim_sum_derby.options import DerbyOptions, check_options
from domain.dim_sum_derby.scoring import CATEGORIES, DerbyScoreRequest, final_result, score_request
from domain.dim_sum_derby.state import DerbyState
from domain.dim_sum_derby.view import DerbyView, redact, view
from domain.engine import Bot, Result, RulesVersion, RulesVersioned, SeatScore, breakdown_type

KITCHEN_LEFT = (
    "the Kitchen sits directly to the left of the first player (seed 004), between the first and the second "
    "player; lazy-susan mirrors it"
)


class DimSumDerby(RulesVersioned):
    id = "dim-sum-derby"
    name = "Dim Sum Derby"
    #: The prefix of the names of this game's types in the API's schema (`DerbyTableView`).
    type_prefix = "Derby"
    min_players = 3
    rules_versions: tuple[RulesVersion, ...] = (
        RulesVersion(1, ("the Kitchen on the first player's right, between the last and the first player",)),
        RulesVersion(2, (KITCHEN_LEFT,)),
    )
    max_players = 4
    options_type: type[msgspec.Struct] = DerbyOptions
    #: What `view` answers and what `evolve` folds, and the result: the API's schema types them.
    decks: Mapping[str, Sequence[str]] = {
        "dishes": tuple(DISHES[dish].slug for dish in CARD_DISH),
        "yen": tuple(dish.slug for dish in DISHES),
        "derby": tuple(DERBY_KINDS[kind].slug for kind in DERBY_KIND),
    }
    breakdown_type = breakdown_type("DerbyBreakdown", CATEGORIES)
    view_type: type[msgspec.Struct] = DerbyView
    state_type: type[msgspec.Struct] = DerbyState
    result_type: type[msgspec.Struct] = Result
    command_type: Any = DerbyCommand
    event_types: tuple[type[msgspec.Struct], ...] = EVENT_TYPES
    score_request_type: type[msgspec.Struct] = DerbyScoreRequest
    bots: Mapping[str, Callable[[], Bot]] = BOTS

    def check_options(self, options: DerbyOptions, players: int) -> None:
        check_options(options, players)

    def setup(self, options: DerbyOptions, players: int, chance: Chance) -> Sequence[Any]:
        yen_decks = [chance.shuffled(deck) for deck in YEN_DECKS]
        yen = tuple(tuple(deck[seat] for deck in yen_decks) for seat in range(players))
        return [
            DerbyDealt(
                first_player=options.first_player,
                yen=yen,
                yen_decks=tuple(tuple(deck[players:]) for deck in yen_decks),
                carts=tuple(tuple(chance.shuffled(deck)) for deck in CART_DECKS),
                derby_deck=tuple(chance.shuffled(range(DERBY_CARDS))),
            )
        ]

    def initial_state(self, options: DerbyOptions, players: int) -> DerbyState:
        state = DerbyState(players=players, first_player=options.first_player, turn_seat=options.first_player)
        return state if self.rules_version == 1 else msgspec.structs.replace(state, rules_version=self.rules_version)

    def evolve(self, state: DerbyState, event: Any) -> DerbyState:
        return evolve(state, event)

    def decide(self, state: DerbyState, seat: int, command: Any, chance: Chance) -> Sequence[Any]:
        return decide(state, seat, command, chance)

    def legal_commands(self, state: DerbyState, seat: int) -> Sequence[Any]:
        return legal_commands(state, seat)

    def awaiting(self, state: DerbyState) -> tuple[int, ...]:
        return () if state.over or not state.dealt else (state.turn_seat,)

    def view(self, state: DerbyState, seat: int | None) -> DerbyView:
        return view(state, seat)

    def redact(self, event: Any, seat: int | None) -> Any | None:
        return redact(event, seat)

    def result(self, state: DerbyState) -> Result | None:
        return final_result(state) if state.over else None

    def picks(self, event: Any) -> tuple[tuple[int, str], ...]:
        """Every portion a seat eats, as the dish's slug (two for a double helping), and every Derby card
        it plays, as the Derby card's slug."""
        kind = type(event)
        if kind is PortionEaten:
            return ((event.seat, DISHES[CARD_DISH[event.dish]].slug),)
        if kind is DerbyPlayed:
            return ((event.seat, DERBY_KINDS[DERBY_KIND[event.card]].slug),)
        return ()

    def score(self, request: DerbyScoreRequest) -> tuple[SeatScore, ...]:
        return score_request(request)

    def catalog(self) -> dict[str, Any]:
        return catalog(self.rules_version)


def catalog(rules_version: int) -> dict[str, Any]:
    note = (
        "House content: the rules seed has no card lists, so the dishes, portions, yen decks and Derby "
        "cards are the project's own."
    )
    cards = [
        {
            "slug": dish.slug,
            "name": dish.name,
            "count": COPIES,
            "scoring": (
                f"{dish.portions} portions; each portion you eat scores 1 if you hold its yen card, "
                "else the marker is discarded"
            ),
            "cart": CART_SLUGS[dish.cart],
            "portions": dish.portions,
            "ids": list(range(index * COPIES, (index + 1) * COPIES)),
            "yen_id": index,
            "house_content": True,
        }
        for index, dish in enumerate(DISHES)
    ]
    carts = [
        {
            "slug": CART_SLUGS[cart],
            "name": CART_NAMES[cart],
            "cards": len(CART_DECKS[cart]),
            "dishes": [
                {"slug": DISHES[d].slug, "portions": DISHES[d].portions, "copies": COPIES} for d in YEN_DECKS[cart]
            ],
        }
        for cart in range(CART_TYPES)
    ]
    yen_decks = [
        {
            "cart": CART_SLUGS[cart],
            "cards": [{"id": d, "dish": DISHES[d].slug} for d in YEN_DECKS[cart]],
        }
        for cart in range(CART_TYPES)
    ]
    derby = [
        {
            "slug": kind.slug,
            "name": kind.name,
            "count": DERBY_COPIES,
            "effect": kind.effect,
            "ids": list(range(index * DERBY_COPIES, (index + 1) * DERBY_COPIES)),
        }
        for index, kind in enumerate(DERBY_KINDS)
    ]
    return {
        "house_content": HOUSE_CONTENT,
        "note": note,
        "cards": cards,
        "carts": carts,
        "yen_decks": yen_decks,
        "derby_cards": derby,
        "rules": {
            "markers": MARKERS,
            "actions_per_turn": ACTIONS_PER_TURN,
            "table_limit": TABLE_LIMIT,
            "derby_hand_limit": DERBY_HAND_LIMIT,
            "round_limit": ROUND_LIMIT,
            "kitchen": KITCHEN_LEFT if rules_version >= 2 else "on the first player's right",
        },
    }


DIM_SUM_DERBY = DimSumDerby()
