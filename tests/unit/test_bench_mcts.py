"""bench/mcts.py says which rows' p99 is over 1.5 times the catalog's figure, and whether the row's tail
or its median is over (a slower machine moves the median; decisions the budget does not count, the tail)."""

from __future__ import annotations

from pathlib import Path

from bench.mcts import Held, bots_md_rows, not_holding
from kaiten.domain.catalog import GAMES


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


def test_emit_writes_bots_md_table_as_it_stands_for_the_catalogs_figures() -> None:
    """What `--emit` prints for BOTS.md, from the catalog's own figures, is BOTS.md's table line for line,
    so a new measurement pasted into the games and BOTS.md keeps them alike (test_every_game checks it)."""
    rows = bots_md_rows({game_id: dict(game.bot_costs) for game_id, game in GAMES.items()})
    bots_md = (Path(__file__).resolve().parents[2] / "BOTS.md").read_text()
    assert "\n".join(rows) in bots_md
