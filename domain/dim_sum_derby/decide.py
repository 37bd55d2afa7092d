"""Validate a seat's command and turn it into events (chance outcomes included)."""

from __future__ import annotations

from typing import Any

from domain.chance import Chance
from domain.dim_sum_derby.cards import (
    CARD_CART,
    CARD_PORTIONS,
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
    leaving_kitchen,
    slot_of,
    turn_limit,
)
from domain.dim_sum_derby.commands import (
    Arrange,
    Cycle,
    DiscardDerby,
    DrawDerby,
    Eat,
    PlayDerby,
    Rotate,
    Serve,
)
from domain.dim_sum_derby.events import (
    ActionTaken,
    CartArranged,
    CartRefilled,
    CartsRotated,
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
from domain.dim_sum_derby.evolve import evolve
from domain.dim_sum_derby.scoring import scorer_of
from domain.dim_sum_derby.state import DerbyState
from domain.engine import NotNow, RuleViolation

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


class _Out:
    """Events being decided, with the state they lead to (so later checks see earlier effects)."""

    __slots__ = ("events", "state")

    def __init__(self, state: DerbyState) -> None:
        self.events: list[Any] = []
        self.state = state

    def emit(self, event: Any) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


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


def decide(state: DerbyState, seat: int, command: Any, chance: Chance) -> list[Any]:
    if not state.dealt:
        raise NotNow("game-not-started", "the game has not been dealt yet")
    if state.over:
        raise NotNow("game-finished", "the game is over")
    if seat != state.turn_seat:
        raise NotNow("not-your-turn", f"it is seat {state.turn_seat}'s turn")
    kind = type(command)
    if state.peek and kind is not Arrange:
        raise RuleViolation("arrange-pending", "put the peeked cards back first (arrange)")
    out = _Out(state)
    if kind is Rotate:
        out.emit(ActionTaken(seat=seat, action="rotate", cost=1))
        _rotate(out, seat, 1, chance)
    elif kind is Eat:
        _eat(out, seat, command)
    elif kind is Serve:
        _serve(out, seat)
    elif kind is Cycle:
        _cycle(out, seat)
    elif kind is DrawDerby:
        _draw(out, seat, chance)
    elif kind is PlayDerby:
        _play(out, seat, command, chance)
    elif kind is DiscardDerby:
        _check_in_hand(state, seat, command.card)
        out.emit(ActionTaken(seat=seat, action="discard-derby", cost=0))
        out.emit(DerbyDiscarded(seat=seat, card=command.card))
    elif kind is Arrange:
        _arrange(out, seat, command)
    else:
        raise RuleViolation("invalid-command", f"not a Dim Sum Derby command: {command!r}")
    _after(out, seat)
    return out.events


def _rotate(out: _Out, seat: int, steps: int, chance: Chance) -> None:
    state = out.state
    cart = leaving_kitchen(state.slots, steps, state.players, state.kitchen_left)
    out.emit(CartsRotated(seat=seat, steps=steps))
    discards = state.dish_discards[cart]
    if discards:
        cards = tuple(chance.shuffled(discards))
        flipped = None if state.carts[cart] else cards[0]
        out.emit(CartRefilled(cart=cart, cards=cards, flipped=flipped))


def _serve(out: _Out, seat: int) -> None:
    state = out.state
    cart = front_cart(state, seat)
    cards = state.carts[cart]
    if not cards:
        raise RuleViolation("cart-empty", "the cart in front of you is empty")
    if len(state.table) >= TABLE_LIMIT:
        raise RuleViolation("table-full", f"the table already holds {TABLE_LIMIT} dishes")
    out.emit(ActionTaken(seat=seat, action="serve", cost=1))
    out.emit(DishServed(seat=seat, cart=cart, dish=cards[0], flipped=cards[1] if len(cards) > 1 else None))


def _cycle(out: _Out, seat: int) -> None:
    state = out.state
    cart = front_cart(state, seat)
    cards = state.carts[cart]
    if not cards:
        raise RuleViolation("cart-empty", "the cart in front of you is empty")
    out.emit(ActionTaken(seat=seat, action="cycle", cost=1))
    out.emit(DishCycled(seat=seat, cart=cart, dish=cards[0], flipped=cards[1] if len(cards) > 1 else cards[0]))


def _eat(out: _Out, seat: int, command: Eat) -> None:
    state = out.state
    index = _table_index(state, command.dish)
    if state.supply[seat] <= 0:
        raise RuleViolation("no-markers-left", "you have no portion markers left")
    if room(state, index) <= 0:
        raise RuleViolation("dish-full", f"dish card {command.dish} has no room for another portion")
    out.emit(ActionTaken(seat=seat, action="eat", cost=1))
    _place(out, seat, command.dish)


def _place(out: _Out, seat: int, dish: int) -> None:
    out.emit(PortionEaten(seat=seat, dish=dish))
    _score_if_full(out, dish)


def _score_if_full(out: _Out, dish: int) -> None:
    state = out.state
    index = state.table.index(dish)
    if room(state, index) <= 0:
        markers = state.markers_on[index]
        out.emit(DishScored(dish=dish, markers=markers, scorer=scorer_of(state, dish, markers), final=False))


def _draw(out: _Out, seat: int, chance: Chance) -> None:
    state = out.state
    if len(state.hands[seat]) >= DERBY_HAND_LIMIT:
        raise RuleViolation("derby-hand-full", f"you already hold {DERBY_HAND_LIMIT} Derby cards")
    if state.actions_left < DRAW_DERBY_COST:
        raise RuleViolation("not-enough-actions", f"drawing a Derby card takes {DRAW_DERBY_COST} actions")
    if not state.derby_deck and not state.derby_discard:
        raise RuleViolation("derby-deck-empty", "no Derby card is left to draw")
    out.emit(ActionTaken(seat=seat, action="draw-derby", cost=DRAW_DERBY_COST))
    if not state.derby_deck:
        out.emit(DerbyDeckReshuffled(cards=tuple(chance.shuffled(state.derby_discard))))
    out.emit(DerbyDrawn(seat=seat, card=out.state.derby_deck[0]))


def _check_in_hand(state: DerbyState, seat: int, card: int) -> None:
    if not 0 <= card < DERBY_CARDS:
        raise RuleViolation("unknown-card", f"there is no Derby card {card}")
    if card not in state.hands[seat]:
        raise RuleViolation("card-not-in-hand", f"you do not hold Derby card {card}")


def _play(out: _Out, seat: int, command: PlayDerby, chance: Chance) -> None:
    state = out.state
    _check_in_hand(state, seat, command.card)
    kind = DERBY_KIND[command.card]
    given = {name for name in ("dish", "to", "target", "yen") if getattr(command, name) is not None}
    if given != DERBY_PARAMS[kind]:
        expected = ", ".join(sorted(DERBY_PARAMS[kind])) or "no parameters"
        raise RuleViolation("invalid-command", f"{DERBY_KINDS[kind].slug} takes {expected}")
    effects: list[Any] = []
    if kind == DOUBLE_HELPING:
        assert command.dish is not None
        index = _table_index(state, command.dish)
        if state.supply[seat] < 2:
            raise RuleViolation("not-enough-markers", "double helping needs two of your markers")
        if room(state, index) < 2:
            raise RuleViolation("not-enough-room", f"dish card {command.dish} has no room for two portions")
    elif kind == SEND_IT_BACK:
        assert command.dish is not None
        index = _table_index(state, command.dish)
        if state.markers_on[index]:
            raise RuleViolation("dish-has-markers", "only a dish with no markers can be sent back")
        cart = CARD_CART[command.dish]
        flipped = None if state.carts[cart] else command.dish
        effects.append(DishSentBack(seat=seat, dish=command.dish, cart=cart, flipped=flipped))
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
        effects.append(MarkerMoved(seat=seat, dish=command.dish, to=command.to))
    elif kind == PEEK:
        cart = front_cart(state, seat)
        if not state.carts[cart]:
            raise RuleViolation("cart-empty", "the cart in front of you is empty")
        effects.append(KitchenPeeked(seat=seat, cart=cart, cards=state.carts[cart][:PEEK_DEPTH]))
    elif kind == EXTRA_HUNGRY:
        effects.append(ExtraActions(seat=seat, count=EXTRA_HUNGRY_ACTIONS))
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
        effects.append(YenSwapped(seat=seat, cart=cart, old=command.yen, new=state.yen_decks[cart][0]))
    elif kind == SHARP_ELBOWS:
        assert command.dish is not None and command.target is not None
        index = _table_index(state, command.dish)
        if not 0 <= command.target < state.players or command.target == seat:
            raise RuleViolation("invalid-target", "sharp elbows targets an opponent's seat")
        if command.target not in state.markers_on[index]:
            raise RuleViolation("no-marker-on-dish", f"seat {command.target} has no marker on that dish")
        effects.append(MarkerKnockedOff(seat=seat, target=command.target, dish=command.dish))
    out.emit(ActionTaken(seat=seat, action="play-derby", cost=1))
    out.emit(DerbyPlayed(seat=seat, card=command.card))
    for event in effects:
        out.emit(event)
    if kind == LAZY_SUSAN:
        _rotate(out, seat, -1, chance)
    elif kind == DOUBLE_HELPING:
        assert command.dish is not None
        _place(out, seat, command.dish)
        _place(out, seat, command.dish)
    elif kind == SWITCH_PLATES:
        assert command.to is not None
        _score_if_full(out, command.to)


def _arrange(out: _Out, seat: int, command: Arrange) -> None:
    state = out.state
    if not state.peek:
        raise RuleViolation("nothing-to-arrange", "arrange follows Peek in the Kitchen")
    if len(command.cards) != len(state.peek) or sorted(command.cards) != sorted(state.peek):
        raise RuleViolation("invalid-arrangement", f"arrange exactly the peeked cards {list(state.peek)}")
    out.emit(ActionTaken(seat=seat, action="arrange", cost=0))
    out.emit(CartArranged(seat=seat, cart=front_cart(state, seat), cards=tuple(command.cards)))


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


def _end(out: _Out) -> None:
    """Play stops: every partly eaten dish on the table is scored as if complete, in table order."""
    while True:
        state = out.state
        index = next((i for i, markers in enumerate(state.markers_on) if markers), None)
        if index is None:
            return
        dish = state.table[index]
        markers = state.markers_on[index]
        out.emit(DishScored(dish=dish, markers=markers, scorer=scorer_of(state, dish, markers), final=True))


def _after(out: _Out, seat: int) -> None:
    state = out.state
    full = _full(state, seat)
    if full is not None:
        out.emit(full)
        _end(out)
        return
    if state.peek or state.actions_left > 0:
        return
    turn = state.turn + 1
    if turn > turn_limit(state.players):
        out.emit(TurnLimitReached(turn=state.turn))
        _end(out)
        return
    out.emit(TurnPassed(seat=(seat + 1) % state.players, turn=turn))
