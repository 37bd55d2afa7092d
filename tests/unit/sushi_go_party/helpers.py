"""Builders for hand-made Sushi Go Party! states, and table-driven games."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.engine import play
from kaiten.domain.sushi_go_party.cards import NIGIRI_POINTS, SLUG, SLUG_IDS, URAMAKI_ICONS
from kaiten.domain.sushi_go_party.commands import Pick
from kaiten.domain.sushi_go_party.decide import PartyRules, new_state
from kaiten.domain.sushi_go_party.events import MenuChosen, RoundDealt
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY as GAME
from kaiten.domain.sushi_go_party.options import PartyOptions, menu_cards, resolve_menu
from kaiten.domain.sushi_go_party.rules_v1 import RULES_V1, evolve
from kaiten.domain.sushi_go_party.state import Entry, PartyState

#: The rules `setup_game` plays by default (test_turns.py runs every test under each version).
DEFAULT_RULES: PartyRules = RULES_V1


def menu(
    roll: str = "maki",
    appetizers: Sequence[str] = ("tempura", "sashimi", "miso-soup"),
    specials: Sequence[str] = ("wasabi", "tea"),
    dessert: str = "pudding",
) -> dict[str, Any]:
    return {"roll": roll, "appetizers": list(appetizers), "specials": list(specials), "dessert": dessert}


class Game:
    """A hand-made game: a state, a log of the events folded into it, and a counter for Chance."""

    def __init__(self, state: PartyState, seed: int = 0, rules: PartyRules = RULES_V1) -> None:
        self.state = state
        self.events: list[Any] = []
        self.seed = seed
        self.version = 0
        self.rules = rules

    def act(self, seat: int, command: Any) -> list[Any]:
        self.version += 1
        game = GAME.at_rules_version(self.rules.version)
        events, self.state = play(game, self.state, seat, command, Chance(self.seed, self.version))
        self.events.extend(events)
        return list(events)

    def turn(self, *picks: int | tuple[int, int]) -> list[Any]:
        """Every seat picks (a card id, or (card id, called card id)), in seat order."""
        out: list[Any] = []
        for seat, choice in enumerate(picks):
            card, call = choice if isinstance(choice, tuple) else (choice, None)
            out.extend(self.act(seat, Pick(card=card, call=call)))
        return out

    def answer(self, command: Any) -> list[Any]:
        prompt = self.state.prompt
        assert prompt is not None, "no prompt waiting"
        return self.act(prompt.seat, command)

    def slugs(self, seat: int) -> list[str]:
        return [slug for _, slug, _ in self.state.tableaus[seat]]

    def hand_slugs(self, seat: int) -> list[str]:
        return [SLUG[card] for card in self.state.hands[seat]]


def setup_game(
    menu_option: str | dict[str, Any],
    players: int,
    hands: Sequence[Sequence[str]],
    tableaus: Sequence[Sequence[str]] | None = None,
    *,
    desserts: Sequence[str] = (),
    seed: int = 0,
    rules: PartyRules | None = None,
    **options: Any,
) -> tuple[Game, dict[str, list[int]]]:
    """A game of round 1, turn 1, with the given hands and tableaus (slugs; wasabi bound in order),
    played under `rules` (default: `DEFAULT_RULES`, which a test module may switch).

    Returns the game and the card ids handed out per slug (in the order they were asked for).
    """
    parsed = msgspec.convert({"menu": menu_option, **options}, PartyOptions)
    state = new_state(parsed, players)
    spec = resolve_menu(parsed.menu, players)
    state = evolve(state, MenuChosen(menu=spec, how="option"))
    main, pile = menu_cards(spec)
    free = {slug: [card for card in ids if card in main or card in pile] for slug, ids in SLUG_IDS.items()}
    given: dict[str, list[int]] = {}

    def take(slug: str) -> int:
        card = free[slug].pop(0)
        given.setdefault(slug, []).append(card)
        return card

    dealt = tuple(tuple(take(slug) for slug in hand) for hand in hands)
    # Desserts shuffled in: the asked ones, and those dealt into the hands.
    dessert_ids = (*(take(slug) for slug in desserts), *(card for hand in dealt for card in hand if card in pile))
    state = evolve(
        state,
        RoundDealt(round=1, hand_size=len(dealt[0]), hands=dealt, dessert_count=len(dessert_ids), desserts=dessert_ids),
    )
    if tableaus:
        built: list[tuple[Entry, ...]] = []
        taken: set[int] = set()
        for slugs in tableaus:
            entries: list[Entry] = []
            free_wasabi: list[int] = []
            for slug in slugs:
                card = take(slug)
                taken.add(card)
                on = -1
                if slug == "wasabi":
                    free_wasabi.append(card)
                elif slug in NIGIRI_POINTS and free_wasabi:
                    on = free_wasabi.pop(0)
                entries.append((card, slug, on))
            built.append(tuple(entries))
        built.extend([()] * (players - len(built)))
        state = msgspec.structs.replace(
            state,
            tableaus=tuple(built),
            uramaki_icons=tuple(sum(URAMAKI_ICONS.get(slug, 0) for _, slug, _ in entries) for entries in built),
            deck=tuple(card for card in state.deck if card not in taken),
            dessert_pile=tuple(card for card in state.dessert_pile if card not in taken),
        )
    return Game(state, seed, rules or DEFAULT_RULES), given


def all_cards(state: PartyState) -> list[int]:
    """Every card of every zone (a card in two zones appears twice)."""
    return [
        *state.deck,
        *(card for hand in state.hands for card in hand),
        *(entry[0] for tableau in state.tableaus for entry in tableau),
        *(card for fridge in state.fridges for card, _ in fridge),
        *state.discard,
        *state.dessert_pile,
        *state.drawn,
    ]


def check_conservation(state: PartyState) -> None:
    if state.menu is None:
        return
    main, pile = menu_cards(state.menu)
    assert sorted(all_cards(state)) == sorted((*main, *pile))


# --- whole games through the lobby table ---------------------------------------------------------


def new_table(seed: int, bots: Sequence[str], options: dict[str, Any] | None = None) -> tuple[lobby.Table, list[Any]]:
    events: list[Any] = lobby.create_game(GAME, len(bots), options, seed, salt=bytes(16))
    table = lobby.replay(GAME, events)
    for bot in bots:
        decision = lobby.take_seat(GAME, table, Chance(seed, len(events)), bot=bot)
        events.extend(decision.events)
        table = decision.table
    return table, events


def step(table: lobby.Table, events: list[Any], seed: int, rng: random.Random) -> lobby.Decision:
    seat = lobby.next_bot_seat(GAME, table)
    assert seat is not None
    command = lobby.bot_command(GAME, table, seat, Chance.from_rng(rng))
    decision = lobby.act(GAME, table, seat, command, Chance(seed, len(events)))
    events.extend(decision.events)
    return decision


def play_table(
    seed: int, bots: Sequence[str], options: dict[str, Any] | None = None, check: bool = False
) -> tuple[lobby.Table, list[Any], list[lobby.Table]]:
    table, events = new_table(seed, bots, options)
    rng = random.Random(seed)
    tables = [table]
    for _ in range(5000):
        if table.status != "active":
            break
        table = step(table, events, seed, rng).table
        if check:
            check_conservation(table.state)
        tables.append(table)
    assert table.status == "finished"
    return table, events, tables
