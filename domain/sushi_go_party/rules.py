"""`evolve`: fold one event into the state. Total, never validates, never draws.

The bonus actions of a turn are a small machine that `evolve` runs after every event of the turn
(`_Work.advance`), until it needs a seat's choice (`state.prompt`), a chance draw (a menu's cards),
or the turn ends:

1. At the reveal every seat's card is played, then the called chopsticks and spoons are queued with
   the menus and takeout boxes played, by card number (chopsticks 1-3, spoon 4-6, menu 7-9, takeout
   box 10-12; a special order acting as chopsticks or spoon 13-15).
2. A played special order resolves at once (before the queue goes on): it copies an earlier card of
   its owner's tableau of this round; with nothing to copy it is discarded.
3. The queue resolves lowest number first; cards played by a bonus action (second card, spoon, menu)
   are played like any other (wasabi, miso soup, uramaki, special order, menu, takeout box).
4. The turn ends: miso soups clash (more than one played this turn, by any means: all of them are
   discarded, even if a takeout box flipped one meanwhile), the uramaki race is checked, the hands pass.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from domain.engine import Result, SeatScore, rank_scores, seat_score
from domain.sushi_go_party.cards import (
    DESSERT_SLUGS,
    FACE_DOWN,
    NIGIRI_POINTS,
    NOT_COPYABLE,
    NUMBER,
    ROUNDS,
    SLUG,
    TWO_PLAYER_DRAW_TURNS,
    TYPE,
    URAMAKI_ICONS,
    URAMAKI_PLACES,
)
from domain.sushi_go_party.events import (
    CardChosen,
    CardsDrawn,
    CardsFlipped,
    CardsRevealed,
    ChopsticksUsed,
    DessertsScored,
    MenuChosen,
    MenuDrawn,
    MenuOrdered,
    MenuProposed,
    RoundDealt,
    RoundScored,
    SpecialOrderCopied,
    SpoonGiven,
    SpoonUsed,
    VoteCast,
)
from domain.sushi_go_party.menus import MenuSpec, menu_cards
from domain.sushi_go_party.scoring import menu_categories, uramaki_race
from domain.sushi_go_party.state import Action, Entry, PartyState, Prompt, Tableau

_replace = msgspec.structs.replace


def evolve(state: PartyState, event: Any) -> PartyState:
    handler = _HANDLERS.get(type(event))
    return handler(state, event) if handler is not None else state


# --- the turn machine -----------------------------------------------------------------------------


class _Work:
    """A mutable copy of the parts of the state a turn changes."""

    __slots__ = (
        "awaiting",
        "calls",
        "deck",
        "discard",
        "drawn",
        "hands",
        "icons",
        "immediate",
        "misos",
        "phase",
        "picks",
        "players",
        "prompt",
        "queue",
        "race_points",
        "state",
        "tableaus",
        "turn",
        "uramaki_claimed",
    )

    def __init__(self, state: PartyState) -> None:
        self.state = state
        self.players = state.players
        self.hands = list(state.hands)
        self.tableaus = list(state.tableaus)
        self.discard = state.discard
        self.deck = state.deck
        self.drawn = state.drawn
        self.queue = list(state.queue)
        self.immediate = list(state.immediate)
        self.misos = list(state.misos)
        self.icons = list(state.uramaki_icons)
        self.race_points = state.uramaki_points
        self.uramaki_claimed = state.uramaki_claimed
        self.prompt: Prompt | None = None
        self.phase = "resolve"
        self.awaiting: tuple[int, ...] = ()
        self.turn = state.turn
        self.picks = state.picks
        self.calls = state.calls

    def build(self) -> PartyState:
        return _replace(
            self.state,
            phase=self.phase,
            awaiting=self.awaiting,
            turn=self.turn,
            deck=self.deck,
            hands=tuple(self.hands),
            tableaus=tuple(self.tableaus),
            discard=self.discard,
            drawn=self.drawn,
            picks=self.picks,
            calls=self.calls,
            queue=tuple(self.queue),
            immediate=tuple(self.immediate),
            prompt=self.prompt,
            misos=tuple(self.misos),
            uramaki_icons=tuple(self.icons),
            uramaki_claimed=self.uramaki_claimed,
            uramaki_points=self.race_points,
        )

    # -- cards moving --

    def take_from_hand(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        at = hand.index(card)
        self.hands[seat] = hand[:at] + hand[at + 1 :]

    def play(self, seat: int, card: int) -> None:
        """Put a card into its owner's tableau and start what it does at once."""
        slug = SLUG[card]
        tableau = self.tableaus[seat]
        effect = _EFFECT.get(slug)
        if effect is None:
            self.tableaus[seat] = (*tableau, (card, slug, -1))
            return
        on = _free_wasabi(tableau) if effect == _NIGIRI else -1
        self.tableaus[seat] = (*tableau, (card, slug, on))
        if effect != _NIGIRI:
            self._played(seat, card, slug, effect)

    def _played(self, seat: int, card: int, slug: str, effect: int) -> None:
        if effect == _MISO:
            self.misos.append((seat, card))
        elif effect == _URAMAKI:
            self.icons[seat] += URAMAKI_ICONS[slug]
        elif effect == _ORDER:
            self.immediate.append((seat, card))
        elif effect == _QUEUED:
            insort(self.queue, (NUMBER[card], seat, card, slug))

    def copy(self, seat: int, card: int, slug: str) -> None:
        """A special order becomes a copy of `slug`, played like a new card of that slug."""
        tableau = self.tableaus[seat]
        at = _position(tableau, card)
        if at < 0:
            return
        effect = _EFFECT.get(slug, 0)
        on = _free_wasabi(tableau) if effect == _NIGIRI else -1
        self.tableaus[seat] = (*tableau[:at], (card, slug, on), *tableau[at + 1 :])
        self._played(seat, card, slug, effect)

    def remove(self, seat: int, card: int) -> bool:
        """Take a card out of a tableau (it goes to a hand or the discard); False if it is not there."""
        tableau = self.tableaus[seat]
        at = _position(tableau, card)
        if at < 0:
            return False
        slug = tableau[at][1]
        if slug in URAMAKI_ICONS:
            self.icons[seat] -= URAMAKI_ICONS[slug]
        self.tableaus[seat] = tableau[:at] + tableau[at + 1 :]
        return True

    def discard_from_tableau(self, seat: int, card: int) -> None:
        if self.remove(seat, card):
            self.discard = (*self.discard, card)

    def flip(self, seat: int, cards: Sequence[int]) -> None:
        flipped = set(cards)
        tableau = self.tableaus[seat]
        entries: list[Entry] = []
        for entry in tableau:
            if entry[0] in flipped:
                if entry[1] in URAMAKI_ICONS:
                    self.icons[seat] -= URAMAKI_ICONS[entry[1]]
                entries.append((entry[0], FACE_DOWN, entry[2]))
            else:
                entries.append(entry)
        self.tableaus[seat] = tuple(entries)

    # -- resolution --

    def advance(self) -> None:
        """Resolve what needs no choice until a prompt, a chance draw or the end of the turn."""
        while self.prompt is None:
            if self.immediate:
                seat, card = self.immediate.pop(0)
                tableau = self.tableaus[seat]
                at = _position(tableau, card)
                options = tuple([entry[0] for entry in tableau[: max(at, 0)] if entry[1] not in NOT_COPYABLE])
                if not options:
                    self.discard_from_tableau(seat, card)
                    continue
                self.prompt = Prompt(kind="copy", seat=seat, card=card, options=options)
                break
            if self.queue:
                self._resolve(self.queue.pop(0))
                continue
            self.end_turn()
            return
        self.phase = "resolve"
        self.awaiting = () if self.prompt.kind == "draw-menu" else (self.prompt.seat,)

    def _resolve(self, action: Action) -> None:
        _, seat, card, kind = action
        tableau = self.tableaus[seat]
        at = _position(tableau, card)
        if at < 0:
            return
        if kind == "chopsticks":
            if self.hands[seat]:
                self.prompt = Prompt(kind="chopsticks", seat=seat, card=card, options=self.hands[seat])
        elif kind == "spoon":
            # On the last turn nobody holds a card: nothing happens (the spoon stays).
            if any(hand for other, hand in enumerate(self.hands) if other != seat):
                self.prompt = Prompt(kind="spoon", seat=seat, card=card)
        elif kind == "menu":
            self.prompt = Prompt(kind="draw-menu", seat=seat, card=card)
        else:  # takeout box
            options = tuple(
                [entry[0] for entry in tableau[:at] if entry[1] != FACE_DOWN and entry[1] not in DESSERT_SLUGS]
            )
            if options:
                self.prompt = Prompt(kind="flip", seat=seat, card=card, options=options)
            else:
                self.discard_from_tableau(seat, card)

    def end_turn(self) -> None:
        players = self.players
        if len(self.misos) > 1:
            for seat, card in self.misos:
                self.discard_from_tableau(seat, card)
        self.misos = []
        if self.uramaki_claimed < len(URAMAKI_PLACES) and max(self.icons) >= 10:
            points, claimed, scorers = uramaki_race(self.icons, self.uramaki_claimed)
            self.uramaki_claimed = claimed
            race = list(self.race_points)
            for seat in scorers:
                race[seat] += points[seat]
                for card, slug, _ in self.tableaus[seat]:
                    if slug in URAMAKI_ICONS:
                        self.discard_from_tableau(seat, card)
            self.race_points = tuple(race)
        self.picks = (-1,) * players
        self.calls = (-1,) * players
        self.prompt = None
        if not self.hands[0]:
            self.phase = "score"
            self.awaiting = ()
            return
        hands = self.hands
        if self.state.pass_both_ways and self.state.round == 2:
            self.hands = hands[1:] + hands[:1]  # right: seat i receives seat i + 1's hand
        else:
            self.hands = hands[-1:] + hands[:-1]  # left: seat i receives seat i - 1's hand
        self.turn += 1
        if self.state.two_player_variant and self.turn in TWO_PLAYER_DRAW_TURNS:
            self.phase = "draw"
            self.awaiting = ()
        else:
            self.phase = "pick"
            self.awaiting = tuple(range(players))


