"""How the events change a Sushi Go Party! state, as every rules version applies them: the cards
moving (`Work`), the handlers of the events both versions fold alike (`SHARED_HANDLERS`), and the small
functions the rules name (`passing`, `clashing_misos`, `copy_options`, `flip_options`...). Total, never
validate, never draw.

Each rules version's `evolve` is its own module: version 1 (`rules_v1.py`) runs the turn machine while
folding; version 2 (`rules_v2.py`) only applies the events its `follow` writes.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from kaiten.domain.engine import Result, SeatScore, rank_scores, seat_score
from kaiten.domain.sushi_go_party.cards import (
    DESSERT_SLUGS,
    FACE_DOWN,
    NIGIRI_POINTS,
    NOT_COPYABLE,
    NUMBER,
    ROUNDS,
    SLUG,
    TYPE,
    URAMAKI_ICONS,
)
from kaiten.domain.sushi_go_party.events import (
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
    VoteCast,
)
from kaiten.domain.sushi_go_party.options import menu_cards
from kaiten.domain.sushi_go_party.scoring import menu_categories
from kaiten.domain.sushi_go_party.state import Entry, PartyState, Prompt, Selection, Tableau

_replace = msgspec.structs.replace


class Work:
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
        at = position(tableau, card)
        if at < 0:
            return
        effect = _EFFECT.get(slug, 0)
        on = _free_wasabi(tableau) if effect == _NIGIRI else -1
        self.tableaus[seat] = (*tableau[:at], (card, slug, on), *tableau[at + 1 :])
        self._played(seat, card, slug, effect)

    def remove(self, seat: int, card: int) -> bool:
        """Take a card out of a tableau (it goes to a hand or the discard); False if it is not there."""
        tableau = self.tableaus[seat]
        at = position(tableau, card)
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
    at = position(tableau, card)
    return tuple([entry[0] for entry in tableau[: max(at, 0)] if entry[1] not in NOT_COPYABLE])


def flip_options(tableau: Tableau, box: int, desserts: bool) -> tuple[int, ...]:
    """What a takeout box may flip: its owner's earlier face-up cards of this round; desserts only when
    `desserts` (rules version 2: "choose any cards to flip"; version 1 kept them for the fridge)."""
    at = position(tableau, box)
    return tuple(
        [
            entry[0]
            for entry in tableau[: max(at, 0)]
            if entry[1] != FACE_DOWN and (desserts or entry[1] not in DESSERT_SLUGS)
        ]
    )


def position(tableau: Tableau, card: int) -> int:
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


def vote_recorded(state: PartyState, event: VoteCast) -> PartyState:
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


def count_votes(state: PartyState, approvals: int, proposer: int | None) -> PartyState:
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


# How the events of a turn change the cards, shared by both versions: each `_apply_*` changes a `Work`;
# version 1 then runs the machine (`_machine`), version 2 only marks the acting card's bonus action as
# underway (`_applied`), since its outcomes come as events of their own.


def apply_reveal(work: Work, event: CardsRevealed) -> None:
    for seat, card in enumerate(event.cards):
        work.take_from_hand(seat, card)
        work.play(seat, card)
    for seat, call in enumerate(event.calls):
        if call is not None:
            kind = callable_kind(work.tableaus[seat], call)
            if kind is not None:
                insort(work.queue, (NUMBER[call], seat, call, kind))


def apply_copy(work: Work, event: SpecialOrderCopied) -> None:
    work.copy(event.seat, event.card, event.slug)


def apply_chopsticks(work: Work, event: ChopsticksUsed) -> None:
    seat = event.seat
    work.take_from_hand(seat, event.card)
    if work.remove(seat, event.chopsticks):
        work.hands[seat] = (*work.hands[seat], event.chopsticks)
    work.play(seat, event.card)


def apply_give(work: Work, event: SpoonGiven) -> None:
    work.take_from_hand(event.seat, event.card)
    if work.remove(event.owner, event.spoon):
        work.hands[event.seat] = (*work.hands[event.seat], event.spoon)
    work.play(event.owner, event.card)


def draw_from_deck(work: Work, event: MenuDrawn) -> tuple[int, ...]:
    drawn = event.cards or ()
    taken = set(drawn)
    work.deck = tuple([card for card in work.deck if card not in taken])
    return drawn


def apply_order(work: Work, event: MenuOrdered) -> None:
    work.deck = (*work.deck, *[card for card in work.drawn if card != event.card])
    work.drawn = ()
    work.discard_from_tableau(event.seat, event.menu)
    work.play(event.seat, event.card)


def apply_flip(work: Work, event: CardsFlipped) -> None:
    work.flip(event.seat, event.cards)
    work.discard_from_tableau(event.seat, event.box)


def apply_round_scored(state: PartyState, event: RoundScored) -> PartyState:
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


#: The events both rules versions apply alike.
SHARED_HANDLERS: dict[type, Callable[[PartyState, Any], PartyState]] = {
    MenuProposed: _menu_proposed,
    MenuChosen: _menu_chosen,
    RoundDealt: _round_dealt,
    CardsDrawn: _cards_drawn,
    CardChosen: _card_chosen,
    DessertsScored: _desserts_scored,
}
