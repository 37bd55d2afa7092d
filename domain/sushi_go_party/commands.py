"""Commands of Sushi Go Party! (tagged by `type`, kebab-case); cards are unique card ids.

- `{"type": "pick", "card": 17, "call": null}`: the turn's hidden pick; `call` names a chopsticks or
  spoon card of your tableau to call at the reveal (at most one per turn).
- `{"type": "copy", "card": 40}`: a special order copies this earlier card of your tableau.
- `{"type": "chopsticks", "card": 12}`: the second card, from your hand, after the reveal.
- `{"type": "spoon", "request": "maki"}`: a type (the giver picks the variant) or a variant (`maki-3`).
- `{"type": "give", "card": 30}`: the spoon's giver picks which matching card to give.
- `{"type": "menu-pick", "card": 77}`: one of the cards the menu drew (not a menu).
- `{"type": "flip", "cards": [3, 9]}`: the takeout box's cards to flip (maybe none).
- `{"type": "choose-menu", "menu": "sushi-go"}`: first-player (suggested id) / build (custom menu).
- `{"type": "propose-menu", "menu": ...}` and `{"type": "vote", "approve": true}`: vote mode.

The scoring calculator's body (`ScoreRequest`) is here too: a body a caller sends, decoded as a command is.
"""

from __future__ import annotations

import msgspec

from kaiten.domain.sushi_go_party.cards import CARD_COUNT
from kaiten.domain.sushi_go_party.options import CustomMenu


class Pick(msgspec.Struct, frozen=True, tag="pick", tag_field="type", gc=False):
    card: int
    call: int | None = None


class Copy(msgspec.Struct, frozen=True, tag="copy", tag_field="type", gc=False):
    card: int


class Chopsticks(msgspec.Struct, frozen=True, tag="chopsticks", tag_field="type", gc=False):
    card: int


class Spoon(msgspec.Struct, frozen=True, tag="spoon", tag_field="type", gc=False):
    request: str


class Give(msgspec.Struct, frozen=True, tag="give", tag_field="type", gc=False):
    card: int


class MenuPick(msgspec.Struct, frozen=True, tag="menu-pick", tag_field="type", gc=False):
    card: int


class Flip(msgspec.Struct, frozen=True, tag="flip", tag_field="type", gc=False):
    cards: tuple[int, ...] = ()


class ChooseMenu(msgspec.Struct, frozen=True, tag="choose-menu", tag_field="type", gc=False):
    menu: str | CustomMenu


class ProposeMenu(msgspec.Struct, frozen=True, tag="propose-menu", tag_field="type", gc=False):
    menu: str | CustomMenu


class Vote(msgspec.Struct, frozen=True, tag="vote", tag_field="type", gc=False):
    approve: bool


Command = Pick | Copy | Chopsticks | Spoon | Give | MenuPick | Flip | ChooseMenu | ProposeMenu | Vote

#: `Pick(card)` for every card id.
SINGLE_PICKS: tuple[Pick, ...] = tuple(Pick(card=card) for card in range(CARD_COUNT))
_PICKS: dict[tuple[int, int | None], Pick] = {}


def pick(card: int, call: int | None = None) -> Pick:
    """`Pick(card, call)`, interned."""
    key = (card, call)
    command = _PICKS.get(key)
    if command is None:
        command = _PICKS[key] = Pick(card=card, call=call)
    return command


class PlayerTableau(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    #: Card slugs in play order (order matters for wasabi); a special order is listed as the slug
    #: it copies, a card flipped by a takeout box as `face-down`.
    cards: tuple[str, ...] = ()
    #: Desserts kept from earlier rounds (the fridge).
    desserts: tuple[str, ...] = ()


class ScoreRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The scoring calculator's body.

    `{"players": [{"cards": ["wasabi", "squid-nigiri"], "desserts": ["pudding"]}], "end_of_game": true,
    "menu": "sushi-go", "players_count": 6}`.

    - `players_count` (default: the number of listed players, at least 2) sets the maki awards (6/4/2 with 6+)
      and the 2-player rule for temaki and pudding.
    - `menu` (a suggested id or a custom menu) sets which dessert scores; without it, the desserts
      that appear score. It matters for fruit, where no fruit at all is -6.
    - Uramaki: the listed uramaki are the ones left at round end, every place is unclaimed.
    - Desserts (the fridge plus desserts among the cards) score only when `end_of_game` is true.
    """

    players: tuple[PlayerTableau, ...]
    end_of_game: bool = True
    menu: str | CustomMenu | None = None
    players_count: int | None = None
