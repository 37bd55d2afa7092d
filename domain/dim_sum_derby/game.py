"""The Dim Sum Derby game object (game id ``dim-sum-derby``), implementing ``domain.engine.Game``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from domain.chance import Chance
from domain.dim_sum_derby import data, sampler
from domain.dim_sum_derby.bots import BOTS, GreedyBot
from domain.dim_sum_derby.commands import DerbyCommand
from domain.dim_sum_derby.decide import decide
from domain.dim_sum_derby.events import EVENT_TYPES, DerbyDealt, DerbyPlayed, PortionEaten
from domain.dim_sum_derby.evolve import evolve
from domain.dim_sum_derby.legal import legal_commands
from domain.dim_sum_derby.options import DerbyOptions, check_options
from domain.dim_sum_derby.rules import ACTIONS_PER_TURN, DERBY_HAND_LIMIT, MARKERS, ROUND_LIMIT, TABLE_LIMIT
from domain.dim_sum_derby.scoring import DerbyScoreRequest, final_result, score_request
from domain.dim_sum_derby.state import DerbyState
from domain.dim_sum_derby.view import DerbyView, redact, view
from domain.engine import Bot, Result, SeatScore
from domain.mcts import search_bots


class DimSumDerby:
    id = "dim-sum-derby"
    name = "Dim Sum Derby"
    min_players = 3
    max_players = 4
    options_type: type[msgspec.Struct] = DerbyOptions
    command_type: Any = DerbyCommand
    event_types: tuple[type[msgspec.Struct], ...] = EVENT_TYPES
    score_request_type: type[msgspec.Struct] = DerbyScoreRequest
    bots: Mapping[str, Callable[[], Bot]] = {
        **BOTS,
        **search_bots(lambda: DIM_SUM_DERBY, sampler, GreedyBot, budget=4000, strong_budget=20000),
    }

    def check_options(self, options: DerbyOptions, players: int) -> None:
        check_options(options, players)

    def setup(self, options: DerbyOptions, players: int, chance: Chance) -> Sequence[Any]:
        yen_decks = [chance.shuffled(deck) for deck in data.YEN_DECKS]
        yen = tuple(tuple(deck[seat] for deck in yen_decks) for seat in range(players))
        return [
            DerbyDealt(
                first_player=options.first_player,
                yen=yen,
                yen_decks=tuple(tuple(deck[players:]) for deck in yen_decks),
                carts=tuple(tuple(chance.shuffled(deck)) for deck in data.CART_DECKS),
                derby_deck=tuple(chance.shuffled(range(data.DERBY_CARDS))),
            )
        ]

    def initial_state(self, options: DerbyOptions, players: int) -> DerbyState:
        return DerbyState(players=players, first_player=options.first_player, turn_seat=options.first_player)

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
            return ((event.seat, data.DISHES[data.CARD_DISH[event.dish]].slug),)
        if kind is DerbyPlayed:
            return ((event.seat, data.DERBY_KINDS[data.DERBY_KIND[event.card]].slug),)
        return ()

    def score(self, request: DerbyScoreRequest) -> tuple[SeatScore, ...]:
        return score_request(request)

    def catalog(self) -> dict[str, Any]:
        return catalog()


def catalog() -> dict[str, Any]:
    note = (
        "House content: the rules seed has no card lists, so the dishes, portions, yen decks and Derby "
        "cards are the project's own."
    )
    cards = [
        {
            "slug": dish.slug,
            "name": dish.name,
            "count": data.COPIES,
            "scoring": (
                f"{dish.portions} portions; each portion you eat scores 1 if you hold its yen card, "
                "else the marker is discarded"
            ),
            "cart": data.CART_SLUGS[dish.cart],
            "portions": dish.portions,
            "ids": list(range(index * data.COPIES, (index + 1) * data.COPIES)),
            "yen_id": index,
            "house_content": True,
        }
        for index, dish in enumerate(data.DISHES)
    ]
    carts = [
        {
            "slug": data.CART_SLUGS[cart],
            "name": data.CART_NAMES[cart],
            "cards": len(data.CART_DECKS[cart]),
            "dishes": [
                {"slug": data.DISHES[d].slug, "portions": data.DISHES[d].portions, "copies": data.COPIES}
                for d in data.YEN_DECKS[cart]
            ],
        }
        for cart in range(data.CART_TYPES)
    ]
    yen_decks = [
        {
            "cart": data.CART_SLUGS[cart],
            "cards": [{"id": d, "dish": data.DISHES[d].slug} for d in data.YEN_DECKS[cart]],
        }
        for cart in range(data.CART_TYPES)
    ]
    derby = [
        {
            "slug": kind.slug,
            "name": kind.name,
            "count": data.DERBY_COPIES,
            "effect": kind.effect,
            "ids": list(range(index * data.DERBY_COPIES, (index + 1) * data.DERBY_COPIES)),
        }
        for index, kind in enumerate(data.DERBY_KINDS)
    ]
    return {
        "house_content": data.HOUSE_CONTENT,
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
        },
    }


DIM_SUM_DERBY: DimSumDerby = DimSumDerby()
