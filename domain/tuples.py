"""Changing one item of a tuple, as every game's `evolve` does to its frozen state: the new tuple is
built, the old one is left as it was (a table, a search or a test may still hold it)."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def replaced(items: tuple[T, ...], index: int, item: T) -> tuple[T, ...]:
    """`items` with the one at `index` replaced by `item`."""
    return (*items[:index], item, *items[index + 1 :])


def added(counts: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    """`counts` with `delta` added to the count at `index`."""
    return (*counts[:index], counts[index] + delta, *counts[index + 1 :])


def appended(groups: tuple[tuple[T, ...], ...], index: int, item: T) -> tuple[tuple[T, ...], ...]:
    """`groups` with `item` appended to the group at `index` (a seat's hand, a dish's markers)."""
    return (*groups[:index], (*groups[index], item), *groups[index + 1 :])


def removed_at(items: tuple[T, ...], index: int) -> tuple[T, ...]:
    """`items` without the one at `index`."""
    return items[:index] + items[index + 1 :]


def without(items: tuple[T, ...], item: Any) -> tuple[T, ...]:
    """`items` without the first `item` (ValueError when there is none)."""
    index = items.index(item)
    return items[:index] + items[index + 1 :]
