"""Sushi Go Party! (`sushi-go-party`, 2-8 players) for the environments.

Cards are named by **slug** (the 37 variants of the catalog, in catalog order: egg-nigiri ...
fruit-wo); two copies of a slug are the same action, the first copy the domain lists is played (for
the numbered specials, the lowest number in hand: it resolves first).

**Actions** (blocks in this order; `S` = 37 slugs):

- pick: `3 * slug + call`, call 0 none, 1 chopsticks, 2 spoon (`3 * S`);
- copy (special order): the slug the copied card scores as (`S`);
- chopsticks (second card): slug (`S`); give (to a spoon): slug (`S`); menu-pick: slug (`S`);
- spoon request: every card type and variant name, sorted (42);
- flip (takeout box): the index of the flip in the domain's listing of the box's choices (every
  subset by size when it may flip up to 8 cards, else the subsets of at most 2 cards and their
  complements); 422 actions cover up to 20 flippable cards, more than a round can hold;
- choose-menu, then propose-menu: the index in the menus the domain offers for this player count;
- vote: approve, disapprove.

**Observation** (`4 + 6 + 23 + S + 7 + S + 1 + players * (S + 12)` numbers; seats in turn from the
observer: itself, then the seat on its left, and so on):

- phase one-hot (select, pick, resolve, over); round, turn, hand size, deck size, dessert pile
  size, 1 when hands pass right this round;
- the menu: one-hot over the 23 card types;
- the observer's hand: cards per slug;
- the waiting bonus action: kind one-hot (copy, chopsticks, spoon, give, menu, flip), 1 when the
  observer is asked, and (only then) the cards it chooses among, per slug;
- the points of the next uramaki place;
- per seat: this round's tableau per scoring slug and face down (`S + 1`), its fridge per dessert
  slug (8), total score, uramaki icons, uramaki points this round.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cache
from typing import Any

from kaiten.domain.sushi_go_party.cards import DEAL, REQUESTS, ROUNDS, SLUG, TYPES
from kaiten.domain.sushi_go_party.commands import (
    ChooseMenu,
    Chopsticks,
    Copy,
    Flip,
    Give,
    MenuPick,
    Pick,
    ProposeMenu,
    Spoon,
    Vote,
)
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY
from kaiten.domain.sushi_go_party.legal import flip_commands, menu_choices
from kaiten.domain.sushi_go_party.state import PartyState
from kaiten.environments.games.sushi_go_party_observer import (
    DESSERTS,
    PHASES,
    PROMPTS,
    SLUG_INDEX,
    SLUGS,
    PartyObserver,
)
from kaiten.environments.render import card_list, scores_line
from kaiten.environments.spec import ActionTable, Observer

SPOON_REQUESTS: tuple[str, ...] = tuple(sorted(REQUESTS))
CALLS = ("none", "chopsticks", "spoon")
#: Flippable cards the flip block covers; a round's tableau never holds that many.
MAX_FLIPPABLE = 20
FLIP_ACTIONS = max(2**8, 2 * (1 + MAX_FLIPPABLE + MAX_FLIPPABLE * (MAX_FLIPPABLE - 1) // 2))
_SLOT = len(SLUGS)
#: Where the seats start: after the phase, the scalars, the menu, the hand, the bonus action (its
#: kind, asked, its options) and the next uramaki points.
SEATS_AT = len(PHASES) + 6 + len(TYPES) + _SLOT + len(PROMPTS) + 1 + _SLOT + 1
#: Per seat: tableau per slug and face down, fridge per dessert, total, uramaki icons and points.
SEAT_FEATURES = _SLOT + 1 + len(DESSERTS) + 3


def _name(key: Hashable) -> str:
    assert isinstance(key, tuple)
    kind, value = key[0], key[1:]
    if kind == "pick":
        slug, call = value
        return f"pick {SLUGS[slug]}" + ("" if call == 0 else f" calling {CALLS[call]}")
    if kind in ("copy", "chopsticks", "give", "menu-pick"):
        return f"{kind} {SLUGS[value[0]]}"
    if kind in ("spoon", "flip", "choose-menu", "propose-menu"):
        return f"{kind} {value[0]}"
    return "vote approve" if value[0] else "vote disapprove"


@cache
def _actions(players: int) -> ActionTable:
    slugs = range(len(SLUGS))
    menus = range(len(menu_choices(players)))
    keys: list[Hashable] = [("pick", slug, call) for slug in slugs for call in range(len(CALLS))]
    for kind in ("copy", "chopsticks", "give", "menu-pick"):
        keys += [(kind, slug) for slug in slugs]
    keys += [("spoon", request) for request in SPOON_REQUESTS]
    keys += [("flip", index) for index in range(FLIP_ACTIONS)]
    keys += [("choose-menu", index) for index in menus]
    keys += [("propose-menu", index) for index in menus]
    keys += [("vote", True), ("vote", False)]
    return ActionTable(keys, _name)


#: A pick's action without a call, per card id (picks open every player count's action space).
_PICK_AT: tuple[int, ...] = tuple(_actions(2).index[("pick", SLUG_INDEX[slug], 0)] for slug in SLUG)


@cache
def _menu_index(players: int) -> dict[Any, int]:
    return {menu: index for index, menu in enumerate(menu_choices(players))}


def _tableau_slug(state: PartyState, seat: int, card: int) -> str:
    return next(slug for entry, slug, _ in state.tableaus[seat] if entry == card)


def _flip_index(state: PartyState, command: Flip) -> int:
    assert state.prompt is not None
    index = flip_commands(state.prompt.options).index(command)
    if index >= FLIP_ACTIONS:
        raise ValueError(f"a takeout box with more than {MAX_FLIPPABLE} cards to flip has no action")
    return index


class PartySpec:
    game = SUSHI_GO_PARTY
    simultaneous = True
    utility_bound = 600.0

    def actions(self, players: int) -> ActionTable:
        return _actions(players)

    def actions_of(self, state: Any, seat: int, commands: Sequence[Any]) -> list[int]:
        index = _actions(state.players).index
        # What each called card (chopsticks, spoon) is, read once: every card in hand may call it.
        calls: dict[int, int] = {}
        actions = []
        for command in commands:
            if type(command) is Pick:
                # The commonest command, by arithmetic: picks come first, three calls per slug.
                called: int | None = command.call
                call = 0
                if called is not None:
                    known = calls.get(called)
                    call = calls[called] = CALLS.index(_tableau_slug(state, seat, called)) if known is None else known
                actions.append(_PICK_AT[command.card] + call)
            else:
                actions.append(index[self._key(state, seat, command)])
        return actions

    def _key(self, state: Any, seat: int, command: Any) -> Hashable:
        """The key of a command's action, for the commands other than picks."""
        kind = type(command)
        if kind is Copy:
            return ("copy", SLUG_INDEX[_tableau_slug(state, seat, command.card)])
        if kind is Chopsticks:
            return ("chopsticks", SLUG_INDEX[SLUG[command.card]])
        if kind is Give:
            return ("give", SLUG_INDEX[SLUG[command.card]])
        if kind is MenuPick:
            return ("menu-pick", SLUG_INDEX[SLUG[command.card]])
        if kind is Spoon:
            return ("spoon", command.request)
        if kind is Flip:
            return ("flip", _flip_index(state, command))
        if kind is ChooseMenu:
            return ("choose-menu", _menu_index(state.players)[command.menu])
        if kind is ProposeMenu:
            return ("propose-menu", _menu_index(state.players)[command.menu])
        if kind is Vote:
            return ("vote", command.approve)
        raise TypeError(f"not a Sushi Go Party! command: {command!r}")

    def observation_size(self, players: int) -> int:
        return SEATS_AT + players * SEAT_FEATURES

    def observer(self, players: int) -> Observer:
        return PartyObserver(players)

    def simultaneous_now(self, state: Any) -> bool:
        assert isinstance(state, PartyState)
        return state.phase == "pick"

    def max_moves(self, players: int) -> int:
        # Menu selection (a proposal and a vote per seat), then every turn: the picks, a bonus action
        # per card played (at most two a seat), their chance steps, and a deal per round.
        return players * (players + 1) + ROUNDS * (DEAL[players] + 1) * (1 + 4 * players)

    def render(self, state: Any) -> str:
        assert isinstance(state, PartyState)
        menu = "undecided" if state.menu is None else ", ".join(state.menu.types())
        lines = [
            f"Sushi Go Party! ({menu}) round {state.round}, turn {state.turn}, {state.phase};"
            f" awaiting {list(state.awaiting)}"
        ]
        if state.prompt is not None:
            lines.append(f"waiting: {state.prompt.kind} by seat {state.prompt.seat}")
        for seat in range(state.players):
            tableau = ", ".join(slug for _, slug, _ in state.tableaus[seat])
            fridge = ", ".join(slug for _, slug in state.fridges[seat])
            lines.append(
                f"seat {seat}: hand [{card_list(state.hands[seat], SLUG.__getitem__)}] tableau [{tableau}]"
                f" fridge [{fridge}] total {state.totals[seat]}"
            )
        lines.append(scores_line(state.result))
        return "\n".join(line for line in lines if line)


SPEC = PartySpec()