# What a card does when played, by slug.
_NIGIRI, _MISO, _URAMAKI, _ORDER, _QUEUED = 1, 2, 3, 4, 5
_EFFECT: dict[str, int] = {
    **dict.fromkeys(NIGIRI_POINTS, _NIGIRI),
    "miso-soup": _MISO,
    **dict.fromkeys(URAMAKI_ICONS, _URAMAKI),
    "special-order": _ORDER,
    "menu": _QUEUED,
    "takeout-box": _QUEUED,
}


def _position(tableau: Tableau, card: int) -> int:
    for at, entry in enumerate(tableau):
        if entry[0] == card:
            return at
    return -1


def _free_wasabi(tableau: Tableau) -> int:
    """The earliest face-up wasabi with no nigiri on it, or -1."""
    used = [entry[2] for entry in tableau if entry[2] >= 0]
    for card, slug, _ in tableau:
        if slug == "wasabi" and card not in used:
            return card
    return -1


def callable_kind(tableau: Tableau, card: int) -> str | None:
    """`chopsticks` or `spoon` when that tableau card may be called, else None."""
    for entry in tableau:
        if entry[0] == card:
            slug = entry[1]
            return slug if slug == "chopsticks" or slug == "spoon" else None
    return None


def spoon_matches(card: int, request: str) -> bool:
    return SLUG[card] == request or TYPE[card] == request


