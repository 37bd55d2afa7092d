"""Property tests over random games played through the lobby table (domain/lobby/)."""

from __future__ import annotations

import random
from itertools import product
from typing import Any, Union

import msgspec
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby.cards import turn_limit
from kaiten.domain.dim_sum_derby.commands import Arrange, Cycle, DiscardDerby, DrawDerby, Eat, PlayDerby, Rotate, Serve
from kaiten.domain.dim_sum_derby.events import (
    CartArranged,
    CartRefilled,
    DerbyDealt,
    DerbyDeckReshuffled,
    DerbyDrawn,
    KitchenPeeked,
    TurnLimitReached,
    YenSwapped,
)
from kaiten.domain.dim_sum_derby.state import DerbyState
from kaiten.domain.engine import RuleViolation
from tests.unit.dim_sum_derby.helpers import GAME, check_conservation, new_table, step

ENCODE = msgspec.json.encode
EVENT_UNION: Any = Union[(*lobby.LOBBY_EVENTS, *GAME.event_types)]
BOT_NAMES = st.sampled_from(["random", "random", "greedy"])


@st.composite
def games(draw: st.DrawFn) -> tuple[int, list[str], int]:
    players = draw(st.sampled_from([3, 4]))
    bots = draw(st.lists(BOT_NAMES, min_size=players, max_size=players))
    return draw(st.integers(0, 2**32)), bots, draw(st.integers(0, players - 1))


# --- oracles of hidden information ----------------------------------------------------------------


def scramble_state(state: DerbyState, viewer: int | None, rng: random.Random) -> DerbyState:
    """The same state with everything the viewer may not see shuffled around."""
    others = [s for s in range(state.players) if s != viewer]
    yen = [list(y) for y in state.yen]
    decks = []
    for cart in range(4):
        hidden = [s for s in others if not state.portions[s][cart] and not state.over]
        pool = [yen[s][cart] for s in hidden] + list(state.yen_decks[cart])
        rng.shuffle(pool)
        for s in hidden:
            yen[s][cart] = pool.pop()
        decks.append(tuple(pool))
    pool = [c for s in others for c in state.hands[s]] + list(state.derby_deck)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        hands[s] = tuple(pool.pop() for _ in state.hands[s])
    keep = len(state.peek) if state.peek and state.turn_seat == viewer else 1
    carts = []
    for cards in state.carts:
        rest = list(cards[keep:])
        rng.shuffle(rest)
        carts.append(cards[:keep] + tuple(rest))
    peek = state.peek
    if peek and state.turn_seat != viewer:
        cart = next(c for c in carts if c[:1] == peek[:1])
        peek = cart[: len(peek)]
    return replace(
        state,
        yen=tuple(tuple(y) for y in yen),
        yen_decks=tuple(decks),
        hands=tuple(hands),
        derby_deck=tuple(pool),
        carts=tuple(carts),
        peek=peek,
    )


