"""Resigning: a bot takes the seat over to the end, the leaver ranks last; abandoned games."""

from __future__ import annotations

from datetime import timedelta

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kaiten.api.contract.presenting import log_document, table_view
from kaiten.domain.engine import NotNow, Result, SeatScore
from kaiten.domain.lobby import Seat, Table, leavers_last
from kaiten.services.commands import Act, CreateGame, GetTable, ListEvents, NewSeat, Resign
from kaiten.services.errors import ServiceError
from kaiten.services.logs import export_log, import_log
from tests.unit.seats.fixtures import PEOPLE, play_out, server

THREE = [*PEOPLE, NewSeat(name="Cy", player_id="cy")]


async def test_a_resigned_seat_is_played_by_a_bot_to_the_end_and_ranks_last() -> None:
    s = server()
    game = await s.create(None, THREE)
    outcome = await s.games.resign(Resign(game.id, game.tokens["0"]))
    assert [event.stored.type for event in outcome.events[:2]] == ["SeatResigned", "SeatTakenOver"]
    view = await s.games.view(GetTable(game.id))
    assert view.table.seats[0].resigned and view.table.seats[0].taken_over_by == "greedy"
    assert 0 in view.awaiting, "the bot owes the seat's pick: it makes it in an append of its own"
    await s.bots()
    assert 0 not in (await s.games.view(GetTable(game.id))).awaiting, "the bot moved for the seat"
    await play_out(s, game.id, {"1": game.tokens["1"], "2": game.tokens["2"]})
    final = await s.games.view(GetTable(game.id))
    assert final.status == "finished"
    assert final.table.result.ranking[-1] == 0
    assert 0 not in final.table.result.winners


async def test_a_resigned_person_can_neither_move_nor_resign_again() -> None:
    s = server()
    game = await s.create(None, THREE)
    await s.games.resign(Resign(game.id, game.tokens["0"]))
    with pytest.raises(NotNow) as again:
        await s.games.resign(Resign(game.id, game.tokens["0"]))
    assert again.value.code == "seat-resigned"
    with pytest.raises(ServiceError) as moved:
        await s.games.act(Act(game.id, game.tokens["0"], b'{"type": "pick", "cards": [0]}'))
    assert moved.value.code == "seat-resigned"


async def test_a_resignation_retried_with_its_idempotency_key_answers_the_first_answer() -> None:
    s = server()
    game = await s.create(None, THREE)
    first = await s.games.resign(Resign(game.id, game.tokens["0"], idempotency_key="leave-1"))
    await s.move(game.id, game.tokens["1"])
    again = await s.games.resign(Resign(game.id, game.tokens["0"], idempotency_key="leave-1"))
    assert again == first
    assert (await s.types(game.id)).count("SeatResigned") == 1


async def test_an_idempotency_key_of_a_move_cannot_stand_for_a_resignation() -> None:
    s = server()
    game = await s.create(None, THREE)
    await s.move(game.id, game.tokens["0"], idempotency_key="k")
    with pytest.raises(ServiceError) as reused:
        await s.games.resign(Resign(game.id, game.tokens["0"], idempotency_key="k"))
    assert reused.value.code == "idempotency-key-reused"
    assert "SeatResigned" not in await s.types(game.id)


async def test_when_every_person_resigned_the_game_is_abandoned() -> None:
    s = server()
    game = await s.create(None, [PEOPLE[0], NewSeat(bot="greedy")])
    outcome = await s.games.resign(Resign(game.id, game.tokens["0"]))
    assert [event.stored.type for event in outcome.events] == ["SeatResigned", "GameAbandoned"]
    created = (await s.games.events(ListEvents(game.id, after=0, limit=1))).events[0].event
    assert outcome.events[1].event.seed == created.seed
    view = await s.games.view(GetTable(game.id))
    assert view.status == "abandoned" and view.awaiting == () and view.full_state is not None


async def test_a_game_nobody_moves_in_is_abandoned_after_the_setting() -> None:
    s = server(abandon_after=timedelta(hours=1))
    game = await s.create({"turn_seconds": 3600 * 5}, PEOPLE)
    s.clock.advance(3599)
    assert await s.scheduler.run_once() == 0
    await s.move(game.id, game.tokens["0"])
    s.clock.advance(3599)
    assert await s.scheduler.run_once() == 0, "the move started the hour again"
    s.clock.advance(2)
    assert await s.scheduler.run_once() == 1
    assert (await s.types(game.id))[-1] == "GameAbandoned"
    with pytest.raises(NotNow) as late:
        await s.games.act(Act(game.id, game.tokens["1"], b'{"type": "pick", "cards": [0]}'))
    assert late.value.code == "game-abandoned"
    s.clock.advance(10**6)
    assert await s.scheduler.run_once() == 0, "an abandoned game has no deadline"


