"""The events of Sushi Go Party!; tags are the class names.

Chance outcomes are written into them (dealt hands, desserts shuffled in, cards a menu drew, cards
drawn in the 2-player variant), so replay never draws. A redacted copy (see `view.redact`) keeps the
type and puts None where a viewer may not see card ids.
"""

from __future__ import annotations

import typing

import msgspec

from kaiten.domain.engine import SeatScore
from kaiten.domain.sushi_go_party.options import MenuSpec


class MenuProposed(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """Vote mode: a seat proposes a menu; the others vote on it (the proposer approves)."""

    seat: int
    menu: MenuSpec


class VoteCast(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    seat: int
    approve: bool


class MenuChosen(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """The menu stands: its card types make the deck and the dessert pile."""

    menu: MenuSpec
    #: How: `option` (given at creation), `random`, `first-player`, `build`, `vote`.
    how: str


class RoundDealt(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """Desserts shuffled from the pile into the deck, then each seat's hand dealt from the deck."""

    round: int
    hand_size: int
    #: One hand per seat (None in a redacted copy: another seat's hand).
    hands: tuple[tuple[int, ...] | None, ...]
    dessert_count: int
    #: The desserts shuffled in (None in every redacted copy: nobody knows which).
    desserts: tuple[int, ...] | None


class CardsDrawn(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """2-player variant: each seat draws one card at the start of turns 2-6."""

    turn: int
    #: One card per seat (None in a redacted copy: another seat's card).
    cards: tuple[int | None, ...]


class CardChosen(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """A seat chose its card face down, maybe calling chopsticks or a spoon (None for the others)."""

    seat: int
    card: int | None
    call: int | None


class CardsRevealed(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """Every seat's card is played at once; called chopsticks and spoons are revealed too."""

    round: int
    turn: int
    cards: tuple[int, ...]
    calls: tuple[int | None, ...]


class SpecialOrderCopied(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """A special order became a copy of `copy` (a card its owner played earlier this round)."""

    seat: int
    card: int
    copy: int
    slug: str


class ChopsticksUsed(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """The seat played a second card from its hand; the chopsticks went into that hand."""

    seat: int
    chopsticks: int
    card: int


class SpoonUsed(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """The seat's spoon asks for a type (any variant) or a variant, going left."""

    seat: int
    spoon: int
    request: str


class SpoonGiven(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """`seat` gave `card` to the spoon's owner (who played it) and took the spoon into its hand."""

    seat: int
    owner: int
    spoon: int
    card: int


class MenuDrawn(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """A menu card drew cards from the deck for its owner (None for the others)."""

    seat: int
    menu: int
    count: int
    cards: tuple[int, ...] | None


class MenuOrdered(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """The menu's owner played one drawn card; the others went back into the deck; menu discarded."""

    seat: int
    menu: int
    card: int


class CardsFlipped(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """A takeout box flipped these cards face down (2 points each); the box is discarded."""

    seat: int
    box: int
    cards: tuple[int, ...]


class RoundScored(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    round: int
    scores: tuple[SeatScore, ...]


class DessertsScored(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """The end of the game: desserts kept by each seat and their points."""

    desserts: tuple[int, ...]
    scores: tuple[SeatScore, ...]


# --- outcomes (rules version 2 on): what version 1's `evolve` worked out by itself ---------------------


class ChoiceAsked(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """A bonus action waits for `seat`'s choice: `copy` (special order), `chopsticks` (second card),
    `spoon` (name a card), `give` (the spoon's giver picks a matching card), `flip` (takeout box).

    `options` are the cards to choose among (None in other seats' copies: they may be hidden cards).
    """

    kind: str
    seat: int
    #: The special card that acts (for `give`: the spoon).
    card: int
    options: tuple[int, ...] | None
    #: What the spoon asked for (`give`).
    request: str | None = None
    #: The spoon's owner (`give`).
    owner: int | None = None


class BonusDropped(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """A bonus action that does nothing: `nothing-to-copy`, `nothing-to-flip` (the card is discarded),
    `no-match` (nobody holds what the spoon asked for: discarded), `only-menus` (the menu drew only
    menus: they go back to the deck, the menu is discarded), `empty-hand` (chopsticks with no card
    left) or `last-turn` (a spoon when nobody holds a card); the last two keep the card."""

    seat: int
    card: int
    reason: str
    discarded: bool


class MisoClashed(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """Miso soups were played by two or more different players this turn: all of them are discarded."""

    #: (seat, card id) of every miso soup discarded.
    cards: tuple[tuple[int, int], ...]


class UramakiPlaced(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """Seats reached 10 uramaki icons this turn (the most icons first): each scores the place's points
    and discards its uramaki. Tied seats all score it and use up as many places as they are."""

    #: The place's points (8, 5 or 2).
    points: int
    seats: tuple[int, ...]
    #: Places claimed this round after this one (0..3).
    claimed: int
    #: (seat, card id) of the uramaki discarded.
    cards: tuple[tuple[int, int], ...]


class HandsPassed(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """The turn is over: every hand passes `left` (seat i to i + 1) or `right`; turn `turn` starts."""

    direction: str
    turn: int


class VotesCounted(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """Every seat voted on the current proposal (`proposal`, 0-based): its approvals. The menu chosen
    follows as `MenuChosen` (how `vote`); else `next_proposer` proposes."""

    proposal: int
    approvals: int
    next_proposer: int | None


OutcomeEvent = ChoiceAsked | BonusDropped | MisoClashed | UramakiPlaced | HandsPassed | VotesCounted
OUTCOME_EVENT_TYPES: tuple[type[msgspec.Struct], ...] = typing.get_args(OutcomeEvent)

PlayEvent = (
    MenuProposed
    | VoteCast
    | MenuChosen
    | RoundDealt
    | CardsDrawn
    | CardChosen
    | CardsRevealed
    | SpecialOrderCopied
    | ChopsticksUsed
    | SpoonUsed
    | SpoonGiven
    | MenuDrawn
    | MenuOrdered
    | CardsFlipped
    | RoundScored
    | DessertsScored
)
EVENT_TYPES: tuple[type[msgspec.Struct], ...] = typing.get_args(PlayEvent)

#: Every event of either rules version, as one type (version 1 has no outcome events).
PartyEvent = PlayEvent | OutcomeEvent