# --- handlers -------------------------------------------------------------------------------------


def _menu_proposed(state: PartyState, event: MenuProposed) -> PartyState:
    selection = state.selection
    assert selection is not None
    players = state.players
    return _replace(
        state,
        selection=_replace(
            selection,
            proposer=event.seat,
            proposals=(*selection.proposals, event.menu),
            votes=tuple([1 if seat == event.seat else -1 for seat in range(players)]),
        ),
        awaiting=tuple([seat for seat in range(players) if seat != event.seat]),
    )


def _vote_cast(state: PartyState, event: VoteCast) -> PartyState:
    """A proposal stands with a strict majority of all seats (the proposer approves); a tie rejects.
    After every seat has proposed once, the proposal with the most approvals stands (earliest on ties)."""
    selection = state.selection
    assert selection is not None
    players = state.players
    votes = list(selection.votes)
    votes[event.seat] = 1 if event.approve else 0
    if -1 in votes:
        return _replace(
            state,
            selection=_replace(selection, votes=tuple(votes)),
            awaiting=tuple([seat for seat in state.awaiting if seat != event.seat]),
        )
    approvals = (*selection.approvals, sum(votes))
    chosen: MenuSpec | None = None
    if 2 * approvals[-1] > players:
        chosen = selection.proposals[-1]
    elif len(selection.proposals) >= players:
        best = max(approvals)
        chosen = selection.proposals[approvals.index(best)]
    if chosen is not None:
        return _replace(
            state,
            selection=_replace(selection, approvals=approvals, votes=tuple(votes)),
            menu=chosen,
            phase="chosen",
            awaiting=(),
        )
    proposer = (selection.proposer + 1) % players
    return _replace(
        state,
        selection=_replace(selection, approvals=approvals, votes=(-1,) * players, proposer=proposer),
        awaiting=(proposer,),
    )


