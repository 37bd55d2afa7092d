"""Properties over random menus, variants and 2-8 players: termination, card conservation, replay,
totals, views and redacted events that leak nothing, non-interference."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import assume, given
from hypothesis import strategies as st

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.engine import RuleViolation
from kaiten.domain.sushi_go_party.cards import APPETIZERS, DESSERTS, ROLLS, SPECIALS
from kaiten.domain.sushi_go_party.events import CardChosen, CardsDrawn, MenuDrawn, RoundDealt
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY as GAME
from kaiten.domain.sushi_go_party.options import CustomMenu, check_custom, suggested_for
from kaiten.domain.sushi_go_party.state import PartyState

from .helpers import check_conservation, new_table, step

encode = msgspec.json.encode


@st.composite
def games(draw: st.DrawFn) -> tuple[int, dict[str, Any], list[str], int]:
    players = draw(st.integers(2, 8))
    kind = draw(st.sampled_from(["random", "suggested", "custom", "first-player", "build", "vote"]))
    menu: Any = kind
    if kind == "suggested":
        menu = draw(st.sampled_from([suggested.id for suggested in suggested_for(players)]))
    elif kind == "custom":
        menu = {
            "roll": draw(st.sampled_from(ROLLS)),
            "appetizers": draw(st.lists(st.sampled_from(APPETIZERS), min_size=3, max_size=3, unique=True)),
            "specials": draw(st.lists(st.sampled_from(SPECIALS), min_size=2, max_size=2, unique=True)),
            "dessert": draw(st.sampled_from(DESSERTS)),
        }
        try:
            check_custom(msgspec.convert(menu, CustomMenu), players)
        except RuleViolation:
            assume(False)
    options: dict[str, Any] = {"menu": menu, "pass_both_ways": draw(st.booleans())}
    if players == 2:
        options["two_player_variant"] = draw(st.booleans())
    bots = draw(st.lists(st.sampled_from(["random", "greedy"]), min_size=players, max_size=players))
    return players, options, bots, draw(st.integers(0, 2**32))


def scrambled(state: PartyState, seat: int | None) -> PartyState:
    """The same state with everything `seat` may not see replaced by other values: every hand but those
    that passed through its own this round (`check_known_hands` checks that it saw them)."""
    hidden = iter(range(10_000, 20_000))
    prompt = state.prompt
    if prompt is not None and prompt.seat != seat:
        prompt = msgspec.structs.replace(prompt, options=tuple(next(hidden) for _ in prompt.options))
    known = GAME.view(state, seat).known_hands or (None,) * state.players
    return msgspec.structs.replace(
        state,
        hands=tuple(
            hand if known[index] is not None else tuple(next(hidden) for _ in hand)
            for index, hand in enumerate(state.hands)
        ),
        picks=tuple(pick if index == seat or pick < 0 else next(hidden) for index, pick in enumerate(state.picks)),
        calls=tuple(call if index == seat or call < 0 else next(hidden) for index, call in enumerate(state.calls)),
        deck=tuple(next(hidden) for _ in state.deck),
        dessert_pile=tuple(next(hidden) for _ in state.dessert_pile),
        drawn=tuple(next(hidden) for _ in state.drawn),
        prompt=prompt,
    )


def check_known_hands(state: PartyState, held: list[set[int]]) -> None:
    """A seat knows another's hand only if it has held or seen face up every card of it this round;
    `held` gathers, per seat, the cards of its hands and of every tableau so far this round."""
    for viewer in range(state.players):
        held[viewer] |= set(state.hands[viewer])
        held[viewer] |= {entry[0] for tableau in state.tableaus for entry in tableau}
        view = GAME.view(state, viewer)
        assert view.known_hands[viewer] == state.hands[viewer] or state.phase == "select"
        for other, hand in enumerate(view.known_hands):
            if hand is not None:
                assert hand == state.hands[other] and set(hand) <= held[viewer]


def check_redacted(event: Any, viewer: int | None) -> None:
    seen: Any = GAME.redact(event, viewer)
    kind = type(event)
    if kind is CardChosen and event.seat != viewer:
        assert seen.card is None and seen.call is None
    elif kind is RoundDealt:
        assert seen.desserts is None
        assert all(hand is None for index, hand in enumerate(seen.hands) if index != viewer)
    elif kind is CardsDrawn:
        assert all(card is None for index, card in enumerate(seen.cards) if index != viewer)
    elif kind is MenuDrawn and event.seat != viewer:
        assert seen.cards is None
    encode(seen)


@given(games())
def test_random_games_end_conserve_cards_replay_and_leak_nothing(
    case: tuple[int, dict[str, Any], list[str], int],
) -> None:
    players, options, bots, seed = case
    table, events = new_table(seed, bots, options)
    rng = random.Random(seed)
    viewers = (*range(players), None)
    held: list[set[int]] = [set() for _ in range(players)]
    for _ in range(3000):
        if table.status != "active":
            break
        state: PartyState = table.state
        check_conservation(state)
        if state.turn == 1:
            held = [set() for _ in range(players)]
        check_known_hands(state, held)
        for other in range(players):
            if other not in state.awaiting:
                assert GAME.legal_commands(state, other) == []
        for viewer in viewers:
            assert encode(GAME.view(state, viewer)) == encode(GAME.view(scrambled(state, viewer), viewer))
        before = len(events)
        table = step(table, events, seed, rng).table
        for event in events[before:]:
            for viewer in viewers:
                check_redacted(event, viewer)
    assert table.status == "finished"
    state = table.state
    assert state.phase == "over" and all(not hand for hand in state.hands)
    check_conservation(state)
    assert lobby.replay(GAME, events) == table
    result = table.result
    assert result is not None
    for score in result.scores:
        assert score.total == sum(score.breakdown.values()) == state.totals[score.seat]


@given(games(), st.integers(0, 40), st.integers(0, 1_000))
def test_non_interference(case: tuple[int, dict[str, Any], list[str], int], skip: int, choice: int) -> None:
    """Two games where one seat picks differently look identical to every other seat until the reveal."""
    players, options, bots, seed = case
    table, events = new_table(seed, bots, options)
    rng = random.Random(seed)
    # Play on to a turn where at least two seats still have to pick.
    seen = 0
    while table.status == "active":
        state: PartyState = table.state
        if state.phase == "pick" and len(state.awaiting) >= 2:
            if seen >= skip:
                break
            seen += 1
        table = step(table, events, seed, rng).table
    assume(table.status == "active")
    state = table.state
    seat = state.awaiting[0]
    legal = GAME.legal_commands(state, seat)
    assume(len(legal) >= 2)
    first = legal[choice % len(legal)]
    second = legal[(choice + 1 + choice // len(legal)) % len(legal)]
    assume(first != second)
    version = len(events)
    a = lobby.act(GAME, table, seat, first, Chance(seed, version))
    b = lobby.act(GAME, table, seat, second, Chance(seed, version))
    others = [other for other in (*range(players), None) if other != seat]
    tables = [a.table, b.table]
    logs = [list(a.events), list(b.events)]
    # The other seats pick the same cards, all but the last (whose pick reveals).
    for other in state.awaiting[1:-1]:
        for viewer in others:
            views = [encode(GAME.view(live.state, viewer)) for live in tables]
            assert views[0] == views[1]
            redacted = [
                [encode(lobby.redact(GAME, live, event, viewer)) for event in log]
                for live, log in zip(tables, logs, strict=True)
            ]
            assert redacted[0] == redacted[1]
        command = GAME.legal_commands(tables[0].state, other)[0]
        decisions = [lobby.act(GAME, live, other, command, Chance(seed, version + 1)) for live in tables]
        tables = [decision.table for decision in decisions]
        logs = [log + list(decision.events) for log, decision in zip(logs, decisions, strict=True)]
    for viewer in others:
        assert encode(GAME.view(tables[0].state, viewer)) == encode(GAME.view(tables[1].state, viewer))
        for event_a, event_b in zip(logs[0], logs[1], strict=True):
            assert encode(lobby.redact(GAME, tables[0], event_a, viewer)) == encode(
                lobby.redact(GAME, tables[1], event_b, viewer)
            )


def random_options(rng: random.Random, players: int) -> dict[str, Any]:
    """Any menu option the rules allow for this player count, and the variants."""
    kind = rng.choice(["random", "suggested", "custom", "custom", "first-player", "build", "vote"])
    menu: Any = kind
    if kind == "suggested":
        menu = rng.choice(suggested_for(players)).id
    elif kind == "custom":
        while True:
            menu = {
                "roll": rng.choice(ROLLS),
                "appetizers": rng.sample(APPETIZERS, 3),
                "specials": rng.sample(SPECIALS, 2),
                "dessert": rng.choice(DESSERTS),
            }
            try:
                check_custom(msgspec.convert(menu, CustomMenu), players)
                break
            except RuleViolation:
                continue
    return {
        "menu": menu,
        "pass_both_ways": rng.random() < 0.5,
        "two_player_variant": players == 2 and rng.random() < 0.5,
    }


def test_a_sweep_of_games_over_every_player_count() -> None:
    """Deterministic companion of the property test: 10 games per player count, every step checked."""
    for players in range(2, 9):
        for seed in range(10):
            rng = random.Random(seed * 10 + players)
            bots = [rng.choice(["random", "greedy"]) for _ in range(players)]
            table, events = new_table(seed, bots, random_options(rng, players))
            while table.status == "active":
                table = step(table, events, seed, rng).table
                check_conservation(table.state)
            assert lobby.replay(GAME, events) == table
            assert table.result is not None
            assert all(score.total == sum(score.breakdown.values()) for score in table.result.scores)
