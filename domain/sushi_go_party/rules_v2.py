"""Rules version 2 of Sushi Go Party!: outcomes are events. The turn machine runs in `follow`, which
writes each of its outcomes as an event, one step at a time, until a seat must choose; `evolve` only
applies them:

1. A played special order: `ChoiceAsked` (copy), its copy when only one kind of card can be copied
   (`SpecialOrderCopied`), or `BonusDropped` (nothing to copy: discarded).
2. The queued bonus actions, lowest card number first: chopsticks (`ChoiceAsked`, or the second card
   when only one is left, or `BonusDropped` with no card left), a spoon (`ChoiceAsked` to name a card;
   once named, `ChoiceAsked` for the giver, `SpoonGiven` when no choice is left, or `BonusDropped`
   when nobody holds a match), a menu (`MenuDrawn`; only menus drawn: `BonusDropped`), a takeout box
   (`ChoiceAsked` with every earlier face-up card, desserts of this round included, or `BonusDropped`).
3. The end of the turn: `MisoClashed` when two or more different players played miso soups,
   `UramakiPlaced` for each place the race awards (most icons first), then `HandsPassed` (and the
   2-player variant's `CardsDrawn`) or, after the last turn, `RoundScored`.
4. In vote mode, once every seat voted: `VotesCounted`, and `MenuChosen` when a proposal stands.

Everything else (deals, draws, scores, validation) is shared with version 1 (decide.py, evolve.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from kaiten.domain.chance import Chance
from kaiten.domain.engine import evolver
from kaiten.domain.sushi_go_party.cards import SLUG, TWO_PLAYER_DRAW_TURNS, URAMAKI_GOAL, URAMAKI_ICONS, URAMAKI_PLACES
from kaiten.domain.sushi_go_party.decide import (
    PartyRules,
    automatic_choice,
    cards_drawn,
    menu_drawn,
    next_step,
    round_scored,
)
from kaiten.domain.sushi_go_party.events import (
    BonusDropped,
    CardsFlipped,
    CardsRevealed,
    ChoiceAsked,
    ChopsticksUsed,
    HandsPassed,
    MenuChosen,
    MenuDrawn,
    MenuOrdered,
    MisoClashed,
    RoundScored,
    SpecialOrderCopied,
    SpoonGiven,
    SpoonUsed,
    UramakiPlaced,
    VoteCast,
    VotesCounted,
)
from kaiten.domain.sushi_go_party.evolve import (
    SHARED_HANDLERS,
    Work,
    apply_chopsticks,
    apply_copy,
    apply_flip,
    apply_give,
    apply_order,
    apply_reveal,
    apply_round_scored,
    clashing_misos,
    copy_options,
    count_votes,
    draw_from_deck,
    flip_options,
    passing,
    spoon_giver,
    vote_recorded,
    vote_tally,
)
from kaiten.domain.sushi_go_party.scoring import place_groups, uramaki_race
from kaiten.domain.sushi_go_party.state import PartyState, Prompt

_replace = msgspec.structs.replace


# --- follow: the turn machine, one outcome event at a time ----------------------------------------


def follow(state: PartyState, chance: Chance) -> Sequence[Any]:
    """The next outcome of the turn machine or the vote, or version 1's draws and scores."""
    phase = state.phase
    if phase == "resolve":
        return _turn_step(state, chance)
    if phase == "select":
        return _tally(state)
    event = next_step(state, chance)
    return () if event is None else (event,)


def _ask(state: PartyState, prompt: Prompt) -> Any:
    """The choice, or its only answer when it leaves none (the same choices version 1 made for seats)."""
    automatic = automatic_choice(state, prompt)
    if automatic is not None:
        return automatic
    return ChoiceAsked(
        kind=prompt.kind,
        seat=prompt.seat,
        card=prompt.card,
        options=prompt.options,
        request=prompt.request,
        owner=None if prompt.owner < 0 else prompt.owner,
    )


