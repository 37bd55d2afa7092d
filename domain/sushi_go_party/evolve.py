"""`evolve` (rules version 1) and `evolve_v2`: fold one event into the state. Total, never validate,
never draw. Both share every way an event changes the cards (`_Work`, the `_apply_*` functions); they
differ in who runs the turn machine below.

**Version 2** (`evolve_v2`) only applies events: the machine runs in `decide` (decide.py, `RULES_V2`), which
writes each of its outcomes as an event (a choice asked, a bonus that does nothing, a miso clash, an
uramaki place, the hands passed, a vote's tally), and `evolve_v2` applies them.

**Version 1** (`evolve`, kaiten 0.1.0) runs the machine itself, and its logs hold no outcome events, so
it is kept as it was: the bonus actions of a turn are a small machine that `evolve` runs after every
event of the turn
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
    BonusDropped,
    CardChosen,
    CardsDrawn,
    CardsFlipped,
    CardsRevealed,
    ChoiceAsked,
    ChopsticksUsed,
    DessertsScored,
    HandsPassed,
    MenuChosen,
    MenuDrawn,
    MenuOrdered,
    MenuProposed,
    MisoClashed,
    RoundDealt,
    RoundScored,
    SpecialOrderCopied,
    SpoonGiven,
    SpoonUsed,
    UramakiPlaced,
    VoteCast,
    VotesCounted,
)
from domain.sushi_go_party.options import menu_cards
from domain.sushi_go_party.scoring import menu_categories, uramaki_race
from domain.sushi_go_party.state import Action, Entry, PartyState, Prompt, Selection, Tableau

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

    def settle(self, card: int) -> None:
        """The pending bonus action of `card` (a played special order or a queued action) is underway."""
        self.immediate = [pending for pending in self.immediate if pending[1] != card]
        self.queue = [action for action in self.queue if action[2] != card]

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
                options = copy_options(self.tableaus[seat], card)
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
            options = flip_options(tableau, card, desserts=False)
            if options:
                self.prompt = Prompt(kind="flip", seat=seat, card=card, options=options)
            else:
                self.discard_from_tableau(seat, card)

    def end_turn(self) -> None:
        players = self.players
        for seat, card in clashing_misos(self.misos, different_players=False):
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
        self.pass_hands(passing(self.state))
        self.turn += 1
        if self.state.two_player_variant and self.turn in TWO_PLAYER_DRAW_TURNS:
            self.phase = "draw"
            self.awaiting = ()
        else:
            self.phase = "pick"
            self.awaiting = tuple(range(players))

    def pass_hands(self, direction: str) -> None:
        hands = self.hands
        if direction == "right":
            self.hands = hands[1:] + hands[:1]  # right: seat i receives seat i + 1's hand
        else:
            self.hands = hands[-1:] + hands[:-1]  # left: seat i receives seat i - 1's hand


def passing(state: PartyState) -> str:
    """Where hands pass this round: `right` in round 2 with pass both ways, else `left`."""
    return "right" if state.pass_both_ways and state.round == 2 else "left"


def clashing_misos(misos: Sequence[tuple[int, int]], different_players: bool) -> Sequence[tuple[int, int]]:
    """The miso soups a turn discards: all of them when more than one was played (version 1), or when
    two or more different players played one (version 2: one player's two miso soups are kept)."""
    clash = len({seat for seat, _ in misos}) > 1 if different_players else len(misos) > 1
    return misos if clash else ()


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


def copy_options(tableau: Tableau, card: int) -> tuple[int, ...]:
    """What a special order may copy: its owner's earlier cards of this round (no menu, takeout box,
    special order or face-down card)."""
    at = _position(tableau, card)
    return tuple([entry[0] for entry in tableau[: max(at, 0)] if entry[1] not in NOT_COPYABLE])


def flip_options(tableau: Tableau, box: int, desserts: bool) -> tuple[int, ...]:
    """What a takeout box may flip: its owner's earlier face-up cards of this round; desserts only when
    `desserts` (rules version 2: "choose any cards to flip"; version 1 kept them for the fridge)."""
    at = _position(tableau, box)
    return tuple(
        [
            entry[0]
            for entry in tableau[: max(at, 0)]
            if entry[1] != FACE_DOWN and (desserts or entry[1] not in DESSERT_SLUGS)
        ]
    )


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


def spoon_giver(hands: Sequence[Sequence[int]], owner: int, request: str) -> tuple[int, tuple[int, ...]] | None:
    """Going left from the spoon's owner, the first seat holding a match and its matching cards."""
    players = len(hands)
    for step in range(1, players):
        giver = (owner + step) % players
        matches = tuple([card for card in hands[giver] if spoon_matches(card, request)])
        if matches:
            return giver, matches
    return None


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


def _vote_recorded(state: PartyState, event: VoteCast) -> PartyState:
    """The seat's vote on the current proposal (version 2's whole `VoteCast`)."""
    selection = state.selection
    assert selection is not None
    votes = list(selection.votes)
    votes[event.seat] = 1 if event.approve else 0
    return _replace(
        state,
        selection=_replace(selection, votes=tuple(votes)),
        awaiting=tuple([seat for seat in state.awaiting if seat != event.seat]),
    )


def vote_tally(selection: Selection, players: int) -> tuple[int, int | None, int | None]:
    """Once every seat voted: (approvals of the current proposal, the index of the proposal that
    stands or None, the next proposer or None).

    A proposal stands with a strict majority of all seats (the proposer approves); a tie rejects. After
    every seat has proposed once, the proposal with the most approvals stands (earliest on ties)."""
    approvals = sum(selection.votes)
    every = (*selection.approvals, approvals)
    chosen: int | None = None
    if 2 * approvals > players:
        chosen = len(every) - 1
    elif len(selection.proposals) >= players:
        chosen = every.index(max(every))
    return approvals, chosen, None if chosen is not None else (selection.proposer + 1) % players


def _vote_cast(state: PartyState, event: VoteCast) -> PartyState:
    """Version 1 counts the votes here once the last is in (version 2: `VotesCounted`, `MenuChosen`)."""
    state = _vote_recorded(state, event)
    selection = state.selection
    assert selection is not None
    if -1 in selection.votes:
        return state
    approvals, chosen, proposer = vote_tally(selection, state.players)
    state = _counted(state, approvals, proposer)
    if chosen is None:
        return state
    return _replace(state, menu=selection.proposals[chosen], phase="chosen")


def _counted(state: PartyState, approvals: int, proposer: int | None) -> PartyState:
    """The current proposal's approvals counted; the next proposer's turn, if the menu is not chosen."""
    selection = state.selection
    assert selection is not None
    counted = _replace(selection, approvals=(*selection.approvals, approvals))
    if proposer is None:
        return _replace(state, selection=counted, awaiting=())
    votes = (-1,) * state.players
    return _replace(state, selection=_replace(counted, votes=votes, proposer=proposer), awaiting=(proposer,))


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


# How the events of a turn change the cards, shared by both versions: each `_apply_*` changes a `_Work`;
# version 1 then runs the machine (`_machine`), version 2 only marks the acting card's bonus action as
# underway (`_applied`), since its outcomes come as events of their own.


def _apply_reveal(work: _Work, event: CardsRevealed) -> None:
    for seat, card in enumerate(event.cards):
        work.take_from_hand(seat, card)
        work.play(seat, card)
    for seat, call in enumerate(event.calls):
        if call is not None:
            kind = callable_kind(work.tableaus[seat], call)
            if kind is not None:
                insort(work.queue, (NUMBER[call], seat, call, kind))


def _apply_copy(work: _Work, event: SpecialOrderCopied) -> None:
    work.copy(event.seat, event.card, event.slug)


def _apply_chopsticks(work: _Work, event: ChopsticksUsed) -> None:
    seat = event.seat
    work.take_from_hand(seat, event.card)
    if work.remove(seat, event.chopsticks):
        work.hands[seat] = (*work.hands[seat], event.chopsticks)
    work.play(seat, event.card)


def _apply_spoon_used_v1(work: _Work, event: SpoonUsed) -> None:
    """Version 1 works out the spoon's outcome here: going left from the spoon's owner, the first seat
    holding a match gives one (it chooses the variant when it holds several); nobody: the spoon is
    discarded. (Version 2 writes that outcome as an event: `ChoiceAsked`, `SpoonGiven`, `BonusDropped`.)"""
    found = spoon_giver(work.hands, event.seat, event.request)
    if found is None:
        work.discard_from_tableau(event.seat, event.spoon)
    else:
        giver, matches = found
        work.prompt = Prompt(
            kind="give", seat=giver, card=event.spoon, options=matches, request=event.request, owner=event.seat
        )


def _apply_give(work: _Work, event: SpoonGiven) -> None:
    work.take_from_hand(event.seat, event.card)
    if work.remove(event.owner, event.spoon):
        work.hands[event.seat] = (*work.hands[event.seat], event.spoon)
    work.play(event.owner, event.card)


def _apply_menu_drawn_v1(work: _Work, event: MenuDrawn) -> None:
    """Version 1 asks for the menu's card here, or returns a draw of only menus (version 2: an event)."""
    drawn = _draw_from_deck(work, event)
    if any(SLUG[card] != "menu" for card in drawn):
        work.drawn = drawn
        work.prompt = Prompt(kind="menu", seat=event.seat, card=event.menu, options=drawn)
    else:
        work.deck = (*work.deck, *drawn)
        work.discard_from_tableau(event.seat, event.menu)


def _draw_from_deck(work: _Work, event: MenuDrawn) -> tuple[int, ...]:
    drawn = event.cards or ()
    taken = set(drawn)
    work.deck = tuple([card for card in work.deck if card not in taken])
    return drawn


def _apply_order(work: _Work, event: MenuOrdered) -> None:
    work.deck = (*work.deck, *[card for card in work.drawn if card != event.card])
    work.drawn = ()
    work.discard_from_tableau(event.seat, event.menu)
    work.play(event.seat, event.card)


def _apply_flip(work: _Work, event: CardsFlipped) -> None:
    work.flip(event.seat, event.cards)
    work.discard_from_tableau(event.seat, event.box)


def _machine(apply: Callable[[_Work, Any], None]) -> Callable[[PartyState, Any], PartyState]:
    """Version 1: apply the event, then run the turn machine as far as it goes."""

    def handler(state: PartyState, event: Any) -> PartyState:
        work = _Work(state)
        apply(work, event)
        work.advance()
        return work.build()

    return handler


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
    CardsRevealed: _machine(_apply_reveal),
    SpecialOrderCopied: _machine(_apply_copy),
    ChopsticksUsed: _machine(_apply_chopsticks),
    SpoonUsed: _machine(_apply_spoon_used_v1),
    SpoonGiven: _machine(_apply_give),
    MenuDrawn: _machine(_apply_menu_drawn_v1),
    MenuOrdered: _machine(_apply_order),
    CardsFlipped: _machine(_apply_flip),
    RoundScored: _round_scored,
    DessertsScored: _desserts_scored,
}


