"""`setup` (the deal), `decide` (a seat's command validated and turned into its events, chance
outcomes included) and `follow` (what the rules write on their own after it: a full dish scored, a
player full, the turn passed, the last dishes scored when play stops)."""

from __future__ import annotations

from typing import Any

from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby.cards import (
    CARD_CART,
    CARD_PORTIONS,
    CART_DECKS,
    CHANGE_OF_HEART,
    DERBY_CARDS,
    DERBY_HAND_LIMIT,
    DERBY_KIND,
    DERBY_KINDS,
    DISH_CARDS,
    DOUBLE_HELPING,
    DRAW_DERBY_COST,
    EXTRA_HUNGRY,
    EXTRA_HUNGRY_ACTIONS,
    LAZY_SUSAN,
    PEEK,
    PEEK_DEPTH,
    SEND_IT_BACK,
    SHARP_ELBOWS,
    SWITCH_PLATES,
    TABLE_LIMIT,
    YEN_CARDS,
    YEN_DECKS,
    leaving_kitchen,
    slot_of,
    turn_limit,
)
from kaiten.domain.dim_sum_derby.commands import (
    Arrange,
    Cycle,
    DiscardDerby,
    DrawDerby,
    Eat,
    PlayDerby,
    Rotate,
    Serve,
)
from kaiten.domain.dim_sum_derby.events import (
    ActionTaken,
    CartArranged,
    CartRefilled,
    CartsRotated,
    DerbyDealt,
    DerbyDeckReshuffled,
    DerbyDiscarded,
    DerbyDrawn,
    DerbyPlayed,
    DishCycled,
    DishScored,
    DishSentBack,
    DishServed,
    ExtraActions,
    KitchenPeeked,
    MarkerKnockedOff,
    MarkerMoved,
    PlayerFull,
    PortionEaten,
    TurnLimitReached,
    TurnPassed,
    YenSwapped,
)
from kaiten.domain.dim_sum_derby.options import DerbyOptions
from kaiten.domain.dim_sum_derby.scoring import scorer_of
from kaiten.domain.dim_sum_derby.state import DerbyState
from kaiten.domain.engine import NotNow, RuleViolation

#: The parameters each Derby card takes (exactly these, no others).
DERBY_PARAMS: tuple[frozenset[str], ...] = (
    frozenset(),  # lazy-susan
    frozenset({"dish"}),  # double-helping
    frozenset({"dish"}),  # send-it-back
    frozenset({"dish", "to"}),  # switch-plates
    frozenset(),  # peek-in-the-kitchen
    frozenset(),  # extra-hungry
    frozenset({"yen"}),  # change-of-heart
    frozenset({"dish", "target"}),  # sharp-elbows
)


def front_cart(state: DerbyState, seat: int) -> int:
    """The cart type standing in front of a seat."""
    return state.slots[slot_of(seat, state.first_player, state.players, state.kitchen_left)]


def room(state: DerbyState, index: int) -> int:
    return CARD_PORTIONS[state.table[index]] - len(state.markers_on[index])


def _table_index(state: DerbyState, dish: int) -> int:
    if not 0 <= dish < DISH_CARDS:
        raise RuleViolation("unknown-card", f"there is no dish card {dish}")
    try:
        return state.table.index(dish)
    except ValueError:
        raise RuleViolation("dish-not-on-table", f"dish card {dish} is not on the table") from None


def setup(options: DerbyOptions, players: int, chance: Chance) -> tuple[DerbyDealt]:
    """The deal: each seat's yen cards, the yen decks, the carts and the Derby deck shuffled."""
    yen_decks = [chance.shuffled(deck) for deck in YEN_DECKS]
    yen = tuple(tuple(deck[seat] for deck in yen_decks) for seat in range(players))
    dealt = DerbyDealt(
        first_player=options.first_player,
        yen=yen,
        yen_decks=tuple(tuple(deck[players:]) for deck in yen_decks),
        carts=tuple(tuple(chance.shuffled(deck)) for deck in CART_DECKS),
        derby_deck=tuple(chance.shuffled(range(DERBY_CARDS))),
    )
    return (dealt,)


def decide(state: DerbyState, seat: int, command: Any, chance: Chance) -> list[Any]:
    """The command's events. Each reads `state`, as none of a command's events changes what a later
    one of the same command reads (a dish filled is scored by `follow`)."""
    if not state.dealt:
        raise NotNow("game-not-started", "the game has not been dealt yet")
    if state.over:
        raise NotNow("game-finished", "the game is over")
    if seat != state.turn_seat:
        raise NotNow("not-your-turn", f"it is seat {state.turn_seat}'s turn")
    kind = type(command)
    if state.peek and kind is not Arrange:
        raise RuleViolation("arrange-pending", "put the peeked cards back first (arrange)")
    if kind is Rotate:
        return [ActionTaken(seat=seat, action="rotate", cost=1), *_rotate(state, seat, 1, chance)]
    if kind is Eat:
        return _eat(state, seat, command)
    if kind is Serve:
        return _serve(state, seat)
    if kind is Cycle:
        return _cycle(state, seat)
    if kind is DrawDerby:
        return _draw(state, seat, chance)
    if kind is PlayDerby:
        return _play(state, seat, command, chance)
    if kind is DiscardDerby:
        _check_in_hand(state, seat, command.card)
        return [ActionTaken(seat=seat, action="discard-derby", cost=0), DerbyDiscarded(seat=seat, card=command.card)]
    if kind is Arrange:
        return _arrange(state, seat, command)
    raise RuleViolation("invalid-command", f"not a Dim Sum Derby command: {command!r}")


