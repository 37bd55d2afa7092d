"""`SUSHI_GO_PARTY`: Sushi Go Party! as a `domain.engine.Game`, wired from the modules of this package.

Decisions where the rules (../shared/rules/sushi-go-party.md) leave a choice:

- **Picks are final** once sent; a pick may call **one** chopsticks or spoon of the tableau (at most
  one call per turn). Chopsticks cannot be called when the pick empties the hand; a spoon can be
  called on the last turn, and then nothing happens (it stays in the tableau).
- **Resolution order**: every picked card is played at the reveal; a special order resolves at once
  when played (before any numbered action); then chopsticks, spoons, menus and takeout boxes in card
  number order (a special order acting as chopsticks or a spoon is numbered 13-15, after them all).
- **Special order** copies an earlier card of this round's tableau (not a menu, takeout box, special
  order or face-down card); a copy is played like a new card of that slug (a copied nigiri takes the
  earliest free wasabi if any; a copied dessert goes to the fridge at round end like any dessert).
- **Takeout box** flips any earlier face-up non-dessert cards of this round (desserts are kept in the
  fridge). A flipped wasabi no longer triples its nigiri; a flipped nigiri keeps its wasabi used.
  Legal flips are listed in full up to 8 candidate cards, else the subsets of <= 2 cards and their
  complements (`decide` accepts any subset).
- **Miso soup**: checked at the end of the turn: when more than one was played this turn by any
  means, all of them are discarded (even one a takeout box flipped meanwhile).
- **Uramaki**: checked at the end of each turn; tied seats all get the place and use up as many
  places as they are (competition ranking); at round end the same for the remaining icons (>= 1).
- **Spoon** goes left whatever the passing direction; a request must be on the menu; a giver holding
  several variants of a requested type chooses (`give`), else the card is given automatically.
- **Temaki and pudding**: nobody scores when every count is equal.
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

from domain.chance import Chance
from domain.engine import Bot, Decided, Result, SeatScore
from domain.mcts import search_bots
from domain.sushi_go_party import decide as deciding
from domain.sushi_go_party import sampler
from domain.sushi_go_party.bots import GreedyBot, RandomBot
from domain.sushi_go_party.cards import (
    DEAL,
    DESSERTS_PER_ROUND,
    FACE_DOWN_POINTS,
    FRUIT_ICONS,
    MAKI_ICONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NIGIRI_POINTS,
    NUMBER,
    RESTRICTED,
    ROUNDS,
    SLUG,
    SLUG_IDS,
    TYPES,
    URAMAKI_ICONS,
    URAMAKI_PLACES,
)
from domain.sushi_go_party.commands import Command
from domain.sushi_go_party.events import EVENT_TYPES, CardsRevealed, ChopsticksUsed, MenuOrdered, SpoonGiven
from domain.sushi_go_party.legal import legal_commands
from domain.sushi_go_party.menus import MODES, SUGGESTED
from domain.sushi_go_party.options import PartyOptions, check_options
from domain.sushi_go_party.rules import evolve
from domain.sushi_go_party.scoring import ScoreRequest, score_request
from domain.sushi_go_party.state import PartyState
from domain.sushi_go_party.view import redact, view


def _card_entries() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []
    for card_type in TYPES:
        for variant in card_type.variants:
            ids = SLUG_IDS[variant.slug]
            entry: dict[str, Any] = {
                "slug": variant.slug,
                "name": variant.name,
                "type": card_type.type,
                "group": card_type.group,
                "count": variant.count,
                "colour": card_type.colour,
                "scoring": card_type.scoring,
                "ids": list(ids),
            }
            numbers = [NUMBER[card] for card in ids if NUMBER[card]]
            if numbers:
                entry["order"] = numbers
            if variant.slug in NIGIRI_POINTS:
                entry["points"] = NIGIRI_POINTS[variant.slug]
            if variant.slug in MAKI_ICONS:
                entry["icons"] = MAKI_ICONS[variant.slug]
            if variant.slug in URAMAKI_ICONS:
                entry["icons"] = URAMAKI_ICONS[variant.slug]
            if variant.slug in FRUIT_ICONS:
                entry["fruit"] = dict(
                    zip(("watermelon", "pineapple", "orange"), FRUIT_ICONS[variant.slug], strict=True)
                )
            cards.append(entry)
    return cards


class SushiGoParty:
    id = "sushi-go-party"
    name = "Sushi Go Party!"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options_type: type[msgspec.Struct] = PartyOptions
    command_type: Any = Command
    event_types: tuple[type[msgspec.Struct], ...] = EVENT_TYPES
    score_request_type: type[msgspec.Struct] = ScoreRequest
    bots: Mapping[str, Callable[[], Bot]] = {
        "random": RandomBot,
        "greedy": GreedyBot,
        **search_bots(lambda: SUSHI_GO_PARTY, sampler, GreedyBot, budget=4000, strong_budget=20000),
    }

    def check_options(self, options: Any, players: int) -> None:
        check_options(options, players)

    def setup(self, options: Any, players: int, chance: Chance) -> Sequence[Any] | Decided:
        return deciding.setup(options, players, chance)

    def initial_state(self, options: Any, players: int) -> PartyState:
        return deciding.new_state(options, players)

    def evolve(self, state: Any, event: Any) -> PartyState:
        return evolve(state, event)

    def decide(self, state: Any, seat: int, command: Any, chance: Chance) -> Sequence[Any] | Decided:
        return deciding.decide(state, seat, command, chance)

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

    def catalog(self) -> dict[str, Any]:
        return {
            "cards": _card_entries(),
            "face_down": {
                "slug": "face-down",
                "points": FACE_DOWN_POINTS,
                "scoring": "a card flipped by a takeout box",
            },
            "menus": [
                {
                    "id": menu.id,
                    "name": menu.name,
                    "roll": menu.roll,
                    "appetizers": list(menu.appetizers),
                    "specials": list(menu.specials),
                    "dessert": menu.dessert,
                    "players": {"min": menu.min_players, "max": menu.max_players},
                    "description": menu.description,
                }
                for menu in SUGGESTED
            ],
            "menu_modes": list(MODES),
            "menu_shape": {"roll": 1, "appetizers": 3, "specials": 2, "dessert": 1},
            "restrictions": {name: list(players) for name, players in RESTRICTED.items()},
            "rounds": ROUNDS,
            "deal": {str(players): size for players, size in DEAL.items()},
            "desserts_per_round": {str(players): list(counts) for players, counts in DESSERTS_PER_ROUND.items()},
            "uramaki_places": list(URAMAKI_PLACES),
            "variants": {
                "pass_both_ways": "rounds 1 and 3 pass left, round 2 passes right",
                "two_player_variant": "2 players: 5 cards dealt, then 1 drawn at the start of turns 2-6, every round",
            },
            "tie_break": "most dessert cards (the fridge); still tied: shared victory",
        }


SUSHI_GO_PARTY: SushiGoParty = SushiGoParty()