def _mess(cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(c + 1000 for c in cards[::-1])


def scramble_event(event: Any, viewer: int | None) -> Any:
    """The event with every field the viewer may not see changed (the spec's list of hidden fields)."""
    kind = type(event)
    if kind is DerbyDealt:
        return replace(
            event,
            yen=tuple(y if s == viewer else _mess(y) for s, y in enumerate(event.yen)),
            yen_decks=tuple(_mess(d) for d in event.yen_decks),
            carts=tuple(c[:1] + _mess(c[1:]) for c in event.carts),
            derby_deck=_mess(event.derby_deck),
        )
    if kind in (CartRefilled, DerbyDeckReshuffled):
        return replace(event, cards=_mess(event.cards))
    if kind is DerbyDrawn and event.seat != viewer:
        return replace(event, card=event.card + 1000)
    if kind in (KitchenPeeked, CartArranged) and event.seat != viewer:
        return replace(event, cards=event.cards[:1] + _mess(event.cards[1:]))
    if kind is YenSwapped and event.seat != viewer:
        return replace(event, old=event.old + 1000, new=event.new + 1000)
    return event


def candidate_commands(state: DerbyState, seat: int) -> set[Any]:
    """A wide net of well-formed commands, legal or not, around the current state."""
    dishes = [*state.table, 0, 59]
    commands: set[Any] = {Rotate(), Serve(), Cycle(), DrawDerby(), *(Eat(dish=d) for d in dishes)}
    for card in [*state.hands[seat], 0, 15]:
        commands.add(DiscardDerby(card=card))
        for dish, to, target, yen in product(
            [None, *state.table, 0],
            [None, *state.table],
            [None, *range(state.players)],
            [None, *state.yen[seat], 19],
        ):
            if sum(x is not None for x in (dish, to, target, yen)) <= 2:
                commands.add(PlayDerby(card=card, dish=dish, to=to, target=target, yen=yen))
    if state.peek:
        commands |= {Arrange(cards=tuple(reversed(state.peek))), Arrange(cards=state.peek[:1])}
    return commands


def accepted(state: DerbyState, seat: int, commands: set[Any]) -> set[Any]:
    out = set()
    for command in commands:
        try:
            GAME.decide(state, seat, command, Chance(0, 0))
        except RuleViolation:
            continue
        out.add(command)
    return out


# --- properties -----------------------------------------------------------------------------------


@given(games())
def test_random_games_terminate_conserve_cards_and_markers_and_replay(game: tuple[int, list[str], int]) -> None:
    seed, bots, first = game
    table, events = new_table(seed, bots, {"first_player": first})
    rng = random.Random(seed)
    commands = 0
    check_conservation(table.state)
    while table.status == "active":
        table = step(table, events, seed, rng).table
        commands += 1
        check_conservation(table.state)
        assert table.state.turn <= turn_limit(len(bots))
        assert commands <= turn_limit(len(bots)) * 20
        if commands == 40:
            assert lobby.replay(GAME, events) == table
    assert lobby.replay(GAME, events) == table
    decoded = [msgspec.json.decode(ENCODE(event), type=EVENT_UNION) for event in events]
    assert decoded == events and lobby.replay(GAME, decoded) == table
    assert table.result is not None and table.state.over
    for score in table.result.scores:
        assert score.total == sum(score.breakdown.values())
    assert table.result.winners and sorted(table.result.ranking) == list(range(len(bots)))


@given(games(), st.integers(0, 2**16))
def test_views_and_redacted_events_hide_what_a_viewer_may_not_see(game: tuple[int, list[str], int], salt: int) -> None:
    seed, bots, first = game
    table, events = new_table(seed, bots, {"first_player": first})
    rng = random.Random(seed)
    scrambler = random.Random(salt)
    viewers: list[int | None] = [*range(len(bots)), None]
    checked = 0
    while table.status == "active":
        if checked % 3 == 0:
            state = table.state
            for viewer in viewers:
                view = GAME.view(state, viewer)
                twin = scramble_state(state, viewer, scrambler)
                check_conservation(twin)
                assert ENCODE(view) == ENCODE(GAME.view(twin, viewer))
                for seat in range(len(bots)):
                    if seat != viewer:
                        for cart, card in enumerate(view.seats[seat].yen):
                            assert card is None or state.portions[seat][cart] > 0
        checked += 1
        before = len(events)
        table = step(table, events, seed, rng).table
        for event in events[before:]:
            for viewer in viewers:
                seen = GAME.redact(event, viewer)
                assert ENCODE(seen) == ENCODE(GAME.redact(scramble_event(event, viewer), viewer))


@given(games(), st.integers(1, 60))
def test_decide_accepts_exactly_the_legal_commands(game: tuple[int, list[str], int], stop: int) -> None:
    seed, bots, first = game
    table, events = new_table(seed, bots, {"first_player": first})
    rng = random.Random(seed)
    # `stop` steps in, or the last turn before the end when the game ends sooner: every example checks one.
    assert table.status == "active"
    for _ in range(stop):
        following = step(table, events, seed, rng).table
        if following.status != "active":
            break
        table = following
    state = table.state
    seat = state.turn_seat
    legal = set(GAME.legal_commands(state, seat))
    assert len(legal) == len(GAME.legal_commands(state, seat))  # no duplicates
    assert accepted(state, seat, candidate_commands(state, seat) | legal) == legal
    for other in range(len(bots)):
        if other != seat:
            assert GAME.legal_commands(state, other) == []


def test_a_game_where_nobody_eats_ends_at_the_turn_limit() -> None:
    table, events = new_table(11, ["random"] * 3)
    acted = 0
    last: tuple[Any, ...] = ()
    while table.status == "active":
        seat = GAME.awaiting(table.state)[0]
        decision = lobby.act(GAME, table, seat, Rotate(), Chance(11, len(events) + acted))
        last, table = decision.events, decision.table
        acted += 1
    assert acted == turn_limit(3) * 3
    assert any(isinstance(e, TurnLimitReached) for e in last)
    assert table.result is not None and [s.total for s in table.result.scores] == [-4, -4, -4]
    assert table.result.winners == (0, 1, 2)