def _menu_chosen(state: PartyState, event: MenuChosen) -> PartyState:
    main, desserts = menu_cards(event.menu)
    return _replace(state, menu=event.menu, deck=main, dessert_pile=desserts, phase="deal", awaiting=())


def _round_dealt(state: PartyState, event: RoundDealt) -> PartyState:
    players = state.players
    added = event.desserts or ()
    hands = tuple([hand or () for hand in event.hands])
    dealt = {card for hand in hands for card in hand}
    pile = tuple([card for card in state.dessert_pile if card not in added]) if added else state.dessert_pile
    deck = tuple([card for card in (*state.deck, *added) if card not in dealt])
    return _replace(
        state,
        phase="pick",
        awaiting=tuple(range(players)),
        round=event.round,
        turn=1,
        deck=deck,
        dessert_pile=pile,
        hands=hands,
        tableaus=((),) * players,
        discard=(),
        picks=(-1,) * players,
        calls=(-1,) * players,
        queue=(),
        immediate=(),
        prompt=None,
        misos=(),
        uramaki_icons=(0,) * players,
        uramaki_claimed=0,
        uramaki_points=(0,) * players,
    )


def _cards_drawn(state: PartyState, event: CardsDrawn) -> PartyState:
    cards = [card for card in event.cards if card is not None]
    taken = set(cards)
    return _replace(
        state,
        phase="pick",
        awaiting=tuple(range(state.players)),
        deck=tuple([card for card in state.deck if card not in taken]),
        hands=tuple(
            [(*hand, card) if card is not None else hand for hand, card in zip(state.hands, event.cards, strict=True)]
        ),
    )


def _card_chosen(state: PartyState, event: CardChosen) -> PartyState:
    seat = event.seat
    card = -1 if event.card is None else event.card
    call = -1 if event.call is None else event.call
    picks = state.picks
    calls = state.calls
    return _replace(
        state,
        picks=(*picks[:seat], card, *picks[seat + 1 :]),
        calls=(*calls[:seat], call, *calls[seat + 1 :]) if call != calls[seat] else calls,
        awaiting=tuple([other for other in state.awaiting if other != seat]),
    )


def _cards_revealed(state: PartyState, event: CardsRevealed) -> PartyState:
    work = _Work(state)
    for seat, card in enumerate(event.cards):
        work.take_from_hand(seat, card)
        work.play(seat, card)
    for seat, call in enumerate(event.calls):
        if call is not None:
            kind = callable_kind(work.tableaus[seat], call)
            if kind is not None:
                insort(work.queue, (NUMBER[call], seat, call, kind))
    work.advance()
    return work.build()


def _special_order_copied(state: PartyState, event: SpecialOrderCopied) -> PartyState:
    work = _Work(state)
    work.copy(event.seat, event.card, event.slug)
    work.advance()
    return work.build()


def _chopsticks_used(state: PartyState, event: ChopsticksUsed) -> PartyState:
    work = _Work(state)
    seat = event.seat
    work.take_from_hand(seat, event.card)
    if work.remove(seat, event.chopsticks):
        work.hands[seat] = (*work.hands[seat], event.chopsticks)
    work.play(seat, event.card)
    work.advance()
    return work.build()


def _spoon_used(state: PartyState, event: SpoonUsed) -> PartyState:
    """Going left from the spoon's owner, the first seat holding a match gives one (it chooses the
    variant when it holds several); nobody: the spoon is discarded."""
    work = _Work(state)
    seat = event.seat
    players = state.players
    for step in range(1, players):
        giver = (seat + step) % players
        matches = tuple([card for card in work.hands[giver] if spoon_matches(card, event.request)])
        if matches:
            work.prompt = Prompt(
                kind="give", seat=giver, card=event.spoon, options=matches, request=event.request, owner=seat
            )
            break
    else:
        work.discard_from_tableau(seat, event.spoon)
    work.advance()
    return work.build()