def _turn_step(state: PartyState, chance: Chance) -> Sequence[Any]:
    prompt = state.prompt
    if prompt is not None:
        if prompt.kind == "spoon-used":
            assert prompt.request is not None
            found = spoon_giver(state.hands, prompt.seat, prompt.request)
            if found is None:
                return (BonusDropped(seat=prompt.seat, card=prompt.card, reason="no-match", discarded=True),)
            giver, matches = found
            give = Prompt("give", giver, prompt.card, matches, prompt.request, prompt.seat)
            return (_ask(state, give),)
        if prompt.kind == "menu" and all(SLUG[card] == "menu" for card in prompt.options):
            return (BonusDropped(seat=prompt.seat, card=prompt.card, reason="only-menus", discarded=True),)
        return ()
    if state.immediate:
        seat, card = state.immediate[0]
        options = copy_options(state.tableaus[seat], card)
        if not options:
            return (BonusDropped(seat=seat, card=card, reason="nothing-to-copy", discarded=True),)
        return (_ask(state, Prompt("copy", seat, card, options)),)
    if state.queue:
        return (_bonus(state, *state.queue[0][1:], chance),)
    return _turn_end(state, chance)


def _bonus(state: PartyState, seat: int, card: int, kind: str, chance: Chance) -> Any:
    """What the next queued bonus action does."""
    if all(entry[0] != card for entry in state.tableaus[seat]):
        return BonusDropped(seat=seat, card=card, reason="gone", discarded=False)
    if kind == "chopsticks":
        hand = state.hands[seat]
        if not hand:
            return BonusDropped(seat=seat, card=card, reason="empty-hand", discarded=False)
        return _ask(state, Prompt("chopsticks", seat, card, hand))
    if kind == "spoon":
        if not any(hand for other, hand in enumerate(state.hands) if other != seat):
            return BonusDropped(seat=seat, card=card, reason="last-turn", discarded=False)
        return ChoiceAsked(kind="spoon", seat=seat, card=card, options=())
    if kind == "menu":
        return menu_drawn(state, seat, card, chance)
    options = flip_options(state.tableaus[seat], card, desserts=True)
    if not options:
        return BonusDropped(seat=seat, card=card, reason="nothing-to-flip", discarded=True)
    return ChoiceAsked(kind="flip", seat=seat, card=card, options=options)


def _turn_end(state: PartyState, chance: Chance) -> Sequence[Any]:
    clash = clashing_misos(state.misos, different_players=True)
    if clash:
        return (MisoClashed(cards=tuple(clash)),)
    icons = state.uramaki_icons
    claimed = state.uramaki_claimed
    if claimed < len(URAMAKI_PLACES) and max(icons) >= URAMAKI_GOAL:
        first = place_groups(icons, URAMAKI_GOAL)[0]
        _, after, _ = uramaki_race([icons[seat] if seat in first else 0 for seat in range(state.players)], claimed)
        uramaki = tuple(
            [(seat, card) for seat in first for card, slug, _ in state.tableaus[seat] if slug in URAMAKI_ICONS]
        )
        return (UramakiPlaced(points=URAMAKI_PLACES[claimed], seats=tuple(first), claimed=after, cards=uramaki),)
    if not state.hands[0]:
        return (round_scored(state),)
    turn = state.turn + 1
    passed = HandsPassed(direction=passing(state), turn=turn)
    if state.two_player_variant and turn in TWO_PLAYER_DRAW_TURNS:
        return (passed, cards_drawn(state, turn, chance))
    return (passed,)


def _tally(state: PartyState) -> Sequence[Any]:
    selection = state.selection
    if selection is None or selection.mode != "vote" or -1 in selection.votes:
        return ()
    approvals, chosen, proposer = vote_tally(selection, state.players)
    counted = VotesCounted(proposal=len(selection.proposals) - 1, approvals=approvals, next_proposer=proposer)
    if chosen is None:
        return (counted,)
    return (counted, MenuChosen(menu=selection.proposals[chosen], how="vote"))


# --- evolve: each event applied as it says ---------------------------------------------------------


def _applied(
    apply: Callable[[Work, Any], None], acting: Callable[[Any], int] | None = None
) -> Callable[[PartyState, Any], PartyState]:
    """Apply the event, after marking the bonus action of its acting card as underway. The turn then
    waits in `resolve` for `follow` to write what happens next."""

    def handler(state: PartyState, event: Any) -> PartyState:
        work = Work(state)
        if acting is not None:
            work.settle(acting(event))
        apply(work, event)
        return work.build()

    return handler


