"""A seat given back before the game starts (services/seats.py `leave`, domain/lobby `leave_seat`):
the domain's rules, the token that stops working, the seat taken again, and a log holding SeatLeft
decided again (domain/redecide.py)."""

from __future__ import annotations

import pytest

from kaiten.domain import lobby
from kaiten.domain.catalog import get_game
from kaiten.domain.chance import Chance
from kaiten.domain.engine import NotNow, RuleViolation
from kaiten.domain.redecide import first_divergence
from kaiten.services.codec import codec_for
from kaiten.services.commands import CreateGame, GetTable, LeaveSeat, NewSeat, TakeSeat
from kaiten.services.errors import ServiceError
from tests.unit.seats.fixtures import PEOPLE, play_out, server

GAME = get_game("sushi-go")


def open_table(players: int = 3) -> lobby.Table[object]:
    table = lobby.replay(GAME, lobby.create_game(GAME, players, None, 5, bytes(16)))
    for name in ("a", "b"):
        table = lobby.take_seat(GAME, table, Chance(0), person=name).table
    return table


def test_a_seat_given_back_leaves_a_gap_that_the_next_seat_fills() -> None:
    table = open_table()
    left = lobby.leave_seat(GAME, table, 0)
    assert left.events == (lobby.SeatLeft(seat=0),)
    assert [seat.seat for seat in left.table.seats] == [1] and lobby.next_seat(left.table) == 0
    again = lobby.take_seat(GAME, left.table, Chance(0), person="c")
    assert again.events == (lobby.SeatTaken(seat=0, person="c"),)
    assert [(seat.seat, seat.person) for seat in again.table.seats] == [(0, "c"), (1, "b")]
    last = lobby.take_seat(GAME, again.table, Chance(0), person="d")
    assert last.table.status == "active" and [seat.seat for seat in last.table.seats] == [0, 1, 2]


def test_no_seat_is_given_back_once_the_game_started_nor_one_nobody_holds() -> None:
    table = open_table(2)
    with pytest.raises(RuleViolation):
        lobby.leave_seat(GAME, lobby.leave_seat(GAME, table, 0).table, 0)
    started = lobby.take_seat(GAME, open_table(3), Chance(0), bot="greedy").table
    with pytest.raises(NotNow) as refused:
        lobby.leave_seat(GAME, started, 1)
    assert refused.value.code == "game-started"


def test_giving_seats_back_and_taking_them_again_counts_against_the_lobby_events_bound() -> None:
    table = open_table()
    for _ in range(lobby.MAX_ACCESS_EVENTS // 2):
        table = lobby.leave_seat(GAME, table, 0).table
        table = lobby.take_seat(GAME, table, Chance(0), person="a").table
    with pytest.raises(NotNow) as refused:
        lobby.leave_seat(GAME, table, 0)
    assert refused.value.code == "too-many-lobby-events"


async def test_the_token_of_a_seat_given_back_holds_nothing_and_the_seat_is_taken_again() -> None:
    s = server()
    game = await s.create(None, PEOPLE)  # a full game of two: started
    with pytest.raises(NotNow) as started:
        await s.games.leave(LeaveSeat(game.id, game.tokens["0"]))
    assert started.value.code == "game-started"
    created = await s.games.create(CreateGame("sushi-go", 3, None, 3, tuple(PEOPLE)))
    await s.games.leave(LeaveSeat(created.id, created.tokens["0"]))
    assert (await s.types(created.id))[-1] == "SeatLeft"
    for call in (
        s.games.leave(LeaveSeat(created.id, created.tokens["0"])),
        s.games.view(GetTable(created.id, created.tokens["0"])),
    ):
        with pytest.raises(ServiceError) as refused:
            await call
        assert refused.value.code == "invalid-token"
    carol = await s.games.take_seat(TakeSeat(created.id, NewSeat(name="Cy")))
    assert carol.seat == 0 and carol.token is not None
    dee = await s.games.take_seat(TakeSeat(created.id, NewSeat(name="Dee")))
    assert dee.seat == 2
    view = await s.games.view(GetTable(created.id, carol.token))
    assert view.status == "active" and view.seat == 0
    tokens = {"0": carol.token, "1": created.tokens["1"], "2": dee.token}
    await play_out(s, created.id, tokens)
    decoded = [codec_for("sushi-go").decode_stored(item) for item in await s.store.read(created.id, 0)]
    assert first_divergence(GAME, decoded) is None
    # A SeatLeft forged where no seat can be given back (the game running) is refused where it stands.
    started_at = next(i for i, event in enumerate(decoded) if isinstance(event, lobby.GameStarted))
    forged = [*decoded[: started_at + 2], lobby.SeatLeft(seat=1), *decoded[started_at + 2 :]]
    divergence = first_divergence(GAME, forged)
    assert divergence is not None and divergence.version == started_at + 3