# --- version 2: a plain applier -------------------------------------------------------------------


def evolve_v2(state: PartyState, event: Any) -> PartyState:
    """Rules version 2: apply what the event says; every outcome of the turn machine is an event of
    its own, worked out by `decide` (decide.py)."""
    handler = _HANDLERS_V2.get(type(event))
    return handler(state, event) if handler is not None else state


def _applied(
    apply: Callable[[_Work, Any], None], acting: Callable[[Any], int] | None = None
) -> Callable[[PartyState, Any], PartyState]:
    """Version 2: apply the event, after marking the bonus action of its acting card as underway. The
    turn then waits in `resolve` for `decide` to write what happens next."""

    def handler(state: PartyState, event: Any) -> PartyState:
        work = _Work(state)
        if acting is not None:
            work.settle(acting(event))
        apply(work, event)
        return work.build()

    return handler


def _apply_spoon_used(work: _Work, event: SpoonUsed) -> None:
    """Who gives comes next, as an event: the spoon's request waits in a transient prompt till then."""
    work.prompt = Prompt(kind="spoon-used", seat=event.seat, card=event.spoon, request=event.request)


def _apply_menu_drawn(work: _Work, event: MenuDrawn) -> None:
    """The menu's owner plays one of the drawn cards (a draw of only menus is dropped next, an event)."""
    drawn = _draw_from_deck(work, event)
    work.drawn = drawn
    work.prompt = Prompt(kind="menu", seat=event.seat, card=event.menu, options=drawn)
    work.awaiting = (event.seat,)


