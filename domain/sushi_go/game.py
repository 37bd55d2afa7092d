"""`SUSHI_GO`: Sushi Go! as a `domain.engine.Game`, wired from the modules of this package.

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

from domain.chance import Chance
from domain.engine import Bot, Result, RuleViolation, SeatScore
from domain.mcts import search_bots
from domain.sushi_go import rules, sampler
from domain.sushi_go.bots import GreedyBot, RandomBot
from domain.sushi_go.cards import CARD_TYPES, DEAL, MAX_PLAYERS, MIN_PLAYERS, ROUNDS, card_ids, slug
from domain.sushi_go.commands import Pick
from domain.sushi_go.events import EVENT_TYPES, CardsRevealed
from domain.sushi_go.scoring import ScoreRequest, score_request
from domain.sushi_go.state import SushiGoOptions, SushiGoState, initial_state
from domain.sushi_go.view import redact, view


class SushiGo:
    id = "sushi-go"
    name = "Sushi Go!"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options_type: type[msgspec.Struct] = SushiGoOptions
    command_type: Any = Pick
    event_types: tuple[type[msgspec.Struct], ...] = EVENT_TYPES
    score_request_type: type[msgspec.Struct] = ScoreRequest
    bots: Mapping[str, Callable[[], Bot]] = {
        "random": RandomBot,
        "greedy": GreedyBot,
        **search_bots(lambda: SUSHI_GO, sampler, GreedyBot, budget=5500, strong_budget=27500),
    }

    def check_options(self, options: Any, players: int) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RuleViolation("invalid-player-count", f"Sushi Go! takes {MIN_PLAYERS} to {MAX_PLAYERS} players")

    def setup(self, options: Any, players: int, chance: Chance) -> Sequence[Any]:
        return [rules.deal(initial_state(players), 1, chance)]

    def initial_state(self, options: Any, players: int) -> SushiGoState:
        return initial_state(players)

    # The hot paths are the module functions themselves (no extra call per command or event).
    evolve = staticmethod(rules.evolve)
    decide = staticmethod(rules.decide)
    legal_commands = staticmethod(rules.legal_commands)
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

    def catalog(self) -> dict[str, Any]:
        return {
            "cards": [
                {
                    "slug": card.slug,
                    "name": card.name,
                    "count": card.count,
                    "scoring": card.scoring,
                    "ids": list(card_ids(card.kind)),
                }
                for card in CARD_TYPES
            ],
            "rounds": ROUNDS,
            "deal": {str(players): size for players, size in DEAL.items()},
            "pass": "left",
            "last_card": "placed automatically",
            "picks": "final once sent; revealed together when every seat has picked",
        }


SUSHI_GO: SushiGo = SushiGo()
