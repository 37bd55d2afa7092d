"""`decide` validates a seat's command and returns its events; `setup` sets the table.

After the command's own events the decider follows the game as far as it goes without a choice
(`_follow`): it draws chance where the state needs it (a round's deal, a menu's 4 cards, the
2-player variant's draws), resolves prompts that leave no real choice (a special order with one
kind of card to copy, a spoon asking for one variant, chopsticks with one card in hand), and
scores rounds and desserts. Every such step is an event.

What differs between rules versions is a `PartyRules`: the `evolve` that folds the events, the
`steps` that follow a decision, and whether a takeout box may flip desserts. Version 1's steps are the
chance draws and automatic choices above (its `evolve` runs the turn machine); version 2's
(`RULES_V2`, at the end of this module) add every outcome of the turn machine. Validation is the
same for both.

**Rules version 2: the turn machine runs in `decide`, and each of its outcomes is an event.**
Version 1's `evolve` worked out what happens after a reveal (evolve.py, `_Work.advance`); version 2's
`evolve_v2` only applies events, and these steps, run by `decide` after every decision, write what
the rules work out, one step at a time, until a seat must choose:

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

Everything else (deals, draws, scores, validation) is shared with version 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from domain.chance import Chance
from domain.engine import Decided, NotNow, RuleViolation, seat_score
from domain.sushi_go_party.cards import (
    CARD_COUNT,
    DEAL,
    DESSERTS_PER_ROUND,
    REQUESTS,
    SLUG,
    SLUG_TYPE,
    TWO_PLAYER_DEAL,
    TWO_PLAYER_DRAW_TURNS,
    URAMAKI_GOAL,
    URAMAKI_ICONS,
    URAMAKI_PLACES,
)
from domain.sushi_go_party.commands import (
    ChooseMenu,
    Chopsticks,
    Copy,
    Flip,
    Give,
    MenuPick,
    Pick,
    ProposeMenu,
    Spoon,
    Vote,
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
    PartyEvent,
    RoundDealt,
    RoundScored,
    SpecialOrderCopied,
    SpoonGiven,
    SpoonUsed,
    UramakiPlaced,
    VoteCast,
    VotesCounted,
)
from domain.sushi_go_party.evolve import (
    callable_kind,
    clashing_misos,
    copy_options,
    evolve,
    evolve_v2,
    flip_options,
    passing,
    spoon_giver,
    spoon_matches,
    vote_tally,
)
from domain.sushi_go_party.options import PartyOptions, resolve_menu, suggested_for
from domain.sushi_go_party.scoring import (
    dessert_breakdowns,
    menu_categories,
    place_groups,
    round_breakdowns,
    uramaki_race,
)
from domain.sushi_go_party.state import PartyState, Prompt, initial_state

MENU_DRAW = 4


class PartyRules(NamedTuple):
    """What a rules version of Sushi Go Party! changes in `decide` and `evolve`."""

    version: int
    evolve: Callable[[PartyState, Any], PartyState]
    #: The events that follow, with no seat's choice, in the state reached (none: the game waits).
    steps: Callable[[PartyState, Chance], Sequence[Any]]
    #: A takeout box may flip desserts played this round (version 2).
    flips_desserts: bool


def new_state(options: PartyOptions, players: int) -> PartyState:
    menu = options.menu
    mode = menu if isinstance(menu, str) else None
    return initial_state(players, options.pass_both_ways, options.two_player_variant, mode)


def setup(
    options: PartyOptions, players: int, chance: Chance, rules: PartyRules | None = None
) -> Decided[PartyEvent, PartyState]:
    state = new_state(options, players)
    if state.phase == "select":
        return Decided(events=(), state=state)
    menu = options.menu
    if menu == "random":
        chosen = chance.choice(suggested_for(players)).spec()
        how = "random"
    else:
        chosen = resolve_menu(menu, players)
        how = "option"
    return _follow(state, [MenuChosen(menu=chosen, how=how)], chance, rules or RULES_V1)


# --- following the game ---------------------------------------------------------------------------


def _follow(state: PartyState, events: list[Any], chance: Chance, rules: PartyRules) -> Decided[PartyEvent, PartyState]:
    """Fold `events`, then add the steps that need no seat's choice; every event and the state after."""
    evolve_ = rules.evolve
    for event in events:
        state = evolve_(state, event)
    while steps := rules.steps(state, chance):
        for event in steps:
            events.append(event)
            state = evolve_(state, event)
    return Decided(events=tuple(events), state=state)


