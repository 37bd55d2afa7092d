"""Options chosen at creation (`{"menu": ..., "pass_both_ways": false, "two_player_variant": false}`).

`menu` is a suggested menu id, a custom menu object, or how to choose the menu:
- `"random"` (default): drawn at setup among the suggested menus whose range fits the player count;
- `"first-player"`: seat 0 picks a suggested menu as the game's first command (`choose-menu`);
- `"build"`: seat 0 builds a custom menu as the game's first command (`choose-menu`);
- `"vote"`: seats propose in turn (seat 0 first) and everyone votes (see `decide`).

Menus: which card types are in a game (nigiri, 1 roll, 3 appetizers, 2 specials, 1 dessert).

The 8 suggested menus carry seed 002's suggested player ranges; a custom menu only has to obey the
player-count restrictions (`menu` and `special-order` not with 7-8 players, `spoon` and `edamame`
not with 2). A suggested menu chosen by id must also fit its suggested range, as seed 002's game
modes do ("Sushi Go! (2-6p)").
"""

from __future__ import annotations

from functools import cache

import msgspec

from kaiten.domain.engine import RuleViolation
from kaiten.domain.sushi_go_party.cards import (
    APPETIZERS,
    DESSERTS,
    ROLLS,
    SPECIALS,
    TYPE_BY_NAME,
    TYPE_IDS,
    allowed,
)


