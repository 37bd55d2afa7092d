"""bench/mcts.py says which rows' p99 is over 1.5 times the catalog's figure, and whether the row's tail
or its median is over (a slower machine moves the median; decisions the budget does not count, the tail)."""

from __future__ import annotations

from bench.mcts import Held, not_holding


def test_only_the_rows_over_one_and_a_half_times_the_catalog_are_listed_with_why() -> None:
    rows = [
        Held("sushi-go", 2, "mcts", catalog=200.0, p50=210.0, p99=300.0),  # 1.50: holds
        Held("sushi-go", 3, "mcts", catalog=200.0, p50=200.0, p99=301.0),  # the tail: 1.505 x its p50
        Held("sushi-go", 4, "mcts", catalog=200.0, p50=380.0, p99=450.0),  # the median: p99 1.18 x its p50
    ]
    assert [row.holds for row in rows] == [True, False, False]
    listed = not_holding(rows)
    assert len(listed) == 2
    assert listed[0].startswith("  sushi-go 3 mcts: p99 1.50 x") and "its tail" in listed[0]
    assert listed[1].startswith("  sushi-go 4 mcts: p99 2.25 x") and "its median" in listed[1]