def _rotate(state: DerbyState, seat: int, steps: int, chance: Chance) -> list[Any]:
    cart = leaving_kitchen(state.slots, steps, state.players, state.kitchen_left)
    events: list[Any] = [CartsRotated(seat=seat, steps=steps)]
    discards = state.dish_discards[cart]
    if discards:
        cards = tuple(chance.shuffled(discards))
        flipped = None if state.carts[cart] else cards[0]
        events.append(CartRefilled(cart=cart, cards=cards, flipped=flipped))
    return events


def _serve(state: DerbyState, seat: int) -> list[Any]:
    cart = front_cart(state, seat)
    cards = state.carts[cart]
    if not cards:
        raise RuleViolation("cart-empty", "the cart in front of you is empty")
    if len(state.table) >= TABLE_LIMIT:
        raise RuleViolation("table-full", f"the table already holds {TABLE_LIMIT} dishes")
    return [
        ActionTaken(seat=seat, action="serve", cost=1),
        DishServed(seat=seat, cart=cart, dish=cards[0], flipped=cards[1] if len(cards) > 1 else None),
    ]


def _cycle(state: DerbyState, seat: int) -> list[Any]:
    cart = front_cart(state, seat)
    cards = state.carts[cart]
    if not cards:
        raise RuleViolation("cart-empty", "the cart in front of you is empty")
    return [
        ActionTaken(seat=seat, action="cycle", cost=1),
        DishCycled(seat=seat, cart=cart, dish=cards[0], flipped=cards[1] if len(cards) > 1 else cards[0]),
    ]


def _eat(state: DerbyState, seat: int, command: Eat) -> list[Any]:
    index = _table_index(state, command.dish)
    if state.supply[seat] <= 0:
        raise RuleViolation("no-markers-left", "you have no portion markers left")
    if room(state, index) <= 0:
        raise RuleViolation("dish-full", f"dish card {command.dish} has no room for another portion")
    return [ActionTaken(seat=seat, action="eat", cost=1), PortionEaten(seat=seat, dish=command.dish)]


def _draw(state: DerbyState, seat: int, chance: Chance) -> list[Any]:
    if len(state.hands[seat]) >= DERBY_HAND_LIMIT:
        raise RuleViolation("derby-hand-full", f"you already hold {DERBY_HAND_LIMIT} Derby cards")
    if state.actions_left < DRAW_DERBY_COST:
        raise RuleViolation("not-enough-actions", f"drawing a Derby card takes {DRAW_DERBY_COST} actions")
    if not state.derby_deck and not state.derby_discard:
        raise RuleViolation("derby-deck-empty", "no Derby card is left to draw")
    events: list[Any] = [ActionTaken(seat=seat, action="draw-derby", cost=DRAW_DERBY_COST)]
    deck = state.derby_deck
    if not deck:
        deck = tuple(chance.shuffled(state.derby_discard))
        events.append(DerbyDeckReshuffled(cards=deck))
    events.append(DerbyDrawn(seat=seat, card=deck[0]))
    return events


def _check_in_hand(state: DerbyState, seat: int, card: int) -> None:
    if not 0 <= card < DERBY_CARDS:
        raise RuleViolation("unknown-card", f"there is no Derby card {card}")
    if card not in state.hands[seat]:
        raise RuleViolation("card-not-in-hand", f"you do not hold Derby card {card}")


