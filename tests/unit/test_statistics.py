"""How one finished game counts for its players: places for the ratings, a player in several seats."""

from __future__ import annotations

import msgspec
import pytest

from kaiten.domain.engine import Result, SeatScore
from kaiten.domain.lobby import GameFinished, SeatTaken
from kaiten.domain.sushi_go.game import SUSHI_GO
from kaiten.services import ratings
from kaiten.services.statistics import (
    FinishedGame,
    GameTotals,
    PlayerRecord,
    PlayerResult,
    add_to_players,
    finished_game,
    places,
    player_results,
)
from tests.unit.bot_games import play


def result(totals: list[int], winners: tuple[int, ...]) -> Result:
    scores = tuple(SeatScore(seat=seat, total=total, breakdown={"all": total}) for seat, total in enumerate(totals))
    ranking = tuple(sorted(range(len(totals)), key=lambda seat: (seat not in winners, -totals[seat], seat)))
    return Result(scores=scores, winners=winners, ranking=ranking)


def test_winners_share_first_place_and_equal_totals_share_the_places_after():
    assert places(result([30, 41, 41, 30, 12], winners=(1, 2))) == {0: 2, 1: 1, 2: 1, 3: 2, 4: 3}


def test_a_tie_broken_by_the_game_puts_the_loser_below_the_winner():
    # Equal totals, and the game's tie-break chose seat 1 alone.
    assert places(result([20, 20, 5], winners=(1,))) == {0: 2, 1: 1, 2: 3}


def test_a_player_in_several_seats_counts_once_with_the_best_of_them():
    game = FinishedGame(
        game="sushi-go",
        result=result([10, 30, 25], winners=(1,)),
        players={0: "ann", 1: "ann", 2: "bob"},
        picks={},
    )
    assert player_results(game) == {
        "ann": PlayerResult(place=1, total=30, won=True),
        "bob": PlayerResult(place=2, total=25, won=False),
    }


def finished(totals: list[int], winners: tuple[int, ...], players: dict[int, str]) -> FinishedGame:
    return FinishedGame(game="sushi-go", result=result(totals, winners), players=players, picks={"tempura": 3})


def test_players_records_sum_their_games_and_only_games_between_players_rate():
    records: dict[tuple[str, str], PlayerRecord] = {}
    against_bots = finished([20, 30], winners=(1,), players={0: "ann"})
    head_to_head = finished([40, 35, 10], winners=(0,), players={0: "ann", 1: "bob"})
    changed = add_to_players(records, [against_bots, head_to_head])
    ann, bob = records["ann", "sushi-go"], records["bob", "sushi-go"]
    assert changed == {("ann", "sushi-go"), ("bob", "sushi-go")}
    assert (ann.played, ann.wins, ann.score_sum, ann.best_score, ann.rated_games) == (2, 1, 60, 40, 1)
    assert (bob.played, bob.wins, bob.score_sum, bob.best_score, bob.rated_games) == (1, 0, 35, 35, 1)
    assert ann.mu > PlayerRecord("x", "g").mu > bob.mu
    assert ann.rating == ann.mu - 3 * ann.sigma


def test_a_game_against_bots_alone_leaves_the_rating_as_it_was():
    records: dict[tuple[str, str], PlayerRecord] = {}
    add_to_players(records, [finished([50, 10], winners=(0,), players={0: "ann"})])
    ann = records["ann", "sushi-go"]
    fresh = PlayerRecord("ann", "sushi-go")
    assert (ann.mu, ann.sigma, ann.rated_games) == (fresh.mu, fresh.sigma, 0)


def test_game_totals_add_every_seat_category_pick_and_resignation():
    totals = GameTotals()
    totals.add(finished([20, 30], winners=(1,), players={}))
    left = finished([25, 25, 5], winners=(0, 1), players={})
    totals.add(msgspec.structs.replace(left, resigned=frozenset({2})))
    assert totals.games["sushi-go"] == {
        "games": 2,
        "player_games": 5,
        "score_sum": 105,
        "winning_score_sum": 55,
        "picks": 6,
        "resigned_seats": 1,
    }
    assert totals.seats["sushi-go", 2, 1] == totals.seats["sushi-go", 3, 1] == {"games": 1, "wins": 1}
    assert totals.scores["sushi-go", 25] == 2
    assert totals.categories["sushi-go", "all"] == 105
    assert totals.cards["sushi-go", "tempura"] == 6


def test_a_rating_follows_the_places_not_the_order_the_players_are_listed_in():
    fresh = (ratings.NEW_MU, ratings.NEW_SIGMA)
    (loser_mu, _), (winner_mu, _) = ratings.rate([(*fresh, 2), (*fresh, 1)])
    assert winner_mu > ratings.NEW_MU > loser_mu
    (first_mu, _), (second_mu, _) = ratings.rate([(*fresh, 1), (*fresh, 1)])
    assert first_mu == second_mu, "equal places tie"


def test_records_count_every_win_keep_the_best_score_and_every_rated_game():
    records: dict[tuple[str, str], PlayerRecord] = {}
    first = finished([40, 35], winners=(0,), players={0: "ann", 1: "bob"})
    second = finished([30, 10], winners=(0,), players={0: "ann", 1: "bob"})
    add_to_players(records, [first, second])
    ann, bob = records["ann", "sushi-go"], records["bob", "sushi-go"]
    assert (ann.person_id, ann.game) == ("ann", "sushi-go")
    assert (ann.played, ann.wins, ann.best_score, ann.rated_games) == (2, 2, 40, 2)
    assert (bob.played, bob.wins, bob.best_score, bob.rated_games) == (2, 0, 35, 2)


def test_a_finished_log_gives_who_sat_where_what_was_picked_and_the_result():
    table, log = play(SUSHI_GO, 5, ["random", "greedy"])
    log = [msgspec.structs.replace(e, player_id="ann") if isinstance(e, SeatTaken) and e.seat == 0 else e for e in log]
    game = finished_game(SUSHI_GO, log)
    assert (game.game, game.result, game.players) == ("sushi-go", table.result, {0: "ann"})
    # Two seats pick a card each turn, ten turns a round, three rounds (chopsticks take one more).
    assert sum(game.picks.values()) >= 2 * 10 * 3
    assert set(game.picks) <= set(SUSHI_GO.decks["cards"])
    with pytest.raises(LookupError):
        finished_game(SUSHI_GO, [event for event in log if not isinstance(event, GameFinished)])


def test_a_players_best_seat_counts_whichever_seat_it_is():
    game = FinishedGame(
        game="sushi-go",
        result=result([30, 25, 10], winners=(0,)),
        players={0: "ann", 1: "bob", 2: "ann"},
        picks={},
    )
    assert player_results(game)["ann"] == PlayerResult(place=1, total=30, won=True)


def test_a_first_game_below_zero_is_the_best_score_so_far():
    records: dict[tuple[str, str], PlayerRecord] = {}
    add_to_players(records, [finished([-4, 2], winners=(1,), players={0: "ann"})])
    assert records["ann", "sushi-go"].best_score == -4
