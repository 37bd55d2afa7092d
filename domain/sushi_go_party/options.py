"""Options chosen at creation (`{"menu": ..., "pass_both_ways": false, "two_player_variant": false}`).

`menu` is a suggested menu id, a custom menu object, or how to choose the menu:
- `"random"` (default): drawn at setup among the suggested menus whose range fits the player count;
- `"first-player"`: seat 0 picks a suggested menu as the game's first command (`choose-menu`);
- `"build"`: seat 0 builds a custom menu as the game's first command (`choose-menu`);
- `"vote"`: seats propose in turn (seat 0 first) and everyone votes (see `decide`).
"""

from __future__ import annotations

import msgspec

from domain.engine import RuleViolation
from domain.sushi_go_party.menus import CustomMenu, check_menu_option


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