def _apply_spoon_used(work: Work, event: SpoonUsed) -> None:
    """Who gives comes next, as an event: the spoon's request waits in a transient prompt till then."""
    work.prompt = Prompt(kind="spoon-used", seat=event.seat, card=event.spoon, request=event.request)


def _apply_menu_drawn(work: Work, event: MenuDrawn) -> None:
    """The menu's owner plays one of the drawn cards (a draw of only menus is dropped next, an event)."""
    drawn = draw_from_deck(work, event)
    work.drawn = drawn
    work.prompt = Prompt(kind="menu", seat=event.seat, card=event.menu, options=drawn)
    work.awaiting = (event.seat,)


def _apply_choice_asked(work: Work, event: ChoiceAsked) -> None:
    work.prompt = Prompt(
        kind=event.kind,
        seat=event.seat,
        card=event.card,
        options=event.options or (),
        request=event.request,
        owner=-1 if event.owner is None else event.owner,
    )
    work.awaiting = (event.seat,)


def _apply_bonus_dropped(work: Work, event: BonusDropped) -> None:
    if event.reason == "only-menus":
        work.deck = (*work.deck, *work.drawn)
        work.drawn = ()
    if event.discarded:
        work.discard_from_tableau(event.seat, event.card)


def _apply_miso_clashed(work: Work, event: MisoClashed) -> None:
    for seat, card in event.cards:
        work.discard_from_tableau(seat, card)
    work.misos = []


def _apply_uramaki_placed(work: Work, event: UramakiPlaced) -> None:
    race = list(work.race_points)
    for seat in event.seats:
        race[seat] += event.points
    work.race_points = tuple(race)
    work.uramaki_claimed = event.claimed
    for seat, card in event.cards:
        work.discard_from_tableau(seat, card)


def _apply_hands_passed(work: Work, event: HandsPassed) -> None:
    players = work.players
    work.pass_hands(event.direction)
    work.turn = event.turn
    work.picks = (-1,) * players
    work.calls = (-1,) * players
    work.misos = []
    work.phase = "pick"
    work.awaiting = tuple(range(players))


def _votes_counted(state: PartyState, event: VotesCounted) -> PartyState:
    return count_votes(state, event.approvals, event.next_proposer)


def _round_scored(state: PartyState, event: RoundScored) -> PartyState:
    """The last turn of a round passes no hands: its picks and miso soups are cleared with the round."""
    players = state.players
    scored = apply_round_scored(state, event)
    return _replace(scored, picks=(-1,) * players, calls=(-1,) * players, misos=())


def _acting_card(event: Any) -> int:
    return int(event.card)


_HANDLERS: dict[type, Callable[[PartyState, Any], PartyState]] = {
    **SHARED_HANDLERS,
    VoteCast: vote_recorded,
    VotesCounted: _votes_counted,
    CardsRevealed: _applied(apply_reveal),
    SpecialOrderCopied: _applied(apply_copy, _acting_card),
    ChopsticksUsed: _applied(apply_chopsticks, lambda event: event.chopsticks),
    SpoonUsed: _applied(_apply_spoon_used, lambda event: event.spoon),
    SpoonGiven: _applied(apply_give, lambda event: event.spoon),
    MenuDrawn: _applied(_apply_menu_drawn, lambda event: event.menu),
    MenuOrdered: _applied(apply_order, lambda event: event.menu),
    CardsFlipped: _applied(apply_flip, lambda event: event.box),
    ChoiceAsked: _applied(_apply_choice_asked, _acting_card),
    BonusDropped: _applied(_apply_bonus_dropped, _acting_card),
    MisoClashed: _applied(_apply_miso_clashed),
    UramakiPlaced: _applied(_apply_uramaki_placed),
    HandsPassed: _applied(_apply_hands_passed),
    RoundScored: _round_scored,
}
evolve = evolver(_HANDLERS)


#: Rules version 2: outcomes are events, a miso clash needs two different players, a takeout box may
#: flip desserts.
RULES_V2 = PartyRules(version=2, evolve=evolve, follow=follow, flips_desserts=True)