def _apply_choice_asked(work: _Work, event: ChoiceAsked) -> None:
    work.prompt = Prompt(
        kind=event.kind,
        seat=event.seat,
        card=event.card,
        options=event.options or (),
        request=event.request,
        owner=-1 if event.owner is None else event.owner,
    )
    work.awaiting = (event.seat,)


def _apply_bonus_dropped(work: _Work, event: BonusDropped) -> None:
    if event.reason == "only-menus":
        work.deck = (*work.deck, *work.drawn)
        work.drawn = ()
    if event.discarded:
        work.discard_from_tableau(event.seat, event.card)


def _apply_miso_clashed(work: _Work, event: MisoClashed) -> None:
    for seat, card in event.cards:
        work.discard_from_tableau(seat, card)
    work.misos = []


def _apply_uramaki_placed(work: _Work, event: UramakiPlaced) -> None:
    race = list(work.race_points)
    for seat in event.seats:
        race[seat] += event.points
    work.race_points = tuple(race)
    work.uramaki_claimed = event.claimed
    for seat, card in event.cards:
        work.discard_from_tableau(seat, card)


def _apply_hands_passed(work: _Work, event: HandsPassed) -> None:
    players = work.players
    work.pass_hands(event.direction)
    work.turn = event.turn
    work.picks = (-1,) * players
    work.calls = (-1,) * players
    work.misos = []
    work.phase = "pick"
    work.awaiting = tuple(range(players))


