"""How one finished game counts for its players: places for the ratings, a player in several seats."""

from __future__ import annotations

from adapters.projections.statistics import FinishedGame, PlayerResult, places, player_results
from domain.engine import Result, SeatScore


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
        player_ids={0: "ann", 1: "ann", 2: "bob"},
        picks={},
    )
    assert player_results(game) == {
        "ann": PlayerResult(place=1, total=30, won=True),
        "bob": PlayerResult(place=2, total=25, won=False),
    }