def _spoon_given(state: PartyState, event: SpoonGiven) -> PartyState:
    work = _Work(state)
    work.take_from_hand(event.seat, event.card)
    if work.remove(event.owner, event.spoon):
        work.hands[event.seat] = (*work.hands[event.seat], event.spoon)
    work.play(event.owner, event.card)
    work.advance()
    return work.build()


def _menu_drawn(state: PartyState, event: MenuDrawn) -> PartyState:
    work = _Work(state)
    drawn = event.cards or ()
    taken = set(drawn)
    work.deck = tuple([card for card in work.deck if card not in taken])
    if any(SLUG[card] != "menu" for card in drawn):
        work.drawn = drawn
        work.prompt = Prompt(kind="menu", seat=event.seat, card=event.menu, options=drawn)
    else:
        work.deck = (*work.deck, *drawn)
        work.discard_from_tableau(event.seat, event.menu)
    work.advance()
    return work.build()


def _menu_ordered(state: PartyState, event: MenuOrdered) -> PartyState:
    work = _Work(state)
    work.deck = (*work.deck, *[card for card in work.drawn if card != event.card])
    work.drawn = ()
    work.discard_from_tableau(event.seat, event.menu)
    work.play(event.seat, event.card)
    work.advance()
    return work.build()


def _cards_flipped(state: PartyState, event: CardsFlipped) -> PartyState:
    work = _Work(state)
    work.flip(event.seat, event.cards)
    work.discard_from_tableau(event.seat, event.box)
    work.advance()
    return work.build()


def _round_scored(state: PartyState, event: RoundScored) -> PartyState:
    fridges = []
    returned: list[int] = []
    for fridge, tableau in zip(state.fridges, state.tableaus, strict=True):
        kept = [(card, slug) for card, slug, _ in tableau if slug in DESSERT_SLUGS]
        fridges.append((*fridge, *kept) if kept else fridge)
        returned.extend([card for card, slug, _ in tableau if slug not in DESSERT_SLUGS])
    players = state.players
    return _replace(
        state,
        phase="deal" if event.round < ROUNDS else "desserts",
        awaiting=(),
        totals=tuple([total + score.total for total, score in zip(state.totals, event.scores, strict=True)]),
        scored=(*state.scored, event.scores),
        fridges=tuple(fridges),
        deck=(*state.deck, *returned, *state.discard),
        discard=(),
        tableaus=((),) * players,
        uramaki_icons=(0,) * players,
    )


def _desserts_scored(state: PartyState, event: DessertsScored) -> PartyState:
    scored = (*state.scored, event.scores)
    assert state.menu is not None
    return _replace(
        state,
        phase="over",
        awaiting=(),
        totals=tuple([total + score.total for total, score in zip(state.totals, event.scores, strict=True)]),
        scored=scored,
        result=final_result(scored, event.desserts, menu_categories(state.menu)),
    )


def final_result(scored: Sequence[Sequence[SeatScore]], desserts: Sequence[int], categories: Sequence[str]) -> Result:
    """Add up every scored round and the desserts per seat and category; rank by total, then by the
    most dessert cards; seats still tied share the victory."""
    scores = []
    for seat in range(len(desserts)):
        breakdown = dict.fromkeys(categories, 0)
        for stage in scored:
            for category, points in stage[seat].breakdown.items():
                breakdown[category] = breakdown.get(category, 0) + points
        scores.append(seat_score(seat, breakdown))
    return rank_scores(scores, tiebreak=desserts)


_HANDLERS: dict[type, Callable[[PartyState, Any], PartyState]] = {
    MenuProposed: _menu_proposed,
    VoteCast: _vote_cast,
    MenuChosen: _menu_chosen,
    RoundDealt: _round_dealt,
    CardsDrawn: _cards_drawn,
    CardChosen: _card_chosen,
    CardsRevealed: _cards_revealed,
    SpecialOrderCopied: _special_order_copied,
    ChopsticksUsed: _chopsticks_used,
    SpoonUsed: _spoon_used,
    SpoonGiven: _spoon_given,
    MenuDrawn: _menu_drawn,
    MenuOrdered: _menu_ordered,
    CardsFlipped: _cards_flipped,
    RoundScored: _round_scored,
    DessertsScored: _desserts_scored,
}
