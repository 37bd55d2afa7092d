"""`SPIN_SOME_FOR_DIM_SUM`: Sushi Go! Spin Some for Dim Sum as a `domain.engine.Game`.

Rules versions: only **1** (kaiten 0.1.0). Its `evolve` only applies what the events say (a dim sum
taken ends the turn, a rotation moves the table and pays its tokens...), so no outcome needs a new
event, and the corrected specs change nothing here.

Decisions where the rules leave a choice (see ../shared/rules/spin-some-for-dim-sum.md):

- **Composition** (house content, `cards.py`): 105 cards as in the spec's table, and 15 special plates
  chosen so that every dish is on 8 or 9 plates and every pair of dishes on 3 to 5 plates. Card ids
  0..104 run through the composition table; the catalog lists each kind's id range.
- **Directions**: baskets are numbered 0..5 clockwise and seat i starts in front of basket i. A command's
  `steps` names the basket you want relative to yours (`front + steps`, mod 6); positive is called
  clockwise, and the forced free rotation prefers it on a tie. Tokens go into `front`, `front ± 1`, ...
  (k of them, never into the arriving basket).
- **Commands**: `take` (no rotation), `rotate` (steps -5..-1 or 1..5, paid in tokens), `return-bun`
  (steps 1..5, free: with the bun every basket is reachable, so one direction names them all; returning
  it without rotating is not offered, as it could only lose the bun). Rotating onto an empty basket is
  refused (`target-basket-empty`).
- **Empty basket** (house rule): `take` at an empty basket is refused (`empty-basket`) while a paid or
  bun rotation to a non-empty basket exists; otherwise `take` is the forced free rotation to the nearest
  non-empty basket, clockwise first (`TableRotated.how == "empty-basket"`). With 105 cards and at most 72
  taken, the game cannot run out of cards, but it would end if every basket were empty.
- **Events**: `BasketsFilled` records the pile orders (redacted to `piles=None` for everyone while the
  game runs: only `tops` and `sizes` are public); `DimSumTaken.revealed` carries only the card that
  surfaces. Every other event is public. The turn passes on `DimSumTaken`.
- **Tokens**: 4 per player are in play (8/12/16/20/24 for 2..6 players); the box's 24 only all play with
  6 players. Chopsticks score 1 per 2 at the end.
- **Ties** on total: the squishy-bun holder among the tied wins alone; otherwise they share the victory.
- **Score calculator**: `cards` is the whole menu; `desserts` (none in this game) are counted as menu
  cards; two copies of one plate would each score; `end_of_game` is ignored (always the end).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import msgspec

from kaiten.domain.engine import (
    Bot,
    Game,
    Result,
    RulesVersion,
    RulesVersioned,
    RuleViolation,
    SeatScore,
    breakdown_type,
    no_bot_playout,
    rank_scores,
)
from kaiten.domain.mcts import search_bots
from kaiten.domain.spin_some import sampler
from kaiten.domain.spin_some import state as spin
from kaiten.domain.spin_some import view as views
from kaiten.domain.spin_some.bots import BOTS, GreedyBot
from kaiten.domain.spin_some.cards import CARD_SLUG
from kaiten.domain.spin_some.catalog import Details, details
from kaiten.domain.spin_some.commands import Command, ScoreRequest
from kaiten.domain.spin_some.decide import decide, follow, setup
from kaiten.domain.spin_some.events import EVENT_TYPES, DimSumTaken, SpinEvent
from kaiten.domain.spin_some.evolve import evolve
from kaiten.domain.spin_some.legal import legal_commands
from kaiten.domain.spin_some.options import SpinOptions
from kaiten.domain.spin_some.scoring import CATEGORIES, score_cards, score_request
from kaiten.domain.spin_some.state import SpinState
from kaiten.domain.spin_some.view import SpinView


class SpinSomeForDimSum(RulesVersioned):
    rules_versions: tuple[RulesVersion, ...] = (RulesVersion(1, ("the first rules (kaiten 0.1.0)",)),)
    id: str = "spin-some-for-dim-sum"
    name: str = "Sushi Go! Spin Some for Dim Sum"
    #: The prefix of the names of this game's types in the API's schema (`SpinTableView`).
    type_prefix = "Spin"
    min_players: int = 2
    max_players: int = 6
    options_type: type[msgspec.Struct] = SpinOptions
    #: What `view` answers and what `evolve` folds, and the result: the API's schema types them.
    decks: Mapping[str, Sequence[str]] = {"cards": CARD_SLUG}
    breakdown_type = breakdown_type("SpinBreakdown", CATEGORIES)
    view_type: type[msgspec.Struct] = SpinView
    state_type: type[msgspec.Struct] = SpinState
    result_type: type[msgspec.Struct] = Result
    command_type: Any = Command
    event_types: tuple[type[Any], ...] = EVENT_TYPES
    score_request_type: type[msgspec.Struct] = ScoreRequest
    details_type: type[msgspec.Struct] = Details
    bots: Mapping[str, Callable[[], Bot]] = {
        **BOTS,
        **search_bots(
            lambda: SPIN_SOME_FOR_DIM_SUM, sampler, GreedyBot, budget=2500, strong_budget=12500, deal_cost=0.3
        ),
    }
    #: What a decision with a choice costs each bot: CPU milliseconds on the reference machine by player
    #: count, the median as `bench/mcts.py` measured it (bench/README.md, "Bot budgets", 2026-12-02).
    #: Measured again whenever a budget or the engine's speed changes.
    bot_costs: Mapping[str, Mapping[int, float]] = {
        "random": {2: 0.00067, 3: 0.00065, 4: 0.00065, 5: 0.000653, 6: 0.000646},
        "greedy": {2: 0.0548, 3: 0.0504, 4: 0.0515, 5: 0.0591, 6: 0.0581},
        "mcts": {2: 195.0, 3: 189.0, 4: 198.0, 5: 200.0, 6: 204.0},
        "mcts:strong": {2: 961.0, 3: 933.0, 4: 981.0, 5: 1008.0, 6: 1018.0},
    }

    def check_options(self, options: SpinOptions, players: int) -> None:
        if not 0 <= options.first_player < players:
            raise RuleViolation(
                "invalid-options", f"first_player must be a seat 0..{players - 1}, not {options.first_player}"
            )

    setup = staticmethod(setup)

    def initial_state(self, options: SpinOptions, players: int) -> SpinState:
        return spin.initial_state(options, players)

    evolve = staticmethod(evolve)
    decide = staticmethod(decide)
    follow = staticmethod(follow)
    #: The random bots play one decision at a time (only Sushi Go! has a fast path).
    play_bots = staticmethod(no_bot_playout)

    def legal_commands(self, state: SpinState, seat: int) -> Sequence[Command]:
        return legal_commands(state, seat)

    def awaiting(self, state: SpinState) -> tuple[int, ...]:
        if not state.piles or spin.is_over(state):
            return ()
        return (state.current,)

    def view(self, state: SpinState, seat: int | None) -> views.SpinView:
        return views.view(state, seat)

    def redact(self, event: Any, seat: int | None) -> Any | None:
        return views.redact(event, seat)

    def result(self, state: SpinState) -> Result | None:
        if not spin.is_over(state):
            return None
        scores = score_cards(state.menus, state.tokens, state.bun)
        tiebreak = [1 if state.bun == seat else 0 for seat in range(state.players)]
        return rank_scores(scores, tiebreak)

    def picks(self, event: Any) -> tuple[tuple[int, str], ...]:
        """Every card a seat takes from a basket onto its menu."""
        if type(event) is not DimSumTaken:
            return ()
        return ((event.seat, CARD_SLUG[event.card]),)

    def score(self, request: ScoreRequest) -> tuple[SeatScore, ...]:
        return score_request(request)

    def catalog(self) -> Details:
        return details()


SPIN_SOME_FOR_DIM_SUM: Final[Game[SpinState, Command, SpinEvent, SpinOptions]] = SpinSomeForDimSum()
