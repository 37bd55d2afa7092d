"""What a viewer may see, and events as a viewer may see them.

A seat sees its own hand, its own hidden pick and call, and the options of a choice it is asked to
make (the cards a menu drew, the cards it may give to a spoon...). Everyone sees the tableaus, the
fridges, hand sizes, deck and dessert pile sizes, the uramaki track, the called chopsticks and
spoons once revealed, who is being asked what, and the scores. A spectator (seat None) sees only
the public part. Nobody sees which desserts went into the deck.

A seat remembers the hands it passed on this round: the hand now held `d` seats away in the passing
direction is the one it held `d` turns ago, and every change made to it since was public (revealed
picks, chopsticks and spoons going into hands, cards given to a spoon). `known_hands` hands a seat what
it has legitimately seen, so that a bot, which is built afresh for every decision and remembers
nothing, knows what a person at that seat would. With the 2-player variant a hand also takes a card
drawn face down each turn, which the state does not tell apart from the rest, so only the seat's own
hand is known there.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from kaiten.domain.engine import CardId, CardIds, Result, SeatScore, record
from kaiten.domain.sushi_go_party.cards import URAMAKI_PLACES
from kaiten.domain.sushi_go_party.events import CardChosen, CardsDrawn, ChoiceAsked, MenuDrawn, RoundDealt
from kaiten.domain.sushi_go_party.options import MenuSpec
from kaiten.domain.sushi_go_party.state import PartyState, Selection

_replace = msgspec.structs.replace


#: A tableau's card as shown: the card, the slug it scores as, the wasabi card it sits on (-1: none).
ShownEntry = Annotated[tuple[CardId, str, int], record("TableauCard", "card", "scores_as", "wasabi")]
#: A dessert kept in the fridge: the card and the slug it scores as.
ShownDessert = Annotated[tuple[CardId, str], record("FridgeCard", "card", "scores_as")]
#: A bonus action waiting this turn: its order number, the seat, the card that acts, its kind.
#: A card some seat played: (seat, card id).
SeatCard = Annotated[tuple[int, CardId], record("SeatCard", "seat", "card")]
ShownAction = Annotated[tuple[int, int, CardId, str], record("QueuedAction", "number", "seat", "card", "kind")]


class PromptView(msgspec.Struct, frozen=True, gc=False):
    """A bonus action waiting for `seat`: kind `copy`, `chopsticks`, `spoon`, `give`, `menu`, `flip`."""

    kind: str
    seat: int
    #: The special card that acts.
    card: CardId
    #: The cards to choose among: only for the asked seat (None for everyone else).
    options: CardIds | None
    #: What the spoon asked for (`give`).
    request: str | None
    #: The spoon's owner (`give`).
    owner: int | None


class PartyView(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    #: The viewer's seat, None for a spectator.
    seat: int | None
    players: int
    #: `select`, `pick`, `resolve` or `over`.
    phase: str
    round: int
    turn: int
    menu: MenuSpec | None
    #: Where hands pass this round: `left` (seat i to i + 1) or `right`.
    passing: str
    #: Seats whose command the game waits for.
    awaiting: tuple[int, ...]
    #: The viewer's hand, None for a spectator.
    hand: CardIds | None
    #: The viewer's hidden pick and call this turn (None when none or for a spectator).
    pick: CardId | None
    call: CardId | None
    #: Cards in each hand (every hand always holds as many).
    hand_size: int
    #: Per seat, this round's cards in play order, each with the slug it scores as and its wasabi.
    tableaus: tuple[tuple[ShownEntry, ...], ...]
    #: Per seat, desserts kept from finished rounds.
    fridges: tuple[tuple[ShownDessert, ...], ...]
    deck_size: int
    dessert_pile_size: int
    discard_size: int
    #: Uramaki icons per tableau, places claimed this round, points of the next place (0: none left),
    #: points scored in this round's race.
    uramaki_icons: tuple[int, ...]
    uramaki_claimed: int
    uramaki_next: int
    uramaki_points: tuple[int, ...]
    #: Bonus actions still to resolve this turn, lowest number first.
    queue: tuple[ShownAction, ...]
    prompt: PromptView | None
    #: The menu selection (first-player, build, vote), None once the menu stands.
    selection: Selection | None
    totals: tuple[int, ...]
    scored: tuple[tuple[SeatScore, ...], ...]
    result: Result | None
    # What a seat remembers, for bots and clients that keep no history. A spectator's view leaves
    # these out (None), as it always has.
    #: The game's variants (public options of the game).
    pass_both_ways: bool | None = None
    two_player_variant: bool | None = None
    #: Per seat, its current hand if the viewer knows it (its own, and every hand that passed through
    #: the viewer's hands this round, pending picks included), else None.
    known_hands: tuple[CardIds | None, ...] | None = None
    #: The cards discarded this round (used menus and boxes, clashed miso soups, scored uramaki...).
    discard: CardIds | None = None
    #: This turn, while its bonus actions resolve: the miso soups played (seat, card id), and the
    #: special orders played and not yet resolved (seat, card id).
    misos: tuple[SeatCard, ...] | None = None
    special_orders: tuple[SeatCard, ...] | None = None


def view(state: PartyState, seat: int | None) -> PartyView:
    own = seat is not None and 0 <= seat < state.players
    prompt = state.prompt
    prompt_view = None
    if prompt is not None and prompt.kind != "draw-menu":
        prompt_view = PromptView(
            kind=prompt.kind,
            seat=prompt.seat,
            card=prompt.card,
            options=prompt.options if own and seat == prompt.seat else None,
            request=prompt.request,
            owner=prompt.owner if prompt.owner >= 0 else None,
        )
    claimed = state.uramaki_claimed
    pick = call = None
    if own:
        assert seat is not None
        if state.picks[seat] >= 0:
            pick = state.picks[seat]
        if state.calls[seat] >= 0:
            call = state.calls[seat]
    hands = state.hands
    # A seat's memory (see PartyView); a spectator's view ends before it.
    memory = (
        (
            state.pass_both_ways,
            state.two_player_variant,
            known_hands(state, seat),
            state.discard,
            state.misos,
            state.immediate,
        )
        if own and seat is not None
        else ()
    )
    # Positional (in field order): much faster than keywords for a struct this wide.
    return PartyView(
        seat,
        state.players,
        state.phase,
        state.round,
        state.turn,
        state.menu,
        "right" if state.pass_both_ways and state.round == 2 else "left",
        state.awaiting,
        hands[seat] if own and seat is not None else None,
        pick,
        call,
        len(hands[0]) if hands else 0,
        state.tableaus,
        state.fridges,
        len(state.deck),
        len(state.dessert_pile),
        len(state.discard),
        state.uramaki_icons,
        claimed,
        URAMAKI_PLACES[claimed] if claimed < len(URAMAKI_PLACES) else 0,
        state.uramaki_points,
        state.queue,
        prompt_view,
        state.selection if state.phase == "select" else None,
        state.totals,
        state.scored,
        state.result,
        *memory,
    )


def known_hands(state: PartyState, seat: int) -> tuple[CardIds | None, ...]:
    """The seat's own hand and those `d` seats away in the passing direction for `d` < turn."""
    players = state.players
    known: list[CardIds | None] = [None] * players
    hands = state.hands
    if not hands:
        return tuple(known)
    direction = -1 if state.pass_both_ways and state.round == 2 else 1
    passed = 1 if state.two_player_variant else min(state.turn, players)
    for distance in range(passed):
        other = (seat + direction * distance) % players
        known[other] = hands[other]
    return tuple(known)


def redact(event: Any, seat: int | None) -> Any | None:
    """Hide other seats' hands, draws and unrevealed picks, and which desserts went into the deck."""
    kind = type(event)
    if kind is CardChosen:
        if event.seat != seat:
            return _replace(event, card=None, call=None)
        return event
    if kind is RoundDealt:
        hands = tuple([hand if index == seat else None for index, hand in enumerate(event.hands)])
        return _replace(event, hands=hands, desserts=None)
    if kind is CardsDrawn:
        return _replace(event, cards=tuple([card if index == seat else None for index, card in enumerate(event.cards)]))
    if kind is MenuDrawn and event.seat != seat:
        return _replace(event, cards=None)
    if kind is ChoiceAsked and event.seat != seat:
        # Only the asked seat sees what it may choose among (its hand, a giver's matching cards...).
        return _replace(event, options=None)
    return event