class CustomMenu(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A menu given type by type: `{"roll": "maki", "appetizers": [3], "specials": [2], "dessert": ...}`."""

    roll: str
    appetizers: tuple[str, ...]
    specials: tuple[str, ...]
    dessert: str


class MenuSpec(msgspec.Struct, frozen=True, gc=False):
    """A chosen menu; `id` is the suggested menu's id, None for a custom one."""

    id: str | None
    roll: str
    appetizers: tuple[str, ...]
    specials: tuple[str, ...]
    dessert: str

    def types(self) -> tuple[str, ...]:
        return ("nigiri", self.roll, *self.appetizers, *self.specials, self.dessert)


class SuggestedMenu(msgspec.Struct, frozen=True):
    id: str
    name: str
    roll: str
    appetizers: tuple[str, ...]
    specials: tuple[str, ...]
    dessert: str
    min_players: int
    max_players: int
    description: str

    def spec(self) -> MenuSpec:
        return MenuSpec(self.id, self.roll, self.appetizers, self.specials, self.dessert)


SUGGESTED: tuple[SuggestedMenu, ...] = (
    SuggestedMenu(
        "my-first-meal",
        "My First Meal",
        "maki",
        ("tempura", "sashimi", "miso-soup"),
        ("wasabi", "tea"),
        "green-tea-ice-cream",
        2,
        8,
        "for new players",
    ),
    SuggestedMenu(
        "sushi-go",
        "Sushi Go!",
        "maki",
        ("tempura", "sashimi", "dumpling"),
        ("chopsticks", "wasabi"),
        "pudding",
        2,
        6,
        "the classic original game",
    ),
    SuggestedMenu(
        "party-sampler",
        "Party Sampler",
        "temaki",
        ("tempura", "dumpling", "tofu"),
        ("wasabi", "menu"),
        "green-tea-ice-cream",
        3,
        6,
        "fresh and new taste",
    ),
    SuggestedMenu(
        "master-menu",
        "Master Menu",
        "temaki",
        ("onigiri", "tofu", "sashimi"),
        ("spoon", "takeout-box"),
        "fruit",
        3,
        8,
        "for seasoned players",
    ),
    SuggestedMenu(
        "points-platter",
        "Points Platter",
        "uramaki",
        ("onigiri", "dumpling", "edamame"),
        ("special-order", "tea"),
        "green-tea-ice-cream",
        3,
        6,
        "score big points",
    ),
    SuggestedMenu(
        "cutthroat-combo",
        "Cutthroat Combo",
        "temaki",
        ("eel", "tofu", "miso-soup"),
        ("spoon", "soy-sauce"),
        "pudding",
        3,
        8,
        "in your face",
    ),
    SuggestedMenu(
        "big-banquet",
        "Big Banquet",
        "maki",
        ("tempura", "dumpling", "eel"),
        ("spoon", "chopsticks"),
        "green-tea-ice-cream",
        3,
        8,
        "best with 6-8 players",
    ),
    SuggestedMenu(
        "dinner-for-two",
        "Dinner for Two",
        "uramaki",
        ("onigiri", "tofu", "miso-soup"),
        ("menu", "special-order"),
        "fruit",
        2,
        6,
        "best with 2 players",
    ),
)
SUGGESTED_BY_ID: dict[str, SuggestedMenu] = {menu.id: menu for menu in SUGGESTED}
#: `menu` option values that are not a menu: how the menu gets chosen.
MODES: tuple[str, ...] = ("random", "first-player", "build", "vote")


def fits(menu: SuggestedMenu, players: int) -> bool:
    return menu.min_players <= players <= menu.max_players


@cache
def suggested_for(players: int) -> tuple[SuggestedMenu, ...]:
    """The suggested menus whose suggested range includes this player count."""
    return tuple(menu for menu in SUGGESTED if fits(menu, players))


def check_custom(menu: CustomMenu | MenuSpec, players: int) -> None:
    """Raise RuleViolation unless the menu is 1 roll, 3 appetizers, 2 specials, 1 dessert, allowed."""
    if menu.roll not in ROLLS:
        raise RuleViolation("invalid-menu", f"the roll must be one of {list(ROLLS)}, not {menu.roll!r}")
    if len(menu.appetizers) != 3 or len(set(menu.appetizers)) != 3:
        raise RuleViolation("invalid-menu", "a menu has exactly 3 different appetizers")
    for name in menu.appetizers:
        if name not in APPETIZERS:
            raise RuleViolation("invalid-menu", f"the appetizers come from {list(APPETIZERS)}, not {name!r}")
    if len(menu.specials) != 2 or len(set(menu.specials)) != 2:
        raise RuleViolation("invalid-menu", "a menu has exactly 2 different specials")
    for name in menu.specials:
        if name not in SPECIALS:
            raise RuleViolation("invalid-menu", f"the specials come from {list(SPECIALS)}, not {name!r}")
    if menu.dessert not in DESSERTS:
        raise RuleViolation("invalid-menu", f"the dessert must be one of {list(DESSERTS)}, not {menu.dessert!r}")
    for name in (*menu.appetizers, *menu.specials):
        if not allowed(name, players):
            raise RuleViolation(
                "card-not-for-player-count",
                f"{TYPE_BY_NAME[name].name} cannot be on the menu with {players} players "
                "(menu and special order: 2-6 players; spoon and edamame: 3-8 players)",
            )


def resolve_menu(menu: str | CustomMenu, players: int) -> MenuSpec:
    """A suggested id (that fits the player count) or a custom menu, validated, as a MenuSpec."""
    if isinstance(menu, str):
        suggested = SUGGESTED_BY_ID.get(menu)
        if suggested is None:
            raise RuleViolation("unknown-menu", f"no suggested menu {menu!r}; try one of {sorted(SUGGESTED_BY_ID)}")
        if not fits(suggested, players):
            raise RuleViolation(
                "menu-not-for-player-count",
                f"{suggested.name} is for {suggested.min_players}-{suggested.max_players} players, not {players}",
            )
        return suggested.spec()
    check_custom(menu, players)
    return MenuSpec(None, menu.roll, tuple(menu.appetizers), tuple(menu.specials), menu.dessert)


def check_menu_option(menu: str | CustomMenu, players: int) -> None:
    if isinstance(menu, str) and menu in MODES:
        return
    resolve_menu(menu, players)


@cache
def proposal_menus(players: int) -> tuple[CustomMenu, ...]:
    """The bounded set of custom menus listed as legal when building or proposing one.

    Every valid custom menu would be up to 3 * 56 * 28 * 3 = 14112 commands, so the list holds the
    suggested menus and every menu one substitution away from one of them (another roll, appetizer,
    special or dessert in one slot) that obeys the restrictions: every type appears in every slot.
    `decide` accepts any valid custom menu, listed or not.
    """
    seen: set[tuple[str, tuple[str, ...], tuple[str, ...], str]] = set()
    out: list[CustomMenu] = []

    def add(roll: str, appetizers: tuple[str, ...], specials: tuple[str, ...], dessert: str) -> None:
        key = (roll, tuple(sorted(appetizers)), tuple(sorted(specials)), dessert)
        if key in seen:
            return
        candidate = CustomMenu(roll, appetizers, specials, dessert)
        try:
            check_custom(candidate, players)
        except RuleViolation:
            return
        seen.add(key)
        out.append(candidate)

    for base in SUGGESTED:
        add(base.roll, base.appetizers, base.specials, base.dessert)
        for roll in ROLLS:
            add(roll, base.appetizers, base.specials, base.dessert)
        for slot in range(3):
            for name in APPETIZERS:
                if name not in base.appetizers:
                    appetizers = (*base.appetizers[:slot], name, *base.appetizers[slot + 1 :])
                    add(base.roll, appetizers, base.specials, base.dessert)
        for slot in range(2):
            for name in SPECIALS:
                if name not in base.specials:
                    specials = (*base.specials[:slot], name, *base.specials[slot + 1 :])
                    add(base.roll, base.appetizers, specials, base.dessert)
        for dessert in DESSERTS:
            add(base.roll, base.appetizers, base.specials, dessert)
    return tuple(out)


def menu_cards(menu: MenuSpec) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(the main deck's card ids, the dessert pile's card ids) of a menu, ascending."""
    main: list[int] = []
    for name in ("nigiri", menu.roll, *menu.appetizers, *menu.specials):
        main.extend(TYPE_IDS[name])
    return tuple(sorted(main)), TYPE_IDS[menu.dessert]


class PartyOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    menu: str | CustomMenu = "random"
    #: Rounds 1 and 3 pass left, round 2 passes right.
    pass_both_ways: bool = False
    #: 2 players only: 5 cards dealt, then 1 card drawn at the start of turns 2-6, every round.
    two_player_variant: bool = False


def check_options(options: PartyOptions, players: int) -> None:
    check_menu_option(options.menu, players)
    if options.two_player_variant and players != 2:
        raise RuleViolation("invalid-options", "the 2-player variant needs exactly 2 players")
