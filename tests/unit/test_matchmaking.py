"""The matching function (domain/matchmaking.py), for any entries waiting: the games it forms are
compatible and disjoint, and no compatible game is left unformed among the entries it did not place
(checked by trying every group of them)."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from kaiten.domain.matchmaking import Waiting, compatible, form_games, rating_compatible, window_after

LOWEST, HIGHEST = 2, 5


@st.composite
def entries(draw: st.DrawFn) -> list[Waiting]:
    count = draw(st.integers(0, 9))
    waiting = []
    for number in range(count):
        low = draw(st.integers(1, 6))
        high = draw(st.integers(low, 6))
        rated = draw(st.booleans())
        waiting.append(
            Waiting(
                entry_id=f"e{number}",
                # A few players twice: the same player is never at one table twice.
                player=f"p{draw(st.integers(0, count + 2))}",
                min_players=low,
                max_players=high,
                rating=draw(st.floats(0, 30, allow_nan=False)) if rated else None,
                window=draw(st.sampled_from([0.0, 1.0, 3.0, 8.0, 100.0])),
                bot=draw(st.sampled_from([None, "greedy"])),
                bots_due=draw(st.booleans()),
            )
        )
    return waiting


def possible(group: tuple[Waiting, ...]) -> bool:
    """Whether the group can sit down now at a game of LOWEST..HIGHEST, with or without bots."""
    sizes = range(max(LOWEST, len(group)), HIGHEST + 1)
    return any(compatible(group, bots=size - len(group)) for size in sizes)


@given(entries())
def test_games_are_compatible_disjoint_and_none_is_left_unformed(waiting: list[Waiting]) -> None:
    by_id = {entry.entry_id: entry for entry in waiting}
    formed = form_games(waiting, LOWEST, HIGHEST)
    placed = [entry_id for game in formed for entry_id in game.entries]
    assert len(placed) == len(set(placed)), "a player in two games"
    for game in formed:
        group = [by_id[entry_id] for entry_id in game.entries]
        assert LOWEST <= game.players <= HIGHEST
        assert compatible(group, bots=len(game.bots)), game
        # People first, oldest first: the seats follow the order they joined.
        assert [waiting.index(entry) for entry in group] == sorted(waiting.index(entry) for entry in group)
    left = [entry for entry in waiting if entry.entry_id not in set(placed)]
    for size in range(1, min(len(left), HIGHEST) + 1):
        for group in combinations(left, size):
            assert not possible(group), f"{group} could sit down together, and waits"


@given(entries())
def test_a_game_of_people_alone_is_taken_when_there_is_one(waiting: list[Waiting]) -> None:
    """Bots fill only a game people alone could not: a group of people possible without bots, among
    every entry, means some game without bots is formed."""
    formed = form_games(waiting, LOWEST, HIGHEST)
    people_only = any(
        compatible(group)
        for size in range(LOWEST, HIGHEST + 1)
        for group in combinations(waiting, min(size, len(waiting)))
        if len(group) == size
    )
    if people_only:
        assert any(not game.bots for game in formed)


def test_the_oldest_player_is_seated_first_and_the_game_is_as_large_as_it_can_be() -> None:
    waiting = [
        Waiting("a", "alice", 2, 4),
        Waiting("b", "bob", 2, 2),
        Waiting("c", "carol", 3, 4),
        Waiting("d", "dave", 2, 4),
    ]
    assert [game.entries for game in form_games(waiting, 2, 5)] == [("a", "c", "d")]


def test_ratings_far_apart_wait_until_their_windows_widen() -> None:
    alice = Waiting("a", "alice", 2, 2, rating=10.0, window=window_after(5.0, 5.0, 0))
    bob = Waiting("b", "bob", 2, 2, rating=20.0, window=window_after(5.0, 5.0, 0))
    assert form_games([alice, bob], 2, 5) == []
    later = [
        Waiting("a", "alice", 2, 2, rating=10.0, window=window_after(5.0, 5.0, 60)),
        Waiting("b", "bob", 2, 2, rating=20.0, window=window_after(5.0, 5.0, 60)),
    ]
    assert rating_compatible(later)
    assert [game.entries for game in form_games(later, 2, 5)] == [("a", "b")]


def test_bots_fill_once_due() -> None:
    alone = Waiting("a", "alice", 3, 4, bot="greedy", bots_due=False)
    assert form_games([alone], 2, 5) == []
    due = Waiting("a", "alice", 3, 4, bot="greedy", bots_due=True)
    [game] = form_games([due], 2, 5)
    assert game.entries == ("a",) and game.bots == ("greedy", "greedy")


def test_an_entry_after_a_game_that_took_an_earlier_one_is_still_tried() -> None:
    """Hypothesis found it: bob's game (his bots due) takes alice's second entry, which was tried before
    his and found in no game then; her third entry, after his, was then never tried, and waited with
    its bots due."""
    waiting = [
        Waiting("a1", "alice", 1, 2),
        Waiting("b1", "bob", 1, 2),
        Waiting("a2", "alice", 1, 3, bot="greedy"),
        Waiting("b2", "bob", 3, 3, bot="greedy", bots_due=True),
        Waiting("a3", "alice", 1, 2, bot="greedy", bots_due=True),
    ]
    games = form_games(waiting, 2, 5)
    assert [(game.entries, game.bots) for game in games] == [
        (("a1", "b1"), ()),
        (("a2", "b2"), ("greedy",)),
        (("a3",), ("greedy",)),
    ]


def test_people_who_can_play_alone_are_not_taken_into_a_game_with_bots() -> None:
    """Hypothesis found it: alice, oldest, needs three seats and has her bots due; bob's entry went into
    her game with a bot, though he and carol could play alone. Now they do, and alice plays with two bots."""
    waiting = [
        Waiting("a", "alice", 3, 3, bot="greedy", bots_due=True),
        Waiting("c", "carol", 1, 2),
        Waiting("b", "bob", 1, 3, bot="greedy"),
    ]
    games = form_games(waiting, 2, 5)
    assert [(game.entries, game.bots) for game in games] == [(("c", "b"), ()), (("a",), ("greedy", "greedy"))]