def _votes_counted(state: PartyState, event: VotesCounted) -> PartyState:
    return _counted(state, event.approvals, event.next_proposer)


def _round_scored_v2(state: PartyState, event: RoundScored) -> PartyState:
    """The last turn of a round passes no hands: its picks and miso soups are cleared with the round."""
    players = state.players
    scored = _round_scored(state, event)
    return _replace(scored, picks=(-1,) * players, calls=(-1,) * players, misos=())


def _acting_card(event: Any) -> int:
    return int(event.card)


_HANDLERS_V2: dict[type, Callable[[PartyState, Any], PartyState]] = {
    **_HANDLERS,
    VoteCast: _vote_recorded,
    VotesCounted: _votes_counted,
    CardsRevealed: _applied(_apply_reveal),
    SpecialOrderCopied: _applied(_apply_copy, _acting_card),
    ChopsticksUsed: _applied(_apply_chopsticks, lambda event: event.chopsticks),
    SpoonUsed: _applied(_apply_spoon_used, lambda event: event.spoon),
    SpoonGiven: _applied(_apply_give, lambda event: event.spoon),
    MenuDrawn: _applied(_apply_menu_drawn, lambda event: event.menu),
    MenuOrdered: _applied(_apply_order, lambda event: event.menu),
    CardsFlipped: _applied(_apply_flip, lambda event: event.box),
    ChoiceAsked: _applied(_apply_choice_asked, _acting_card),
    BonusDropped: _applied(_apply_bonus_dropped, _acting_card),
    MisoClashed: _applied(_apply_miso_clashed),
    UramakiPlaced: _applied(_apply_uramaki_placed),
    HandsPassed: _applied(_apply_hands_passed),
    RoundScored: _round_scored_v2,
}
