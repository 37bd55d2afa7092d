"""`setup` and `decide`: a seat's command validated, and its events; and what both rules versions'
`follow` shares: the chance draws the state needs (a round's deal, a menu's 4 cards, the 2-player
variant's draws), the prompts that leave no real choice (a special order with one kind of card to
copy, a spoon asking for one variant, chopsticks with one card in hand), and the scores of rounds and
desserts (`next_step`). Every such step is an event.

What differs between rules versions is a `PartyRules`: the `evolve` that folds the events, the
`follow` that writes what happens with no seat's choice, and whether a takeout box may flip desserts.
Each version is its own module: `rules_v1.py` (its `evolve` runs the turn machine) and `rules_v2.py`
(its `follow` writes every outcome of the turn machine as an event). Validation is the same for both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from kaiten.domain.chance import Chance
from kaiten.domain.engine import NotNow, RuleViolation, seat_score
from kaiten.domain.sushi_go_party.cards import (
    CARD_COUNT,
    DEAL,
    DESSERTS_PER_ROUND,
    REQUESTS,
    SLUG,
    SLUG_TYPE,
    TWO_PLAYER_DEAL,
)
from kaiten.domain.sushi_go_party.commands import (
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
    PartyEvent,
    RoundDealt,
    RoundScored,
    SpecialOrderCopied,
    SpoonGiven,
    SpoonUsed,
    VoteCast,
)
from kaiten.domain.sushi_go_party.evolve import (
    callable_kind,
    spoon_matches,
)
from kaiten.domain.sushi_go_party.options import PartyOptions, resolve_menu, suggested_for
from kaiten.domain.sushi_go_party.scoring import (
    dessert_breakdowns,
    menu_categories,
    round_breakdowns,
)
from kaiten.domain.sushi_go_party.state import PartyState, Prompt, initial_state

MENU_DRAW = 4


class PartyRules(NamedTuple):
    """What a rules version of Sushi Go Party! changes in `decide` and `evolve`."""

    version: int
    evolve: Callable[[PartyState, Any], PartyState]
    #: The events that follow, with no seat's choice, in the state reached (none: the game waits).
    follow: Callable[[PartyState, Chance], Sequence[Any]]
    #: A takeout box may flip desserts played this round (version 2).
    flips_desserts: bool


def new_state(options: PartyOptions, players: int) -> PartyState:
    menu = options.menu
    mode = menu if isinstance(menu, str) else None
    return initial_state(players, options.pass_both_ways, options.two_player_variant, mode)


def setup(options: PartyOptions, players: int, chance: Chance) -> tuple[PartyEvent, ...]:
    """The menu, when the options choose it (the first round is dealt next, by `follow`); nothing
    when the seats choose it."""
    if new_state(options, players).phase == "select":
        return ()
    menu = options.menu
    if menu == "random":
        chosen = chance.choice(suggested_for(players)).spec()
        how = "random"
    else:
        chosen = resolve_menu(menu, players)
        how = "option"
    return (MenuChosen(menu=chosen, how=how),)


# --- following the game ---------------------------------------------------------------------------


def next_step(state: PartyState, chance: Chance) -> Any | None:
    """The next chance draw, automatic choice or score the state needs (version 1's whole `follow`;
    version 2 shares it)."""
    phase = state.phase
    if phase == "pick" or phase == "select" or phase == "over":
        return None
    if phase == "resolve":
        return _auto_resolution(state, chance)
    if phase == "deal":
        return deal(state, chance)
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


def deal(state: PartyState, chance: Chance) -> RoundDealt:
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
        slugs = tableau_slugs(state, prompt.seat)
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


def tableau_slugs(state: PartyState, seat: int) -> dict[int, str]:
    return {card: slug for card, slug, _ in state.tableaus[seat]}


# --- decide ---------------------------------------------------------------------------------------


def decide(state: PartyState, seat: int, command: Any, chance: Chance, rules: PartyRules) -> tuple[PartyEvent, ...]:
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
        return _pick(state, seat, command)
    if phase == "resolve":
        return (_resolve(state, seat, command, rules),)
    if phase == "select":
        return (_select(state, seat, command),)
    raise RuleViolation("invalid-command", f"the game cannot take a command now ({phase})")


def _unexpected(command: Any, wanted: str) -> RuleViolation:
    return RuleViolation("unexpected-command", f"{type(command).__name__} is not expected now: {wanted}")


def _check_card(card: Any) -> int:
    if type(card) is not int or not 0 <= card < CARD_COUNT:
        raise RuleViolation("unknown-card", f"there is no card {card!r}")
    return card


def _pick(state: PartyState, seat: int, command: Pick) -> tuple[PartyEvent, ...]:
    """The seat's hidden choice; with the last one in, every seat's card revealed at once."""
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
        return (chosen,)
    picks = (*state.picks[:seat], card, *state.picks[seat + 1 :])
    calls = tuple([None if other < 0 else other for other in state.calls])
    calls = (*calls[:seat], call, *calls[seat + 1 :])
    revealed = CardsRevealed(round=state.round, turn=state.turn, cards=picks, calls=calls)
    return (chosen, revealed)


def _resolve(state: PartyState, seat: int, command: Any, rules: PartyRules) -> PartyEvent:
    """The seat's answer to the prompt it is asked."""
    prompt = state.prompt
    assert prompt is not None
    kind = prompt.kind
    options = prompt.options
    event: PartyEvent
    if kind == "copy":
        if type(command) is not Copy:
            raise _unexpected(command, "choose the card your special order copies (copy)")
        card = _check_card(command.card)
        slugs = tableau_slugs(state, seat)
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
        slugs = tableau_slugs(state, seat)
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
    return event


def _select(state: PartyState, seat: int, command: Any) -> PartyEvent:
    """The seat's part in choosing the menu: the menu itself, a proposal, or a vote."""
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
        return MenuChosen(menu=resolve_menu(menu, players), how=mode)
    if seat == selection.proposer and selection.votes[seat] == -1:
        if type(command) is not ProposeMenu:
            raise _unexpected(command, "propose a menu (propose-menu)")
        return MenuProposed(seat=seat, menu=resolve_menu(command.menu, players))
    if type(command) is not Vote:
        raise _unexpected(command, "vote on the proposed menu (vote)")
    if type(command.approve) is not bool:
        raise RuleViolation("invalid-command", "approve is true or false")
    return VoteCast(seat=seat, approve=command.approve)