async def test_a_clocked_game_whose_people_are_gone_is_abandoned_not_played_out_by_timeouts() -> None:
    s = server(abandon_after=timedelta(minutes=10))
    game = await s.create({"turn_seconds": 60, "on_timeout": "skip"}, PEOPLE)
    await s.move(game.id, game.tokens["0"])
    moved = s.clock.now()
    # Nobody moves again: the clock times the turns out, one a minute, but that is nobody's move.
    while s.clock.now() - moved < timedelta(minutes=10):
        s.clock.advance(61)
        await s.scheduler.run_once()
        if (await s.types(game.id))[-1] == "GameAbandoned":
            break
    types = await s.types(game.id)
    assert types[-1] == "GameAbandoned" and types.count("TurnTimedOut") >= 9
    assert s.clock.now() - moved <= timedelta(minutes=10, seconds=61)


async def test_a_move_after_the_timeouts_puts_abandonment_off_again() -> None:
    s = server(abandon_after=timedelta(minutes=10))
    game = await s.create({"turn_seconds": 60, "on_timeout": "skip"}, PEOPLE)
    for _ in range(9):
        s.clock.advance(61)
        await s.scheduler.run_once()
    await s.move(game.id, game.tokens["1"])
    s.clock.advance(120)
    await s.scheduler.run_once()
    assert "GameAbandoned" not in await s.types(game.id), "counted from Bo's move, not from the start"


async def test_a_game_from_before_abandonment_was_on_is_abandoned_once_it_is() -> None:
    before = server()
    game = await before.create(None, PEOPLE)
    await before.move(game.id, game.tokens["0"])
    # The same store served again with abandonment on: the game has no deadline row yet.
    s = server(abandon_after=timedelta(hours=1), restarting=before)
    assert await s.scheduler.run_once() == 1, "adopted at once, and woken to work out its deadline"
    assert "GameAbandoned" not in await s.types(game.id)
    s.clock.advance(3601)
    assert await s.scheduler.run_once() == 1
    assert (await s.types(game.id))[-1] == "GameAbandoned"


async def test_an_open_game_is_abandoned_too() -> None:
    s = server(abandon_after=timedelta(minutes=5))
    game = await s.games.create(CreateGame("sushi-go", 3, None, 3, (PEOPLE[0],)))
    assert game.status == "open"
    s.clock.advance(301)
    await s.scheduler.run_once()
    assert (await s.games.view(GetTable(game.id))).status == "abandoned"


def result(*totals: int) -> Result:
    ranking = tuple(sorted(range(len(totals)), key=lambda seat: -totals[seat]))
    best = max(totals)
    return Result(
        scores=tuple(SeatScore(seat, total, {}) for seat, total in enumerate(totals)),
        winners=tuple(seat for seat, total in enumerate(totals) if total == best),
        ranking=ranking,
    )


def table(resigned: set[int], players: int) -> Table[None]:
    seats = tuple(Seat(seat, f"p{seat}", None, None, resigned=seat in resigned) for seat in range(players))
    return Table("sushi-go", players, None, "", 0, "", "active", seats)


def test_leavers_rank_last_and_never_win() -> None:
    assert leavers_last(result(30, 20, 10), table({0}, 3)) == Result(
        scores=result(30, 20, 10).scores, winners=(1,), ranking=(1, 2, 0)
    )
    assert leavers_last(result(30, 30, 10), table({0}, 3)).winners == (1,)
    assert leavers_last(result(30, 20, 10), table({0, 1}, 3)).ranking == (2, 0, 1)
    assert leavers_last(result(30, 20, 10), table(set(), 3)) == result(30, 20, 10)


async def test_a_game_with_a_leaver_and_a_timeout_exports_and_imports_as_it_was() -> None:
    s = server()
    game = await s.create({"turn_seconds": 30}, THREE)
    await s.games.resign(Resign(game.id, game.tokens["0"]))
    s.clock.advance(31)
    await s.scheduler.run_once()
    await play_out(s, game.id, {"1": game.tokens["1"], "2": game.tokens["2"]})
    document = msgspec.to_builtins(log_document(await export_log(s.games, game.id, None)))
    assert "TurnTimedOut" in {event["type"] for event in document["events"]}
    imported, _ = await import_log(s.games, document, None)
    original = await s.games.view(GetTable(game.id))
    shown, shown_original = table_view(imported), table_view(original)
    assert shown.result == shown_original.result and shown.seats == shown_original.seats


@given(
    totals=st.lists(st.integers(0, 60), min_size=2, max_size=8),
    left=st.sets(st.integers(0, 7)),
)
def test_leavers_always_rank_below_every_stayer_who_keeps_their_order(totals: list[int], left: set[int]) -> None:
    left = {seat for seat in left if seat < len(totals)}
    before = result(*totals)
    after = leavers_last(before, table(left, len(totals)))
    assert sorted(after.ranking) == list(range(len(totals)))
    stayed = [seat for seat in after.ranking if seat not in left]
    assert list(after.ranking) == stayed + [seat for seat in before.ranking if seat in left]
    assert stayed == [seat for seat in before.ranking if seat not in left]
    if stayed:
        assert after.winners and not set(after.winners) & left
        assert after.winners[0] in stayed
