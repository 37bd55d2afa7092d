"""Rules version 1 of Sushi Go Party! (kaiten 0.1.0): `evolve` runs the turn machine itself, and its
logs hold no outcome events, so it is kept as it was (every version-1 log replays exactly as
recorded). `follow` writes only the chance draws, the automatic choices and the scores
(`decide.next_step`).

The bonus actions of a turn are a small machine that `evolve` runs after every event of the turn
(`advance`), until it needs a seat's choice (`state.prompt`), a chance draw (a menu's cards), or the
turn ends:

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

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from kaiten.domain.chance import Chance
from kaiten.domain.engine import evolver
from kaiten.domain.sushi_go_party.cards import SLUG, TWO_PLAYER_DRAW_TURNS, URAMAKI_ICONS, URAMAKI_PLACES
from kaiten.domain.sushi_go_party.decide import PartyRules, next_step
from kaiten.domain.sushi_go_party.events import (
    CardsFlipped,
    CardsRevealed,
    ChopsticksUsed,
    MenuDrawn,
    MenuOrdered,
    RoundScored,
    SpecialOrderCopied,
    SpoonGiven,
    SpoonUsed,
    VoteCast,
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
    position,
    spoon_giver,
    vote_recorded,
    vote_tally,
)
from kaiten.domain.sushi_go_party.scoring import uramaki_race
from kaiten.domain.sushi_go_party.state import Action, PartyState, Prompt

_replace = msgspec.structs.replace


# --- the turn machine -----------------------------------------------------------------------------


def advance(work: Work) -> None:
    """Resolve what needs no choice until a prompt, a chance draw or the end of the turn."""
    while work.prompt is None:
        if work.immediate:
            seat, card = work.immediate.pop(0)
            options = copy_options(work.tableaus[seat], card)
            if not options:
                work.discard_from_tableau(seat, card)
                continue
            work.prompt = Prompt(kind="copy", seat=seat, card=card, options=options)
            break
        if work.queue:
            _resolve(work, work.queue.pop(0))
            continue
        _end_turn(work)
        return
    work.phase = "resolve"
    work.awaiting = () if work.prompt.kind == "draw-menu" else (work.prompt.seat,)


def _resolve(work: Work, action: Action) -> None:
    _, seat, card, kind = action
    tableau = work.tableaus[seat]
    at = position(tableau, card)
    if at < 0:
        return
    if kind == "chopsticks":
        if work.hands[seat]:
            work.prompt = Prompt(kind="chopsticks", seat=seat, card=card, options=work.hands[seat])
    elif kind == "spoon":
        # On the last turn nobody holds a card: nothing happens (the spoon stays).
        if any(hand for other, hand in enumerate(work.hands) if other != seat):
            work.prompt = Prompt(kind="spoon", seat=seat, card=card)
    elif kind == "menu":
        work.prompt = Prompt(kind="draw-menu", seat=seat, card=card)
    else:  # takeout box
        options = flip_options(tableau, card, desserts=False)
        if options:
            work.prompt = Prompt(kind="flip", seat=seat, card=card, options=options)
        else:
            work.discard_from_tableau(seat, card)


def _end_turn(work: Work) -> None:
    players = work.players
    for seat, card in clashing_misos(work.misos, different_players=False):
        work.discard_from_tableau(seat, card)
    work.misos = []
    if work.uramaki_claimed < len(URAMAKI_PLACES) and max(work.icons) >= 10:
        points, claimed, scorers = uramaki_race(work.icons, work.uramaki_claimed)
        work.uramaki_claimed = claimed
        race = list(work.race_points)
        for seat in scorers:
            race[seat] += points[seat]
            for card, slug, _ in work.tableaus[seat]:
                if slug in URAMAKI_ICONS:
                    work.discard_from_tableau(seat, card)
        work.race_points = tuple(race)
    work.picks = (-1,) * players
    work.calls = (-1,) * players
    work.prompt = None
    if not work.hands[0]:
        work.phase = "score"
        work.awaiting = ()
        return
    work.pass_hands(passing(work.state))
    work.turn += 1
    if work.state.two_player_variant and work.turn in TWO_PLAYER_DRAW_TURNS:
        work.phase = "draw"
        work.awaiting = ()
    else:
        work.phase = "pick"
        work.awaiting = tuple(range(players))


def _apply_spoon_used(work: Work, event: SpoonUsed) -> None:
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


def _apply_menu_drawn(work: Work, event: MenuDrawn) -> None:
    """Version 1 asks for the menu's card here, or returns a draw of only menus (version 2: an event)."""
    drawn = draw_from_deck(work, event)
    if any(SLUG[card] != "menu" for card in drawn):
        work.drawn = drawn
        work.prompt = Prompt(kind="menu", seat=event.seat, card=event.menu, options=drawn)
    else:
        work.deck = (*work.deck, *drawn)
        work.discard_from_tableau(event.seat, event.menu)


def _vote_cast(state: PartyState, event: VoteCast) -> PartyState:
    """Version 1 counts the votes here once the last is in (version 2: `VotesCounted`, `MenuChosen`)."""
    state = vote_recorded(state, event)
    selection = state.selection
    assert selection is not None
    if -1 in selection.votes:
        return state
    approvals, chosen, proposer = vote_tally(selection, state.players)
    state = count_votes(state, approvals, proposer)
    if chosen is None:
        return state
    return _replace(state, menu=selection.proposals[chosen], phase="chosen")


def _machine(apply: Callable[[Work, Any], None]) -> Callable[[PartyState, Any], PartyState]:
    """Version 1: apply the event, then run the turn machine as far as it goes."""

    def handler(state: PartyState, event: Any) -> PartyState:
        work = Work(state)
        apply(work, event)
        advance(work)
        return work.build()

    return handler


_HANDLERS: dict[type, Callable[[PartyState, Any], PartyState]] = {
    **SHARED_HANDLERS,
    VoteCast: _vote_cast,
    CardsRevealed: _machine(apply_reveal),
    SpecialOrderCopied: _machine(apply_copy),
    ChopsticksUsed: _machine(apply_chopsticks),
    SpoonUsed: _machine(_apply_spoon_used),
    SpoonGiven: _machine(apply_give),
    MenuDrawn: _machine(_apply_menu_drawn),
    MenuOrdered: _machine(apply_order),
    CardsFlipped: _machine(apply_flip),
    RoundScored: apply_round_scored,
}
evolve = evolver(_HANDLERS)


def follow(state: PartyState, chance: Chance) -> Sequence[Any]:
    """Version 1's next step: a chance draw, an automatic choice or a score (its `evolve` works out
    the rest)."""
    event = next_step(state, chance)
    return () if event is None else (event,)


#: Rules version 1 (kaiten 0.1.0): its `evolve` runs the turn machine.
RULES_V1 = PartyRules(version=1, evolve=evolve, follow=follow, flips_desserts=False)