def _steps_v1(state: PartyState, chance: Chance) -> Sequence[Any]:
    event = next_step(state, chance)
    return () if event is None else (event,)


def next_step(state: PartyState, chance: Chance) -> Any | None:
    """Version 1's next step (version 2 shares its draws and scores)."""
    phase = state.phase
    if phase == "pick" or phase == "select" or phase == "over":
        return None
    if phase == "resolve":
        return _auto_resolution(state, chance)
    if phase == "deal":
        return _deal(state, chance)
    if phase == "draw":
        return cards_drawn(state, state.turn, chance)
    if phase == "score":
        return round_scored(state)
    if phase == "desserts":
        assert state.menu is not None
        fridges = [[slug for _, slug in fridge] for fridge in state.fridges]
        breakdowns = dessert_breakdowns(fridges, state.players, (state.menu.dessert,))
        return DessertsScored(
            desserts=tuple([len(fridge) for fridge in state.fridges]),
            scores=tuple([seat_score(seat, breakdown) for seat, breakdown in enumerate(breakdowns)]),
        )
    if phase == "chosen":
        assert state.menu is not None and state.selection is not None
        return MenuChosen(menu=state.menu, how=state.selection.mode)
    return None


def cards_drawn(state: PartyState, turn: int, chance: Chance) -> CardsDrawn:
    """2-player variant: one card drawn for each seat at the start of `turn`."""
    cards = chance.rng.sample(state.deck, min(state.players, len(state.deck)))
    drawn: list[int | None] = [*cards, *[None] * (state.players - len(cards))]
    return CardsDrawn(turn=turn, cards=tuple(drawn))


def round_scored(state: PartyState) -> RoundScored:
    """The round's points (desserts score at the end of the game)."""
    assert state.menu is not None
    categories = [name for name in menu_categories(state.menu) if name != state.menu.dessert]
    breakdowns = round_breakdowns(
        state.tableaus, state.players, categories, state.uramaki_points, state.uramaki_claimed
    )
    return RoundScored(
        round=state.round,
        scores=tuple([seat_score(seat, breakdown) for seat, breakdown in enumerate(breakdowns)]),
    )


