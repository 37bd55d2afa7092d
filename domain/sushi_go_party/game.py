"""`SUSHI_GO_PARTY`: Sushi Go Party! as a `domain.engine.Game`, wired from the modules of this package.

Rules versions (`rules_versions`; a game keeps the version it was created with):

- **1** (kaiten 0.1.0, `rules_v1.py`): its `evolve` runs the turn machine itself: bonus actions, miso
  clashes, the uramaki race, the hand pass and the vote's tally are worked out while folding, and its
  logs hold no event for them. Kept apart, as it was, so that every version-1 log replays exactly as
  recorded.
- **2** (`rules_v2.py`): outcomes are events. Its `follow` runs the turn machine and writes each outcome
  (`ChoiceAsked`, `BonusDropped`, `MisoClashed`, `UramakiPlaced`, `HandsPassed`, `VotesCounted`, and
  the existing `SpecialOrderCopied`, `SpoonGiven`, `MenuDrawn`, `MenuChosen`...); its `evolve` only
  applies them. Two rules change: a **miso soup** clash needs two or more *different* players (one
  player's two miso soups are kept), and a **takeout box** may flip desserts played this round (a
  flipped dessert is a 2-point card, not a dessert: not kept in the fridge, not counted at the end).
  Both versions share the card effects (evolve.py: `Work`, the `apply_*` functions), validation, draws
  and scoring (decide.py); what differs is a `PartyRules` (evolve, follow, whether desserts flip) and
  the two small functions its rules name (`clashing_misos`, `flip_options`).

Decisions of the rules spec (../shared/rules/sushi-go-party.md), both versions:

- **Maki**: most 6, second 3; with 6-8 players 6/4/2 (the publisher's card guide). Ties get full
  points and do not use up the next place.
- **Temaki and pudding**: nobody scores when every count is equal (2 players too); no penalty with 2.
- **Uramaki**: places during play at the end of each turn; at round end the unclaimed places go to
  the most remaining icons (at least 1), tied seats each using up a place, one place per seat.
- **Special order** copies count with the copied card's background colour for tea and soy sauce.
- **Flipped wasabi**: a wasabi a takeout box flipped no longer triples its nigiri (and takes none).

Decisions where the rules leave a choice:

- **Picks are final** once sent; a pick may call **one** chopsticks or spoon of the tableau (at most
  one call per turn). Chopsticks cannot be called when the pick empties the hand; a spoon can be
  called on the last turn, and then nothing happens (it stays in the tableau).
- **Resolution order**: every picked card is played at the reveal; a special order resolves at once
  when played (before any numbered action); then chopsticks, spoons, menus and takeout boxes in card
  number order (a special order acting as chopsticks or a spoon is numbered 13-15, after them all).
- **Special order** copies an earlier card of this round's tableau (not a menu, takeout box, special
  order or face-down card); a copy is played like a new card of that slug (a copied nigiri takes the
  earliest free wasabi if any; a copied dessert goes to the fridge at round end like any dessert).
- **Takeout box** flips any earlier face-up cards of this round; version 1 leaves desserts out (they
  are kept in the fridge), version 2 takes them too. A flipped nigiri keeps its wasabi used. Legal
  flips are listed in full up to 8 candidate cards, else the subsets of <= 2 cards and their
  complements (`decide` accepts any subset).
- **Miso soup**: checked at the end of the turn: version 1 discards every miso soup of the turn when
  more than one was played by any means; version 2 when they came from two or more different players.
  Either way all of them go (even one a takeout box flipped meanwhile).
- **Uramaki**: checked at the end of each turn; tied seats all get the place and use up as many
  places as they are (competition ranking); at round end the same for the remaining icons (>= 1).
- **Spoon** goes left whatever the passing direction; a request must be on the menu; a giver holding
  several variants of a requested type chooses (`give`), else the card is given automatically.
- **Vote**: seats propose in turn from seat 0; everyone else votes; a proposal stands with a strict
  majority of all seats (its proposer approves; a tie rejects it). After every seat proposed once,
  the proposal with the most approvals stands, the earliest on a tie.
- **First player** picks among the suggested menus that fit the player count; **build** accepts any
  custom menu obeying the restrictions (or a fitting suggested id). A suggested menu given by id at
  creation must fit its suggested player range; a custom menu only obeys the restrictions.
- **2-player variant**: every round (5 cards dealt, one drawn at the start of turns 2-6).
- The deck is an unordered pool: every deal and draw samples it with the game's Chance, so
  "shuffle the deck" after a menu needs no event.
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
    SeatScore,
    breakdown_type,
    no_bot_playout,
)
from kaiten.domain.mcts import search_bots
from kaiten.domain.sushi_go_party import decide as deciding
from kaiten.domain.sushi_go_party import sampler
from kaiten.domain.sushi_go_party.bots import GreedyBot, RandomBot
from kaiten.domain.sushi_go_party.cards import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    SLUG,
)
from kaiten.domain.sushi_go_party.catalog import Details, details
from kaiten.domain.sushi_go_party.commands import Command, ScoreRequest
from kaiten.domain.sushi_go_party.decide import PartyRules
from kaiten.domain.sushi_go_party.events import (
    EVENT_TYPES,
    OUTCOME_EVENT_TYPES,
    CardsRevealed,
    ChopsticksUsed,
    MenuOrdered,
    PartyEvent,
    SpoonGiven,
)
from kaiten.domain.sushi_go_party.legal import legal_commands
from kaiten.domain.sushi_go_party.options import PartyOptions, check_options
from kaiten.domain.sushi_go_party.rules_v1 import RULES_V1
from kaiten.domain.sushi_go_party.rules_v2 import RULES_V2
from kaiten.domain.sushi_go_party.scoring import CATEGORIES, score_request
from kaiten.domain.sushi_go_party.state import PartyState
from kaiten.domain.sushi_go_party.view import PartyView, redact, view

RULES_V2_CHANGES: tuple[str, ...] = (
    "outcomes are events: choices asked, bonus actions that do nothing, miso clashes, uramaki places, "
    "the hand pass and a vote's tally are written into the log",
    "miso soup: the clash happens only when two or more different players play miso soup in a turn; one "
    "player playing two (chopsticks) keeps both",
    "takeout box: may flip desserts played this round; a flipped dessert is a 2-point card, not a dessert",
)


#: Each rules version's `decide`, `evolve` and `follow` differences, by version.
RULES: dict[int, PartyRules] = {1: RULES_V1, 2: RULES_V2}


class SushiGoParty(RulesVersioned):
    rules_versions: tuple[RulesVersion, ...] = (
        RulesVersion(1, ("the first rules (kaiten 0.1.0)",)),
        RulesVersion(2, RULES_V2_CHANGES),
    )
    id = "sushi-go-party"
    name = "Sushi Go Party!"
    #: The prefix of the names of this game's types in the API's schema (`PartyTableView`).
    type_prefix = "Party"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options_type: type[msgspec.Struct] = PartyOptions
    #: What `view` answers and what `evolve` folds, and the result: the API's schema types them.
    decks: Mapping[str, Sequence[str]] = {"cards": SLUG}
    breakdown_type = breakdown_type("PartyBreakdown", CATEGORIES)
    view_type: type[msgspec.Struct] = PartyView
    state_type: type[msgspec.Struct] = PartyState
    result_type: type[msgspec.Struct] = Result
    command_type: Any = Command
    score_request_type: type[msgspec.Struct] = ScoreRequest
    details_type: type[msgspec.Struct] = Details
    bots: Mapping[str, Callable[[], Bot]] = {
        "random": RandomBot,
        "greedy": GreedyBot,
        **search_bots(lambda: SUSHI_GO_PARTY, sampler, GreedyBot, budget=4000, strong_budget=20000, deal_cost=0.3),
    }
    #: What a decision with a choice costs each bot: CPU milliseconds on the reference machine by player
    #: count, the median as `bench/mcts.py` measured it (bench/README.md, "Bot budgets", 2026-12-02).
    #: Measured again whenever a budget or the engine's speed changes.
    bot_costs: Mapping[str, Mapping[int, float]] = {
        "random": {2: 0.000654, 3: 0.000655, 4: 0.000644, 5: 0.000648, 6: 0.000661, 7: 0.000666, 8: 0.000657},
        "greedy": {2: 0.0212, 3: 0.0193, 4: 0.0239, 5: 0.0224, 6: 0.0292, 7: 0.035, 8: 0.0328},
        "mcts": {2: 226.0, 3: 203.0, 4: 214.0, 5: 195.0, 6: 226.0, 7: 318.0, 8: 235.0},
        "mcts:strong": {2: 1159.0, 3: 986.0, 4: 1271.0, 5: 972.0, 6: 1107.0, 7: 1627.0, 8: 1173.0},
    }

    def __init__(self, rules_version: int | None = None) -> None:
        super().__init__(rules_version)
        self.rules = RULES[self.rules_version]
        # The version's own evolve (an `engine.evolver`), not a method calling it: a frame fewer per
        # event, and hot folds find its table of handlers (`engine.handlers`).
        self.evolve: Callable[[PartyState, Any], PartyState] = self.rules.evolve
        # Version 1 logs never hold the outcome events (its evolve works the outcomes out itself).
        self.event_types = EVENT_TYPES if self.rules_version == 1 else (*EVENT_TYPES, *OUTCOME_EVENT_TYPES)

    def check_options(self, options: Any, players: int) -> None:
        check_options(options, players)

    def setup(self, options: PartyOptions, players: int, chance: Chance) -> tuple[PartyEvent, ...]:
        return deciding.setup(options, players, chance)

    def initial_state(self, options: Any, players: int) -> PartyState:
        return deciding.new_state(options, players)

    def decide(self, state: PartyState, seat: int, command: Command, chance: Chance) -> tuple[PartyEvent, ...]:
        return deciding.decide(state, seat, command, chance, self.rules)

    #: The random bots play one decision at a time (only Sushi Go! has a fast path).
    play_bots = staticmethod(no_bot_playout)

    def follow(self, state: PartyState, chance: Chance) -> Sequence[PartyEvent]:
        return self.rules.follow(state, chance)

    def legal_commands(self, state: Any, seat: int) -> Sequence[Any]:
        return legal_commands(state, seat)

    def awaiting(self, state: Any) -> tuple[int, ...]:
        awaiting: tuple[int, ...] = state.awaiting
        return awaiting

    def view(self, state: Any, seat: int | None) -> Any:
        return view(state, seat)

    def redact(self, event: Any, seat: int | None) -> Any | None:
        return redact(event, seat)

    def result(self, state: Any) -> Result | None:
        result: Result | None = state.result
        return result

    def picks(self, event: Any) -> tuple[tuple[int, str], ...]:
        """Every card a seat plays: its revealed card, the second card of its chopsticks, the card its
        menu ordered, and the card a spoon brought it (picked by the spoon's owner, not the giver)."""
        kind = type(event)
        if kind is CardsRevealed:
            return tuple((seat, SLUG[card]) for seat, card in enumerate(event.cards))
        if kind is ChopsticksUsed or kind is MenuOrdered:
            return ((event.seat, SLUG[event.card]),)
        if kind is SpoonGiven:
            return ((event.owner, SLUG[event.card]),)
        return ()

    def score(self, request: Any) -> tuple[SeatScore, ...]:
        return score_request(request)

    def catalog(self) -> Details:
        return details()


SUSHI_GO_PARTY: Game[PartyState, Command, PartyEvent, PartyOptions] = SushiGoParty()
