"""The projections this service keeps, by name."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kaiten.adapters.projections.history import HistoryProjection
from kaiten.adapters.projections.runner import Projection
from kaiten.adapters.projections.statistics import StatisticsProjection

#: Each projection's constructor, which takes the database's dialect name.
PROJECTIONS: dict[str, Callable[[str], Projection]] = {
    HistoryProjection.name: HistoryProjection,
    StatisticsProjection.name: StatisticsProjection,
}


def build_projections(dialect_name: str, names: Sequence[str] | None = None) -> list[Projection]:
    """The named projections (all of them by default); KeyError for a name that is not one."""
    return [PROJECTIONS[name](dialect_name) for name in (names or list(PROJECTIONS))]


def projected_types(projections: Iterable[Projection]) -> frozenset[str] | None:
    """The event types that any of `projections` applies (None: every type). An append that holds one
    of them wakes the projections (PROJECTED_EVENTS); the rest of the log waits for their poll."""
    handled: set[str] = set()
    for projection in projections:
        if projection.handles is None:
            return None
        handled |= projection.handles
    return frozenset(handled)