def _play(state: DerbyState, seat: int, command: PlayDerby, chance: Chance) -> list[Any]:
    _check_in_hand(state, seat, command.card)
    kind = DERBY_KIND[command.card]
    given = {name for name in ("dish", "to", "target", "yen") if getattr(command, name) is not None}
    if given != DERBY_PARAMS[kind]:
        expected = ", ".join(sorted(DERBY_PARAMS[kind])) or "no parameters"
        raise RuleViolation("invalid-command", f"{DERBY_KINDS[kind].slug} takes {expected}")
    events: list[Any] = [ActionTaken(seat=seat, action="play-derby", cost=1), DerbyPlayed(seat=seat, card=command.card)]
    if kind == DOUBLE_HELPING:
        assert command.dish is not None
        index = _table_index(state, command.dish)
        if state.supply[seat] < 2:
            raise RuleViolation("not-enough-markers", "double helping needs two of your markers")
        if room(state, index) < 2:
            raise RuleViolation("not-enough-room", f"dish card {command.dish} has no room for two portions")
        # The first portion leaves room for the second: only the second can fill the dish.
        events += [PortionEaten(seat=seat, dish=command.dish), PortionEaten(seat=seat, dish=command.dish)]
    elif kind == SEND_IT_BACK:
        assert command.dish is not None
        index = _table_index(state, command.dish)
        if state.markers_on[index]:
            raise RuleViolation("dish-has-markers", "only a dish with no markers can be sent back")
        cart = CARD_CART[command.dish]
        flipped = None if state.carts[cart] else command.dish
        events.append(DishSentBack(seat=seat, dish=command.dish, cart=cart, flipped=flipped))
    elif kind == SWITCH_PLATES:
        assert command.dish is not None and command.to is not None
        index = _table_index(state, command.dish)
        to = _table_index(state, command.to)
        if index == to:
            raise RuleViolation("same-dish", "move the marker to another dish")
        if seat not in state.markers_on[index]:
            raise RuleViolation("no-marker-on-dish", f"you have no marker on dish card {command.dish}")
        if room(state, to) <= 0:
            raise RuleViolation("dish-full", f"dish card {command.to} has no room")
        events.append(MarkerMoved(seat=seat, dish=command.dish, to=command.to))
    elif kind == PEEK:
        cart = front_cart(state, seat)
        if not state.carts[cart]:
            raise RuleViolation("cart-empty", "the cart in front of you is empty")
        events.append(KitchenPeeked(seat=seat, cart=cart, cards=state.carts[cart][:PEEK_DEPTH]))
    elif kind == EXTRA_HUNGRY:
        events.append(ExtraActions(seat=seat, count=EXTRA_HUNGRY_ACTIONS))
    elif kind == CHANGE_OF_HEART:
        assert command.yen is not None
        if not 0 <= command.yen < YEN_CARDS:
            raise RuleViolation("unknown-card", f"there is no yen card {command.yen}")
        if command.yen not in state.yen[seat]:
            raise RuleViolation("yen-not-yours", f"you do not hold yen card {command.yen}")
        cart = state.yen[seat].index(command.yen)
        if state.portions[seat][cart]:
            raise RuleViolation("yen-has-portions", "only a yen card with no portions can be swapped")
        if not state.yen_decks[cart]:
            raise RuleViolation("yen-deck-empty", "that yen deck is empty")
        events.append(YenSwapped(seat=seat, cart=cart, old=command.yen, new=state.yen_decks[cart][0]))
    elif kind == SHARP_ELBOWS:
        assert command.dish is not None and command.target is not None
        index = _table_index(state, command.dish)
        if not 0 <= command.target < state.players or command.target == seat:
            raise RuleViolation("invalid-target", "sharp elbows targets an opponent's seat")
        if command.target not in state.markers_on[index]:
            raise RuleViolation("no-marker-on-dish", f"seat {command.target} has no marker on that dish")
        events.append(MarkerKnockedOff(seat=seat, target=command.target, dish=command.dish))
    elif kind == LAZY_SUSAN:
        events += _rotate(state, seat, -1, chance)
    return events


def _arrange(state: DerbyState, seat: int, command: Arrange) -> list[Any]:
    if not state.peek:
        raise RuleViolation("nothing-to-arrange", "arrange follows Peek in the Kitchen")
    if len(command.cards) != len(state.peek) or sorted(command.cards) != sorted(state.peek):
        raise RuleViolation("invalid-arrangement", f"arrange exactly the peeked cards {list(state.peek)}")
    return [
        ActionTaken(seat=seat, action="arrange", cost=0),
        CartArranged(seat=seat, cart=front_cart(state, seat), cards=tuple(command.cards)),
    ]


def _full(state: DerbyState, actor: int) -> PlayerFull | None:
    """A player is full when they placed their last marker (checked first, for the acting seat) or
    have a scored portion on each of their yen cards (any seat, clockwise from the actor)."""
    if state.supply[actor] <= 0:
        return PlayerFull(seat=actor, reason="last-marker")
    for offset in range(state.players):
        seat = (actor + offset) % state.players
        if all(state.portions[seat]):
            return PlayerFull(seat=seat, reason="all-yen")
    return None


def follow(state: DerbyState, chance: Chance) -> tuple[Any, ...]:
    """After the acting seat's command (it holds the turn): a dish its portions filled is scored;
    a player full or the turn limit stops play, and then every partly eaten dish is scored as if
    complete, in table order; an acting seat with no action left passes the turn on."""
    if not state.dealt:
        return ()
    markers_on = state.markers_on
    if state.over:
        for index, markers in enumerate(markers_on):
            if markers:
                dish = state.table[index]
                return (DishScored(dish=dish, markers=markers, scorer=scorer_of(state, dish, markers), final=True),)
        return ()
    for index, dish in enumerate(state.table):
        markers = markers_on[index]
        if len(markers) >= CARD_PORTIONS[dish]:
            return (DishScored(dish=dish, markers=markers, scorer=scorer_of(state, dish, markers), final=False),)
    actor = state.turn_seat
    full = _full(state, actor)
    if full is not None:
        return (full,)
    if state.peek or state.actions_left > 0:
        return ()
    turn = state.turn + 1
    if turn > turn_limit(state.players):
        return (TurnLimitReached(turn=state.turn),)
    return (TurnPassed(seat=(actor + 1) % state.players, turn=turn),)
