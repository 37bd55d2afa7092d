"""Turn clocks with a clock moved by hand: deadlines, banks, timeouts fired once, moves in time."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kaiten.api.contract.presenting import created_game, table_view
from kaiten.api.settings import SettingsError, parse_duration
from kaiten.domain.clock import ClockOptions
from kaiten.domain.engine import RuleViolation
from kaiten.services.clocks import SeatClock, deadline, start_clocks, tick
from kaiten.services.commands import GetTable, ListEvents, ListLegalCommands
from tests.unit.seats.fixtures import PEOPLE, START, server

CLOCK = {"turn_seconds": 60, "bank_seconds": 30}


def test_a_turn_overrun_is_paid_from_the_bank() -> None:
    options = ClockOptions(turn_seconds=60, bank_seconds=30)
    clocks = tick(options, start_clocks(options, 2), {0, 1}, START)
    assert deadline(options, clocks[0]) == START + timedelta(seconds=90)
    clocks = tick(options, clocks, {1}, START + timedelta(seconds=70))
    assert clocks[0] == SeatClock(bank=timedelta(seconds=20))
    assert deadline(options, clocks[0]) is None
    clocks = tick(options, clocks, {1}, START + timedelta(seconds=80))
    assert clocks[1].since == START, "a seat still awaited keeps its turn's start"


@given(
    turn=st.integers(1, 100),
    bank=st.integers(0, 100),
    steps=st.lists(st.tuples(st.integers(0, 300), st.frozensets(st.integers(0, 2))), max_size=20),
)
def test_banks_only_shrink_and_never_below_zero(turn: int, bank: int, steps: list[tuple[int, frozenset[int]]]) -> None:
    options = ClockOptions(turn_seconds=turn, bank_seconds=bank)
    clocks = start_clocks(options, 3)
    at = START
    for seconds, awaiting in steps:
        at += timedelta(seconds=seconds)
        after = tick(options, clocks, awaiting, at)
        for before, now in zip(clocks, after, strict=True):
            assert timedelta(0) <= now.bank <= before.bank
        clocks = after
        for seat in awaiting:
            since = clocks[seat].since
            assert since is not None and since <= at
            assert deadline(options, clocks[seat]) == since + timedelta(seconds=turn) + clocks[seat].bank


async def test_the_table_shows_when_each_awaited_seat_runs_out() -> None:
    s = server()
    game = await s.create(CLOCK, PEOPLE)
    assert game.deadlines == {0: START + timedelta(seconds=90), 1: START + timedelta(seconds=90)}
    shown = created_game(game)
    assert shown.awaiting_until == {"0": START + timedelta(seconds=90), "1": START + timedelta(seconds=90)}
    assert shown.options.clock == ClockOptions(turn_seconds=60, bank_seconds=30)
    s.clock.advance(10)
    await s.move(game.id, game.tokens["0"])
    view = await s.games.view(GetTable(game.id))
    assert table_view(view).awaiting_until == {"1": START + timedelta(seconds=90)}


async def test_a_game_without_a_clock_shows_no_deadlines_and_is_never_woken() -> None:
    s = server()
    game = await s.create(None, PEOPLE)
    assert game.deadlines is None and b"awaiting_until" not in msgspec.json.encode(created_game(game))
    s.clock.advance(10**6)
    assert await s.scheduler.run_once() == 0


async def test_a_deadline_fires_once_with_the_greedy_bots_move_and_the_time_it_fired() -> None:
    s = server()
    game = await s.create(CLOCK, PEOPLE)
    s.clock.advance(89)
    assert await s.scheduler.run_once() == 0
    s.clock.advance(2)
    assert await s.scheduler.run_once() == 1
    fired = await s.store.read(game.id, game.version)
    timed_out = [event for event in fired if event.type == "TurnTimedOut"]
    assert [event.metadata["seat"] for event in timed_out] == [0, 1]
    assert all(b'"at":"2026-01-01T12:01:31Z"' in event.data for event in timed_out)
    view = await s.games.view(GetTable(game.id))
    # Both picked (the round moved on), and with their banks spent each has just its turn now.
    assert view.version > game.version + 2
    assert view.deadlines == {0: s.clock.at + timedelta(seconds=60), 1: s.clock.at + timedelta(seconds=60)}
    assert await s.scheduler.run_once() == 0
    assert len([t for t in await s.types(game.id) if t == "TurnTimedOut"]) == 2


async def test_a_person_who_moves_in_time_is_not_timed_out() -> None:
    s = server()
    game = await s.create(CLOCK, PEOPLE)
    s.clock.advance(85)
    await s.move(game.id, game.tokens["0"])
    s.clock.advance(10)
    await s.scheduler.run_once()
    timed_out = [event for event in await s.store.read(game.id) if event.type == "TurnTimedOut"]
    assert [event.metadata["seat"] for event in timed_out] == [1]


async def test_skip_makes_the_games_default_move() -> None:
    s = server()
    game = await s.create({"turn_seconds": 5, "on_timeout": "skip"}, PEOPLE)
    legal = await s.games.legal_commands(ListLegalCommands(game.id, game.tokens["0"]))
    s.clock.advance(6)
    await s.scheduler.run_once()
    fired = await s.games.events(ListEvents(game.id, after=game.version, limit=10, caller=game.tokens["0"]))
    assert fired.events[0].stored.type == "TurnTimedOut"
    picked = fired.events[1].event
    assert list(picked.cards) == list(legal.commands[0].cards)


async def test_two_processes_waking_one_game_at_once_fire_its_deadline_once() -> None:
    s = server()
    game = await s.create(CLOCK, PEOPLE)
    s.clock.advance(100)
    woken = await asyncio.gather(s.games.wake(game.id), s.games.wake(game.id))
    assert sorted(w.fired for w in woken) == [False, True]
    assert (await s.types(game.id)).count("TurnTimedOut") == 2


async def test_a_claim_whose_process_died_is_claimed_again_after_its_lease() -> None:
    s = server()
    game = await s.create(CLOCK, PEOPLE)
    s.clock.advance(100)
    assert await s.scheduler.deadlines.claim(s.clock.now(), timedelta(seconds=30), 10) == [game.id]
    assert await s.scheduler.run_once() == 0
    s.clock.advance(31)
    assert await s.scheduler.run_once() == 1
    assert (await s.types(game.id)).count("TurnTimedOut") == 2


async def test_bots_are_never_timed() -> None:
    s = server()
    game = await s.create(CLOCK, [PEOPLE[0], PEOPLE[1].__class__(bot="greedy")])
    assert game.deadlines == {0: START + timedelta(seconds=90)}


@pytest.mark.parametrize(
    "clock", [{"turn_seconds": 0}, {"turn_seconds": 10, "on_timeout": "wait"}, {"turn_seconds": 10, "extra": 1}, 7]
)
async def test_a_bad_clock_is_refused(clock: object) -> None:
    s = server()
    with pytest.raises(RuleViolation) as refused:
        await s.create(clock, PEOPLE)  # type: ignore[arg-type]
    assert refused.value.code == "invalid-options"


@pytest.mark.parametrize(("text", "seconds"), [("90", 90), ("90s", 90), ("15m", 900), ("12h", 43200), ("1.5d", 129600)])
def test_durations_of_the_settings_read_with_their_unit(text: str, seconds: float) -> None:
    assert parse_duration("KAITEN_ABANDON_AFTER", text) == timedelta(seconds=seconds)


@pytest.mark.parametrize("text", ["", "0", "-5m", "soon", "5w"])
def test_a_duration_that_is_not_one_is_refused_by_name(text: str) -> None:
    with pytest.raises(SettingsError, match="KAITEN_ABANDON_AFTER"):
        parse_duration("KAITEN_ABANDON_AFTER", text)
