"""Ratings and statistics of a game someone left: a loss for the leaver only, the others rated among
themselves; abandoned games count nowhere."""

from __future__ import annotations

import msgspec

from kaiten.domain.catalog import get_game
from kaiten.domain.engine import Result, SeatScore
from kaiten.services.codec import codec_for
from kaiten.services.commands import NewSeat, Resign
from kaiten.services.statistics import FinishedGame, PlayerRecord, add_to_players, finished_game
from tests.unit.seats.fixtures import play_out, server


def leaver_game(resigned: frozenset[int]) -> FinishedGame:
    # Seat 0 scored most but resigned, so the result ranks it last (domain.lobby.leavers_last).
    scores = (SeatScore(0, 50, {}), SeatScore(1, 30, {}), SeatScore(2, 20, {}))
    result = Result(scores=scores, winners=(1,), ranking=(1, 2, 0))
    return FinishedGame("sushi-go", result, {0: "leaver", 1: "ann", 2: "bo"}, {}, resigned)


def test_the_leaver_alone_loses_and_the_others_are_rated_among_themselves() -> None:
    with_leaver: dict[tuple[str, str], PlayerRecord] = {}
    add_to_players(with_leaver, [leaver_game(frozenset({0}))])
    without_leaver: dict[tuple[str, str], PlayerRecord] = {}
    stayers = Result(leaver_game(frozenset()).result.scores[1:], (1,), (1, 2))
    add_to_players(without_leaver, [FinishedGame("sushi-go", stayers, {1: "ann", 2: "bo"}, {})])
    leaver, ann, bo = (with_leaver[name, "sushi-go"] for name in ("leaver", "ann", "bo"))
    assert leaver.resigned == 1 and ann.resigned == 0
    assert leaver.mu < PlayerRecord("x", "g").mu, "a loss"
    assert (ann.mu, ann.sigma) == (without_leaver["ann", "sushi-go"].mu, without_leaver["ann", "sushi-go"].sigma)
    assert (bo.mu, bo.sigma) == (without_leaver["bo", "sushi-go"].mu, without_leaver["bo", "sushi-go"].sigma)
    assert leaver.rated_games == ann.rated_games == bo.rated_games == 1


def test_a_leaver_against_bots_only_is_marked_but_not_rated() -> None:
    records: dict[tuple[str, str], PlayerRecord] = {}
    game = leaver_game(frozenset({0}))
    add_to_players(records, [msgspec.structs.replace(game, players={0: "leaver"})])
    leaver = records["leaver", "sushi-go"]
    assert (leaver.played, leaver.resigned, leaver.rated_games, leaver.wins) == (1, 1, 0, 0)


async def test_a_played_game_with_a_leaver_reads_as_such() -> None:
    s = server()
    seats = [NewSeat(name="Ann", player_id="ann"), NewSeat(name="Bo", player_id="bo")]
    game = await s.create(None, seats)
    await s.games.resign(Resign(game.id, game.tokens["0"]))
    await play_out(s, game.id, {"1": game.tokens["1"]})
    codec = codec_for("sushi-go")
    finished = finished_game(get_game("sushi-go"), [codec.decode_stored(item) for item in await s.store.read(game.id)])
    assert finished.resigned == frozenset({0})
    assert finished.result.winners == (1,) and finished.result.ranking == (1, 0)
