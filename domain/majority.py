"""Most-and-fewest awards, which several games of the family give (puddings, temaki, buns)."""

from __future__ import annotations

from collections.abc import Sequence


def most_and_fewest(counts: Sequence[int]) -> tuple[list[int], list[int]]:
    """The seats with the most and the seats with the fewest, in seat order; neither when every count
    is equal (or there is none), since then nobody has more than anyone else."""
    if not counts:
        return [], []
    most, fewest = max(counts), min(counts)
    if most == fewest:
        return [], []
    return (
        [seat for seat, count in enumerate(counts) if count == most],
        [seat for seat, count in enumerate(counts) if count == fewest],
    )