def _deal(state: PartyState, chance: Chance) -> RoundDealt:
    players = state.players
    round_ = state.round + 1
    rng = chance.rng
    wanted = DESSERTS_PER_ROUND[players][round_ - 1]
    desserts = sorted(rng.sample(state.dessert_pile, min(wanted, len(state.dessert_pile))))
    pool = (*state.deck, *desserts)
    size = TWO_PLAYER_DEAL if state.two_player_variant else DEAL[players]
    size = min(size, len(pool) // players)
    dealt = rng.sample(pool, size * players)
    hands = tuple([tuple(sorted(dealt[seat * size : (seat + 1) * size])) for seat in range(players)])
    return RoundDealt(round=round_, hand_size=size, hands=hands, dessert_count=len(desserts), desserts=tuple(desserts))


def _auto_resolution(state: PartyState, chance: Chance) -> Any | None:
    prompt = state.prompt
    if prompt is None:
        return None
    if prompt.kind == "draw-menu":
        return menu_drawn(state, prompt.seat, prompt.card, chance)
    return automatic_choice(state, prompt)


def menu_drawn(state: PartyState, seat: int, menu: int, chance: Chance) -> MenuDrawn:
    cards = tuple(chance.rng.sample(state.deck, min(MENU_DRAW, len(state.deck))))
    return MenuDrawn(seat=seat, menu=menu, count=len(cards), cards=cards)


def automatic_choice(state: PartyState, prompt: Prompt) -> Any | None:
    """The event that answers a choice that is no real choice, or None when the seat must be asked."""
    kind = prompt.kind
    options = prompt.options
    if kind == "copy":
        slugs = _tableau_slugs(state, prompt.seat)
        if len({slugs[card] for card in options}) == 1:
            return SpecialOrderCopied(seat=prompt.seat, card=prompt.card, copy=options[0], slug=slugs[options[0]])
    elif kind == "chopsticks":
        if len(options) == 1:
            return ChopsticksUsed(seat=prompt.seat, chopsticks=prompt.card, card=options[0])
    elif kind == "give" and prompt.request in SLUG_TYPE:
        # The giver chooses only when the spoon asked for a type with several variants: asking it
        # then, and only then, tells the others nothing about its hand.
        return SpoonGiven(seat=prompt.seat, owner=prompt.owner, spoon=prompt.card, card=options[0])
    # A menu always asks its owner (even with one kind of card to play), so that the others learn
    # nothing about the cards it drew.
    return None


def _tableau_slugs(state: PartyState, seat: int) -> dict[int, str]:
    return {card: slug for card, slug, _ in state.tableaus[seat]}


# --- decide ---------------------------------------------------------------------------------------


def decide(
    state: PartyState, seat: int, command: Any, chance: Chance, rules: PartyRules | None = None
) -> Decided[PartyEvent, PartyState]:
    rules = rules or RULES_V1
    if state.phase == "over":
        raise NotNow("game-finished", "the game is over")
    if seat not in state.awaiting:
        if state.phase == "pick" and 0 <= seat < state.players and state.picks[seat] >= 0:
            raise RuleViolation("already-picked", "this seat has already picked this turn; picks are final")
        raise NotNow("not-your-turn", f"the game is not waiting for seat {seat}")
    kind = type(command)
    phase = state.phase
    if phase == "pick":
        if kind is not Pick:
            raise _unexpected(command, "pick a card")
        return _pick(state, seat, command, chance, rules)
    if phase == "resolve":
        return _resolve(state, seat, command, chance, rules)
    if phase == "select":
        return _select(state, seat, command, chance, rules)
    raise RuleViolation("invalid-command", f"the game cannot take a command now ({phase})")


def _unexpected(command: Any, wanted: str) -> RuleViolation:
    return RuleViolation("unexpected-command", f"{type(command).__name__} is not expected now: {wanted}")


def _check_card(card: Any) -> int:
    if type(card) is not int or not 0 <= card < CARD_COUNT:
        raise RuleViolation("unknown-card", f"there is no card {card!r}")
    return card


def _pick(
    state: PartyState, seat: int, command: Pick, chance: Chance, rules: PartyRules
) -> Decided[PartyEvent, PartyState]:
    card = _check_card(command.card)
    hand = state.hands[seat]
    if card not in hand:
        raise RuleViolation("card-not-in-hand", f"card {card} is not in your hand")
    call = command.call
    if call is not None:
        _check_card(call)
        tableau = state.tableaus[seat]
        if all(entry[0] != call for entry in tableau):
            raise RuleViolation("card-not-in-tableau", f"card {call} is not in your tableau")
        called = callable_kind(tableau, call)
        if called is None:
            raise RuleViolation("not-callable", f"card {call} is not chopsticks or a spoon")
        if called == "chopsticks" and len(hand) < 2:
            raise RuleViolation("chopsticks-need-a-card", "chopsticks need a second card left in your hand")
    chosen = CardChosen(seat=seat, card=card, call=call)
    if len(state.awaiting) > 1:
        return Decided(events=(chosen,), state=rules.evolve(state, chosen))
    picks = (*state.picks[:seat], card, *state.picks[seat + 1 :])
    calls = tuple([None if other < 0 else other for other in state.calls])
    calls = (*calls[:seat], call, *calls[seat + 1 :])
    revealed = CardsRevealed(round=state.round, turn=state.turn, cards=picks, calls=calls)
    return _follow(state, [chosen, revealed], chance, rules)


def _resolve(
    state: PartyState, seat: int, command: Any, chance: Chance, rules: PartyRules
) -> Decided[PartyEvent, PartyState]:
    prompt = state.prompt
    assert prompt is not None
    kind = prompt.kind
    options = prompt.options
    event: Any
    if kind == "copy":
        if type(command) is not Copy:
            raise _unexpected(command, "choose the card your special order copies (copy)")
        card = _check_card(command.card)
        slugs = _tableau_slugs(state, seat)
        if card not in slugs:
            raise RuleViolation("card-not-in-tableau", f"card {card} is not in your tableau")
        if card not in options:
            raise RuleViolation(
                "cannot-copy",
                f"card {card} cannot be copied (earlier cards of this round only; no menu, "
                "takeout box, special order or face-down card)",
            )
        event = SpecialOrderCopied(seat=seat, card=prompt.card, copy=card, slug=slugs[card])
    elif kind == "chopsticks":
        if type(command) is not Chopsticks:
            raise _unexpected(command, "play your second card (chopsticks)")
        card = _check_card(command.card)
        if card not in options:
            raise RuleViolation("card-not-in-hand", f"card {card} is not in your hand")
        event = ChopsticksUsed(seat=seat, chopsticks=prompt.card, card=card)
    elif kind == "spoon":
        if type(command) is not Spoon:
            raise _unexpected(command, "name the card your spoon asks for (spoon)")
        request = command.request
        if request not in REQUESTS:
            raise RuleViolation("unknown-card", f"there is no card type or variant {request!r}")
        assert state.menu is not None
        if SLUG_TYPE.get(request, request) not in state.menu.types():
            raise RuleViolation("not-on-menu", f"{request!r} is not on this game's menu")
        event = SpoonUsed(seat=seat, spoon=prompt.card, request=request)
    elif kind == "give":
        if type(command) is not Give:
            raise _unexpected(command, "give the spoon's owner a matching card (give)")
        card = _check_card(command.card)
        if card not in state.hands[seat]:
            raise RuleViolation("card-not-in-hand", f"card {card} is not in your hand")
        if prompt.request is None or not spoon_matches(card, prompt.request):
            raise RuleViolation("card-does-not-match", f"card {card} is not a {prompt.request}")
        event = SpoonGiven(seat=seat, owner=prompt.owner, spoon=prompt.card, card=card)
    elif kind == "menu":
        if type(command) is not MenuPick:
            raise _unexpected(command, "play one of the cards the menu drew (menu-pick)")
        card = _check_card(command.card)
        if card not in options:
            raise RuleViolation("card-not-drawn", f"card {card} is not one of the cards the menu drew")
        if SLUG[card] == "menu":
            raise RuleViolation("cannot-play-menu", "a menu cannot play another menu")
        event = MenuOrdered(seat=seat, menu=prompt.card, card=card)
    elif kind == "flip":
        if type(command) is not Flip:
            raise _unexpected(command, "choose the cards your takeout box flips (flip)")
        cards = tuple(_check_card(card) for card in command.cards)
        if len(set(cards)) != len(cards):
            raise RuleViolation("duplicate-card", "each card can be flipped once")
        slugs = _tableau_slugs(state, seat)
        for card in cards:
            if card not in slugs:
                raise RuleViolation("card-not-in-tableau", f"card {card} is not in your tableau")
            if card not in options:
                desserts = "" if rules.flips_desserts else ", no dessert"
                raise RuleViolation(
                    "cannot-flip",
                    f"card {card} cannot be flipped (earlier face-up cards of this round only{desserts})",
                )
        event = CardsFlipped(seat=seat, box=prompt.card, cards=tuple(sorted(cards)))
    else:  # pragma: no cover - transient prompts never rest
        raise RuleViolation("invalid-command", "no choice is expected now")
    return _follow(state, [event], chance, rules)


def _select(
    state: PartyState, seat: int, command: Any, chance: Chance, rules: PartyRules
) -> Decided[PartyEvent, PartyState]:
    selection = state.selection
    assert selection is not None
    players = state.players
    mode = selection.mode
    if mode == "first-player" or mode == "build":
        if type(command) is not ChooseMenu:
            raise _unexpected(command, "choose the menu (choose-menu)")
        menu = command.menu
        if mode == "first-player" and not isinstance(menu, str):
            raise RuleViolation("invalid-menu", "the first player picks a suggested menu by id")
        return _follow(state, [MenuChosen(menu=resolve_menu(menu, players), how=mode)], chance, rules)
    if seat == selection.proposer and selection.votes[seat] == -1:
        if type(command) is not ProposeMenu:
            raise _unexpected(command, "propose a menu (propose-menu)")
        return _follow(state, [MenuProposed(seat=seat, menu=resolve_menu(command.menu, players))], chance, rules)
    if type(command) is not Vote:
        raise _unexpected(command, "vote on the proposed menu (vote)")
    if type(command.approve) is not bool:
        raise RuleViolation("invalid-command", "approve is true or false")
    return _follow(state, [VoteCast(seat=seat, approve=command.approve)], chance, rules)


#: Rules version 1 (kaiten 0.1.0): its `evolve` runs the turn machine.
RULES_V1 = PartyRules(version=1, evolve=evolve, steps=_steps_v1, flips_desserts=False)


def steps(state: PartyState, chance: Chance) -> Sequence[Any]:
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


#: Rules version 2: outcomes are events, a miso clash needs two different players, a takeout box may
#: flip desserts.
RULES_V2 = PartyRules(version=2, evolve=evolve_v2, steps=steps, flips_desserts=True)
