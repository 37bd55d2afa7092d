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

from kaiten.domain.dim_sum_derby import sampler
from kaiten.domain.dim_sum_derby.bots import BOTS, GreedyBot
from kaiten.domain.dim_sum_derby.cards import (
    CARD_DISH,
    DERBY_KIND,
    DERBY_KINDS,
    DISHES,
    KITCHEN_LEFT,
)
from kaiten.domain.dim_sum_derby.catalog import Details, details
from kaiten.domain.dim_sum_derby.commands import DerbyCommand, DerbyScoreRequest
from kaiten.domain.dim_sum_derby.decide import decide, follow, setup
from kaiten.domain.dim_sum_derby.events import EVENT_TYPES, DerbyEvent, DerbyPlayed, PortionEaten
from kaiten.domain.dim_sum_derby.evolve import evolve
from kaiten.domain.dim_sum_derby.legal import legal_commands
from kaiten.domain.dim_sum_derby.options import DerbyOptions, check_options
from kaiten.domain.dim_sum_derby.scoring import CATEGORIES, final_result, score_request
from kaiten.domain.dim_sum_derby.state import DerbyState
from kaiten.domain.dim_sum_derby.view import DerbyView, redact, view
from kaiten.domain.engine import (
    Bot,
    Game,
    Result,
    RulesVersion,
    RulesVersioned,
    SeatScore,
    breakdown_type,
    no_bot_playout,
)
from kaiten.domain.mcts import search_bots


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
    details_type: type[msgspec.Struct] = Details
    score_request_type: type[msgspec.Struct] = DerbyScoreRequest
    bots: Mapping[str, Callable[[], Bot]] = {
        **BOTS,
        **search_bots(lambda: DIM_SUM_DERBY, sampler, GreedyBot, budget=4000, strong_budget=20000, deal_cost=0.8),
    }
    #: What a decision with a choice costs each bot: CPU milliseconds on the reference machine by player
    #: count, the median as `bench/mcts.py` measured it (bench/README.md, "Bot budgets", 2026-12-02).
    #: Measured again whenever a budget or the engine's speed changes.
    bot_costs: Mapping[str, Mapping[int, float]] = {
        "random": {3: 0.000762, 4: 0.00073},
        "greedy": {3: 0.00619, 4: 0.00623},
        "mcts": {3: 161.0, 4: 167.0},
        "mcts:strong": {3: 808.0, 4: 826.0},
    }

    def check_options(self, options: DerbyOptions, players: int) -> None:
        check_options(options, players)

    setup = staticmethod(setup)

    def initial_state(self, options: DerbyOptions, players: int) -> DerbyState:
        state = DerbyState(players=players, first_player=options.first_player, turn_seat=options.first_player)
        return state if self.rules_version == 1 else msgspec.structs.replace(state, rules_version=self.rules_version)

    evolve = staticmethod(evolve)
    decide = staticmethod(decide)
    follow = staticmethod(follow)
    #: The random bots play one decision at a time (only Sushi Go! has a fast path).
    play_bots = staticmethod(no_bot_playout)

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

    def catalog(self) -> Details:
        return details(kitchen_left=self.rules_version >= 2)


DIM_SUM_DERBY: Game[DerbyState, DerbyCommand, DerbyEvent, DerbyOptions] = DimSumDerby()
