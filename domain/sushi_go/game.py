"""`SUSHI_GO`: Sushi Go! as a `domain.engine.Game`, wired from the modules of this package.

Rules versions (`rules_versions`; a game keeps the version it was created with):

- **1** (kaiten 0.1.0): 2-5 players.
- **2**: 2-6 players; 6 players are dealt 8 cards each (seed 002: "Sushi Go! (2-6p) (original game)
  but can now play 6p"), as Sushi Go Party! deals at 6; the 108-card deck covers 48 cards a round.
  Nothing else differs, so version 2 is version 1 with a wider player range: every function is shared.

The outcomes of play are events in every version: the picks (`CardPicked`), the reveal with the
chopsticks that went back into the hands (`CardsRevealed`, after which hands pass left, the one
direction Sushi Go! knows), each round's scores (`RoundScored`) and the puddings' (`PuddingsScored`),
all worked out in `decide` and `follow`; `evolve` only applies them (the final ranking adds up the
recorded scores and is recorded by `GameFinished`).

Decisions where the rules leave a choice (see ../shared/rules/sushi-go.md):

- **Picks are final.** A seat that has picked is no longer awaited, so it cannot change its hidden
  pick before the reveal (`decide` answers `already-picked`; through the table, `not-your-turn`
  comes first). Changing a hidden pick would gain nothing observable to anyone else, and keeping
  `awaiting` to the seats that still have to pick is what tells clients and bots who to wait for.
- **The last card is placed automatically.** When a reveal leaves one card per hand, those cards are
  revealed at once (`CardsRevealed` with `auto=True`) and the round is scored in the same decision.
  Chopsticks can still be used on the two-card turn; the chopsticks then become the next seat's
  last card.
- **Chopsticks**: the earliest chopsticks of the tableau go back into the hand that is passed on.
- **Ties**: the most puddings break a tie on total; seats still tied share the victory (they are all
  in `Result.winners`).
- **Dealing**: the deck's order is drawn when dealing (a uniform sample of the remaining deck), and
  only the dealt hands are recorded; when the deck runs out, every discard (never a kept pudding) is
  shuffled into it (`HandsDealt.reshuffled`). With 108 cards this cannot happen in a normal game.
- Cards are unique ids 0..107, grouped by kind; the catalog lists each kind's ids.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from kaiten.domain.chance import Chance
from kaiten.domain.engine import (
    Bot,
    Game,
    Result,
    RulesVersion,
    RulesVersioned,
    RuleViolation,
    SeatScore,
    breakdown_type,
)
from kaiten.domain.mcts import search_bots
from kaiten.domain.sushi_go import sampler
from kaiten.domain.sushi_go.bots import GreedyBot, RandomBot, play_bots
from kaiten.domain.sushi_go.cards import (
    DECK_SIZE,
    MAX_PLAYERS_BY_RULES,
    MIN_PLAYERS,
    slug,
)
from kaiten.domain.sushi_go.catalog import Details, details
from kaiten.domain.sushi_go.commands import Pick, ScoreRequest
from kaiten.domain.sushi_go.decide import deal, decide, follow
from kaiten.domain.sushi_go.events import EVENT_TYPES, CardsRevealed, SushiGoEvent
from kaiten.domain.sushi_go.evolve import evolve
from kaiten.domain.sushi_go.legal import legal_commands
from kaiten.domain.sushi_go.options import SushiGoOptions
from kaiten.domain.sushi_go.scoring import CATEGORIES, score_request
from kaiten.domain.sushi_go.state import SushiGoState, initial_state
from kaiten.domain.sushi_go.view import SushiGoView, redact, view


class SushiGo(RulesVersioned):
    id = "sushi-go"
    name = "Sushi Go!"
    #: The prefix of the names of this game's types in the API's schema (`SushiGoTableView`).
    type_prefix = "SushiGo"
    min_players = MIN_PLAYERS
    rules_versions: tuple[RulesVersion, ...] = (
        RulesVersion(1, ("2-5 players (kaiten 0.1.0)",)),
        RulesVersion(2, ("2-6 players: 6 players are dealt 8 cards each",)),
    )
    options_type: type[msgspec.Struct] = SushiGoOptions
    #: What `view` answers and what `evolve` folds, and the result: the API's schema types them.
    decks: Mapping[str, Sequence[str]] = {"cards": tuple(slug(card) for card in range(DECK_SIZE))}
    breakdown_type = breakdown_type("SushiGoBreakdown", CATEGORIES)
    view_type: type[msgspec.Struct] = SushiGoView
    state_type: type[msgspec.Struct] = SushiGoState
    result_type: type[msgspec.Struct] = Result
    command_type: Any = Pick
    event_types: tuple[type[msgspec.Struct], ...] = EVENT_TYPES
    score_request_type: type[msgspec.Struct] = ScoreRequest
    details_type: type[msgspec.Struct] = Details
    bots: Mapping[str, Callable[[], Bot]] = {
        "random": RandomBot,
        "greedy": GreedyBot,
        # The rollouts take `play_bots` (no view, no protocol call a decision), so a simulated decision
        # costs less beside an iteration's deal and scoring, which `deal_cost` weighs more for; the same
        # milliseconds a decision buy 1.3 to 1.6 times the simulations (bench/README.md, "Greedy rollouts").
        **search_bots(lambda: SUSHI_GO, sampler, GreedyBot, budget=10000, strong_budget=50000, deal_cost=2.5),
    }
    #: What a decision with a choice costs each bot: CPU milliseconds on the reference machine by player
    #: count, the median as `bench/mcts.py` measured it (bench/README.md, "Bot budgets", 2026-12-02).
    #: Measured again whenever a budget or the engine's speed changes.
    bot_costs: Mapping[str, Mapping[int, float]] = {
        "random": {2: 0.000392, 3: 0.000407, 4: 0.000401, 5: 0.000405, 6: 0.000397},
        "greedy": {2: 0.0166, 3: 0.016, 4: 0.0184, 5: 0.0163, 6: 0.017},
        "mcts": {2: 283.0, 3: 188.0, 4: 190.0, 5: 183.0, 6: 189.0},
        "mcts:strong": {2: 1171.0, 3: 983.0, 4: 990.0, 5: 920.0, 6: 941.0},
    }

    def __init__(self, rules_version: int | None = None) -> None:
        super().__init__(rules_version)
        self.max_players = MAX_PLAYERS_BY_RULES[self.rules_version]

    def check_options(self, options: SushiGoOptions, players: int) -> None:
        if not MIN_PLAYERS <= players <= self.max_players:
            raise RuleViolation("invalid-player-count", f"Sushi Go! takes {MIN_PLAYERS} to {self.max_players} players")

    def setup(self, options: SushiGoOptions, players: int, chance: Chance) -> tuple[SushiGoEvent, ...]:
        start = initial_state(players)
        return (deal(players, start.deck, start.discards, 1, chance),)

    def initial_state(self, options: SushiGoOptions, players: int) -> SushiGoState:
        return initial_state(players)

    # The hot paths are the module functions themselves (no extra call per command or event).
    evolve = staticmethod(evolve)
    legal_commands = staticmethod(legal_commands)

    decide = staticmethod(decide)
    follow = staticmethod(follow)
    play_bots = staticmethod(play_bots)
    view = staticmethod(view)
    redact = staticmethod(redact)

    @staticmethod
    def awaiting(state: SushiGoState) -> tuple[int, ...]:
        return state.awaiting

    @staticmethod
    def result(state: SushiGoState) -> Result | None:
        return state.result

    @staticmethod
    def picks(event: Any) -> tuple[tuple[int, str], ...]:
        """Every card a reveal puts into a tableau: both cards of a chopsticks turn, and the last card
        of a round, placed automatically (the chopsticks going back into the hand stay picked)."""
        if type(event) is not CardsRevealed:
            return ()
        return tuple((seat, slug(card)) for seat, cards in enumerate(event.picks) for card in cards)

    def score(self, request: Any) -> tuple[SeatScore, ...]:
        return score_request(request)

    def catalog(self) -> Details:
        return details(self.max_players)


SUSHI_GO: Game[SushiGoState, Pick, SushiGoEvent, SushiGoOptions] = SushiGo()
