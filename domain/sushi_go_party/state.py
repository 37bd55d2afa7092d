"""The state of a Sushi Go Party! game: tuples of ints and small tuples, cheap to copy.

Every card of the menu is always in exactly one zone: `deck + hands + tableaus + fridges + discard
+ dessert_pile + drawn` (`drawn`: the cards a menu card drew, while its owner chooses one). A
hidden pick stays in its hand until the reveal.

A tableau entry is `(card id, slug it scores as, wasabi card id it sits on or -1)`: the slug is the
card's own, the one a special order copies, or `face-down` after a takeout box flipped it.

Phases: `select` (choosing the menu), `pick` (simultaneous hidden picks), `resolve` (a bonus action
waits for `prompt.seat`), `over`. Transient phases never rest after a decision (the decider follows
them at once, drawing chance where needed): `setup`, `deal`, `draw` (2-player variant), `score`,
`desserts`, and `resolve` with a `draw-menu` prompt.
"""

from __future__ import annotations

import msgspec

from kaiten.domain.engine import Result, SeatScore
from kaiten.domain.sushi_go_party.options import MenuSpec

Cards = tuple[int, ...]
#: (card id, slug it scores as, wasabi card id it sits on or -1)
Entry = tuple[int, str, int]
Tableau = tuple[Entry, ...]
#: A numbered bonus action waiting in this turn: (order number, seat, card id, kind).
Action = tuple[int, int, int, str]


class Prompt(msgspec.Struct, frozen=True, gc=False):
    """A bonus action waiting for one seat's choice.

    kind: `copy` (special order), `chopsticks` (second card), `spoon` (name a card), `give` (the
    spoon's giver picks a variant), `menu` (pick one of the drawn cards), `flip` (takeout box),
    `draw-menu` (transient: the menu's 4 cards are drawn next).
    """

    kind: str
    seat: int
    #: The special card that acts (special order, chopsticks, spoon, menu, takeout box).
    card: int
    #: The cards to choose among (private to `seat`).
    options: Cards = ()
    #: What the spoon asked for (`give`).
    request: str | None = None
    #: The spoon's owner (`give`), else -1.
    owner: int = -1


class Selection(msgspec.Struct, frozen=True, gc=False):
    """Choosing the menu before play: `first-player`, `build` or `vote`."""

    mode: str
    #: Who proposes now (vote), who chooses (first-player, build).
    proposer: int = 0
    proposals: tuple[MenuSpec, ...] = ()
    #: Approvals per proposal (the proposer's own approval included).
    approvals: tuple[int, ...] = ()
    #: The current proposal's votes per seat: -1 not yet, 0 disapprove, 1 approve.
    votes: tuple[int, ...] = ()


class PartyState(msgspec.Struct, frozen=True, gc=False):
    players: int
    pass_both_ways: bool = False
    two_player_variant: bool = False
    phase: str = "setup"
    awaiting: tuple[int, ...] = ()
    menu: MenuSpec | None = None
    selection: Selection | None = None
    #: 1..3 once dealt.
    round: int = 0
    #: 1.. within a round.
    turn: int = 0
    #: Undealt cards; the order is drawn when drawing, never stored.
    deck: Cards = ()
    #: Desserts not shuffled into the deck yet (never used: 5 of them with 2-5 players).
    dessert_pile: Cards = ()
    hands: tuple[Cards, ...] = ()
    tableaus: tuple[Tableau, ...] = ()
    #: Desserts kept by each seat from finished rounds: (card id, slug it scores as).
    fridges: tuple[tuple[tuple[int, str], ...], ...] = ()
    #: Cards discarded this round (used menus and boxes, clashed miso soups, scored uramaki...);
    #: shuffled back into the deck at round end.
    discard: Cards = ()
    #: The cards a menu drew, while its owner chooses one.
    drawn: Cards = ()
    #: This turn's hidden picks and calls (chopsticks or spoon card id), -1 when none.
    picks: Cards = ()
    calls: Cards = ()
    #: Numbered bonus actions of this turn, lowest number first.
    queue: tuple[Action, ...] = ()
    #: Special orders played and not yet resolved: (seat, card id), in play order.
    immediate: tuple[tuple[int, int], ...] = ()
    prompt: Prompt | None = None
    #: Miso soups played this turn by any means: (seat, card id).
    misos: tuple[tuple[int, int], ...] = ()
    #: Uramaki icons in each tableau (face-up, not yet scored).
    uramaki_icons: tuple[int, ...] = ()
    #: Uramaki places claimed this round (0..3).
    uramaki_claimed: int = 0
    #: Uramaki points scored during this round's race.
    uramaki_points: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()
    #: Every scored round, then the desserts, per seat.
    scored: tuple[tuple[SeatScore, ...], ...] = ()
    result: Result | None = None


def initial_state(players: int, pass_both_ways: bool, two_player_variant: bool, mode: str | None) -> PartyState:
    empty: tuple[Cards, ...] = ((),) * players
    selection = None
    phase = "setup"
    awaiting: tuple[int, ...] = ()
    if mode in ("first-player", "build", "vote"):
        selection = Selection(mode=mode, votes=(-1,) * players)
        phase = "select"
        awaiting = (0,)
    return PartyState(
        players=players,
        pass_both_ways=pass_both_ways,
        two_player_variant=two_player_variant,
        phase=phase,
        awaiting=awaiting,
        selection=selection,
        hands=empty,
        tableaus=((),) * players,
        fridges=((),) * players,
        picks=(-1,) * players,
        calls=(-1,) * players,
        uramaki_icons=(0,) * players,
        uramaki_points=(0,) * players,
        totals=(0,) * players,
    )
