"""Views and redaction: a seat sees its own hand and pick, nobody sees another seat's hidden cards,
and a different hidden choice looks identical to everyone else until the reveal (non-interference)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from kaiten.domain import lobby
from kaiten.domain.sushi_go.events import CardPicked, CardsRevealed, HandsDealt
from kaiten.domain.sushi_go.game import SUSHI_GO as GAME
from kaiten.domain.sushi_go.state import SushiGoState
from tests.unit.sushi_go.helpers import act, new_table, random_game

encode = msgspec.json.encode

#: JSON keys whose numbers are card ids, in views and events.
CARD_KEYS = {
    "hand",
    "pick",
    "tableaus",
    "puddings",
    "hands",
    "cards",
    "picks",
    "chopsticks",
    "known_hands",
    "discard_pile",
}


def card_ids_in(value: Any, under_card_key: bool = False) -> set[int]:
    """Every card id in a JSON-able value (numbers found under CARD_KEYS)."""
    found: set[int] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found |= card_ids_in(item, key in CARD_KEYS)
    elif isinstance(value, list):
        for item in value:
            found |= card_ids_in(item, under_card_key)
    elif isinstance(value, int) and not isinstance(value, bool) and under_card_key:
        found.add(value)
    return found


def json_ids(value: Any) -> set[int]:
    return card_ids_in(msgspec.json.decode(encode(value)))


def visible(state: SushiGoState, seat: int | None) -> set[int]:
    """The cards a viewer may know about: its own hand and pick, and everything face up."""
    cards = set(state.discards)
    for group in (*state.tableaus, *state.puddings):
        cards.update(group)
    if seat is not None:
        cards.update(state.hands[seat])
    return cards


def test_view_of_a_seat_and_of_a_spectator() -> None:
    table, log = new_table(3, seed=11)
    state = table.state
    view = GAME.view(state, 1)
    assert view.seat == 1 and view.hand == state.hands[1] and view.pick == ()
    assert view.hand_size == 9 and view.deck_size == 108 - 27 and view.awaiting == (0, 1, 2)
    assert view.round == 1 and view.turn == 1 and view.totals == (0, 0, 0)
    card = state.hands[1][0]
    table = act(table, log, 1, GAME.legal_commands(state, 1)[0])
    assert GAME.view(table.state, 1).pick == (card,)
    assert GAME.view(table.state, 0).pick == () and GAME.view(table.state, 0).awaiting == (0, 2)
    spectator = GAME.view(table.state, None)
    assert spectator.hand == () and spectator.pick == () and spectator.seat is None
    assert json_ids(spectator) == set()
    # A spectator's view is what it always was: a seat's memory is left out.
    assert b"known_hands" not in encode(spectator) and b"discard_pile" not in encode(spectator)
    assert GAME.view(table.state, 1).known_hands == (None, state.hands[1], None)


def test_redaction_of_dealt_hands_and_picks() -> None:
    table, log = new_table(3, seed=12)
    dealt = next(event for event in log if isinstance(event, HandsDealt))
    mine = GAME.redact(dealt, 2)
    assert mine.hands[2] == dealt.hands[2] and mine.hands[0] is None and mine.hands[1] is None
    assert mine.hand_size == 9
    assert all(hand is None for hand in GAME.redact(dealt, None).hands)
    picked = CardPicked(seat=0, cards=(5,))
    assert GAME.redact(picked, 0) == picked
    assert GAME.redact(picked, 1) == CardPicked(seat=0, cards=None)
    assert GAME.redact(picked, None) == CardPicked(seat=0, cards=None)
    revealed = CardsRevealed(round=1, turn=1, picks=((1,), (2,)), chopsticks=(None, None))
    assert GAME.redact(revealed, 1) == revealed
    # Once the game is over, the table shows the whole log.
    finished = msgspec.structs.replace(table, status="finished")
    assert lobby.redact(GAME, finished, dealt, 1) == dealt


@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_views_and_redacted_events_never_show_hidden_cards(seed: int, players: int) -> None:
    # Per seat, every card it has held this round: the hands it knows hold only such cards.
    held: list[set[int]] = [set() for _ in range(players)]
    for before, after, _seat, _command, events, _log in random_game(players, seed):
        if after.state.round != before.state.round:
            held = [set() for _ in range(players)]
        for viewer in range(players):
            held[viewer] |= set(after.state.hands[viewer]) | {card for t in after.state.tableaus for card in t}
        for viewer in (*range(players), None):
            seen = visible(before.state, viewer) | visible(after.state, viewer)
            for event in events:
                redacted = lobby.redact(GAME, before, event, viewer)
                if redacted is not None and after.status != "finished":
                    assert json_ids(redacted) <= seen, (viewer, redacted)
            if after.status != "finished":
                passed = held[viewer] if viewer is not None else set()
                assert json_ids(GAME.view(after.state, viewer)) <= visible(after.state, viewer) | passed


def choice_of(seed: int, step: int, commands: list[Any]) -> Any:
    """The command both tables play at this step (unless the deviant deviates)."""
    return random.Random(f"{seed}:{step}").choice(commands)


def picks_with_a_choice(players: int, seed: int, deviant: int) -> list[int]:
    """The deviant's picks (numbered from 1) that have another legal command than the one played, in the
    game both tables play until they differ."""
    table, log = new_table(players, seed)
    picks, choices, step = 0, [], 0
    while table.status == "active":
        seat = lobby.awaiting(GAME, table)[0]
        commands = GAME.legal_commands(table.state, seat)
        command = choice_of(seed, step, commands)
        step += 1
        if seat == deviant:
            picks += 1
            if any(other != command for other in commands):
                choices.append(picks)
        table = act(table, log, seat, command)
    return choices


def lockstep(players: int, seed: int, deviant: int, at_pick: int, alternative: int) -> None:
    """Play two games that differ only in one hidden pick of `deviant` (its `at_pick`-th pick that has an
    alternative, counted modulo those), and compare what every other viewer sees, event by event and view
    by view, until that pick is revealed."""
    choices = picks_with_a_choice(players, seed, deviant)
    assert choices, "the deviant never had a choice"
    deviating_pick = choices[(at_pick - 1) % len(choices)]
    (a, log_a), (b, log_b) = new_table(players, seed), new_table(players, seed)
    picks_made = 0
    deviated = revealed = False
    compared = 0
    step = 0
    while a.status == "active" and not revealed:
        seat = lobby.awaiting(GAME, a)[0]
        assert seat == lobby.awaiting(GAME, b)[0]
        commands_a = GAME.legal_commands(a.state, seat)
        command_a = command_b = choice_of(seed, step, commands_a)
        step += 1
        if seat == deviant:
            picks_made += 1
            if picks_made == deviating_pick:
                others = [c for c in GAME.legal_commands(b.state, seat) if c != command_a]
                command_b = others[alternative % len(others)]
                deviated = True
        else:
            assert encode(commands_a) == encode(GAME.legal_commands(b.state, seat))
        before_a, before_b = a, b
        new_a, new_b = len(log_a), len(log_b)
        a, b = act(a, log_a, seat, command_a), act(b, log_b, seat, command_b)
        if not deviated:
            assert log_a == log_b
            continue
        assert log_a[new_a:] != log_b[new_b:] or compared, "the deviant's pick made no different event"
        for event_a, event_b in zip(log_a[new_a:], log_b[new_b:], strict=True):
            if isinstance(event_a, CardsRevealed):
                revealed = True
                break
            for viewer in (*range(players), None):
                if viewer == deviant:
                    continue
                seen_a = lobby.redact(GAME, before_a, event_a, viewer)
                seen_b = lobby.redact(GAME, before_b, event_b, viewer)
                assert encode(seen_a) == encode(seen_b)
                compared += 1
        if revealed:
            break
        for viewer in (*range(players), None):
            if viewer != deviant:
                assert encode(GAME.view(a.state, viewer)) == encode(GAME.view(b.state, viewer))
                assert lobby.awaiting(GAME, a) == lobby.awaiting(GAME, b)
                compared += 1
    assert deviated, f"pick {deviating_pick} of seat {deviant} was never reached"
    assert revealed, "the different pick was never revealed"
    assert compared, "nothing was compared between the deviation and the reveal"


@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    deviant=st.integers(0, 4),
    at_pick=st.integers(1, 24),
    alternative=st.integers(0, 100),
)
def test_non_interference_a_different_hidden_pick_looks_the_same_to_everyone_else(
    seed: int, players: int, deviant: int, at_pick: int, alternative: int
) -> None:
    lockstep(players, seed, deviant % players, at_pick, alternative)


def test_non_interference_when_the_deviant_picks_first_and_last() -> None:
    for seed in range(4):
        for deviant in (0, 3):
            lockstep(4, seed, deviant, at_pick=1 + seed, alternative=seed)
