"""The one command of Sushi Go!: pick one card, or two with chopsticks (`{"type": "pick", "cards": [17]}`).

Cards are unique card ids; with two cards the first listed is played first (it matters for wasabi).
Legal commands are built from interned tables, so listing them allocates almost nothing.

The scoring calculator's body (`ScoreRequest`) is here too: a body a caller sends, decoded as a command is.
"""

from __future__ import annotations

import msgspec

from kaiten.domain.sushi_go.cards import DECK_SIZE


class Pick(msgspec.Struct, frozen=True, tag="pick", tag_field="type", gc=False):
    cards: tuple[int, ...]


#: `Pick((card,))` for every card id.
SINGLE_PICKS: tuple[Pick, ...] = tuple(Pick(cards=(card,)) for card in range(DECK_SIZE))
#: Their cards, `(card,)` for every card id.
SINGLE_CARDS: tuple[tuple[int, ...], ...] = tuple(pick.cards for pick in SINGLE_PICKS)
_PAIR_ROWS: list[tuple[Pick, ...] | None] = [None] * DECK_SIZE


def pair_picks(first: int) -> tuple[Pick, ...]:
    """`Pick((first, second))` for every card id `second` (built once per `first`, then reused)."""
    row = _PAIR_ROWS[first]
    if row is None:
        row = _PAIR_ROWS[first] = tuple(Pick(cards=(first, second)) for second in range(DECK_SIZE))
    return row


class PlayerTableau(msgspec.Struct, frozen=True):
    #: Card slugs in play order (order matters for wasabi).
    cards: tuple[str, ...] = ()
    #: Desserts kept from earlier rounds (only `pudding` in Sushi Go!).
    desserts: tuple[str, ...] = ()


class ScoreRequest(msgspec.Struct, frozen=True):
    """The scoring calculator's body.

    `{"players": [{"cards": ["wasabi", "squid-nigiri"], "desserts": ["pudding"]}], "end_of_game": true}`.

    Maki compares the listed players. Puddings (desserts plus puddings among the cards) score only at
    the end of the game, with the 2-player rule when exactly two players are listed.
    """

    players: tuple[PlayerTableau, ...]
    end_of_game: bool = True
