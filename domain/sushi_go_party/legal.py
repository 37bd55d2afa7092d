"""`legal_commands`: every command a seat may send now (empty when it is not awaited).

Two decisions are bounded, and `decide` still accepts every valid command beyond the list:
- a takeout box with more than 8 cards it may flip lists the subsets of at most 2 cards and their
  complements (with 8 or fewer it lists all 2^k subsets);
- building or proposing a custom menu lists the suggested menus that fit the player count (by id)
  and the custom menus one substitution away from a suggested one (`menus.proposal_menus`).
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations
from typing import Any

from kaiten.domain.sushi_go_party.cards import SLUG, TYPE_BY_NAME
from kaiten.domain.sushi_go_party.commands import (
    SINGLE_PICKS,
    ChooseMenu,
    Chopsticks,
    Copy,
    Flip,
    Give,
    MenuPick,
    ProposeMenu,
    Spoon,
    Vote,
    pick,
)
from kaiten.domain.sushi_go_party.options import CustomMenu, MenuSpec, proposal_menus, suggested_for
from kaiten.domain.sushi_go_party.state import PartyState

#: A takeout box lists every subset up to this many flippable cards.
FLIP_ALL_UP_TO = 8
_APPROVE = (Vote(approve=True), Vote(approve=False))


def legal_commands(state: PartyState, seat: int) -> list[Any]:
    if seat not in state.awaiting:
        return []
    phase = state.phase
    if phase == "pick":
        hand = state.hands[seat]
        commands: list[Any] = [SINGLE_PICKS[card] for card in hand]
        for card, slug, _ in state.tableaus[seat]:
            if slug == "spoon" or (slug == "chopsticks" and len(hand) >= 2):
                commands.extend([pick(own, card) for own in hand])
        return commands
    if phase == "resolve":
        prompt = state.prompt
        if prompt is None or prompt.seat != seat:
            return []
        kind = prompt.kind
        options = prompt.options
        if kind == "copy":
            return [Copy(card=card) for card in options]
        if kind == "chopsticks":
            return [Chopsticks(card=card) for card in options]
        if kind == "give":
            return [Give(card=card) for card in options]
        if kind == "menu":
            return [MenuPick(card=card) for card in options if SLUG[card] != "menu"]
        if kind == "spoon":
            assert state.menu is not None
            return list(spoon_commands(state.menu))
        if kind == "flip":
            return list(flip_commands(options))
        return []
    if phase == "select":
        selection = state.selection
        assert selection is not None
        if selection.mode == "first-player":
            return [ChooseMenu(menu=menu.id) for menu in suggested_for(state.players)]
        if selection.mode == "build":
            return [ChooseMenu(menu=menu) for menu in menu_choices(state.players)]
        if seat == selection.proposer and selection.votes[seat] == -1:
            return [ProposeMenu(menu=menu) for menu in menu_choices(state.players)]
        return list(_APPROVE)
    return []


@cache
def menu_choices(players: int) -> tuple[str | CustomMenu, ...]:
    """Suggested ids that fit, then the bounded custom menus that are not a suggested one."""
    suggested = suggested_for(players)
    keys = {
        (menu.roll, tuple(sorted(menu.appetizers)), tuple(sorted(menu.specials)), menu.dessert) for menu in suggested
    }
    custom = [
        menu
        for menu in proposal_menus(players)
        if (menu.roll, tuple(sorted(menu.appetizers)), tuple(sorted(menu.specials)), menu.dessert) not in keys
    ]
    return (*[menu.id for menu in suggested], *custom)


@lru_cache(maxsize=256)
def spoon_requests(menu: MenuSpec) -> tuple[str, ...]:
    """Every type of the menu, and every variant of its types that have several."""
    requests: list[str] = []
    for name in menu.types():
        requests.append(name)
        variants = TYPE_BY_NAME[name].variants
        if len(variants) > 1:
            requests.extend([variant.slug for variant in variants])
    return tuple(requests)


@lru_cache(maxsize=256)
def spoon_commands(menu: MenuSpec) -> tuple[Spoon, ...]:
    return tuple(Spoon(request=request) for request in spoon_requests(menu))


@lru_cache(maxsize=1024)
def flip_commands(options: tuple[int, ...]) -> tuple[Flip, ...]:
    count = len(options)
    if count <= FLIP_ALL_UP_TO:
        subsets = [cards for size in range(count + 1) for cards in combinations(options, size)]
    else:
        small = [cards for size in range(3) for cards in combinations(options, size)]
        large = [tuple(card for card in options if card not in cards) for cards in reversed(small)]
        subsets = small + large
    return tuple(Flip(cards=cards) for cards in subsets)
