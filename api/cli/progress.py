"""A progress bar on a terminal stream, for the CLI's long runs (simulate, tournament)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO, TypeVar

import msgspec

from kaiten.domain.engine import RuleViolation
from kaiten.services.simulation import SimulationError

R = TypeVar("R")


def progress_bar(total: int, stream: TextIO, width: int = 40) -> Callable[[int], None]:
    """`update(done)` redraws the bar in place, about 200 times over the whole run at most."""
    step = max(1, total // 200)

    def update(done: int) -> None:
        if done % step and done != total:
            return
        filled = width * done // total
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        stream.flush()

    return update


def report_run(
    command: str,
    games: int,
    work: Callable[[Callable[[int], None] | None], R],
    as_text: Callable[[R], str],
    as_json: bool,
) -> int:
    """Run `work` with a progress bar on stderr (when a terminal shows it) and print its report, as one
    JSON object or as text; a refused run prints why on stderr. The exit code: 0, or 2 when refused."""
    progress = progress_bar(games, sys.stderr) if sys.stderr.isatty() else None
    try:
        report = work(progress)
    except (RuleViolation, SimulationError) as exc:
        if progress is not None:
            sys.stderr.write("\n")
        print(f"kaiten {command}: {exc}", file=sys.stderr)
        return 2
    if progress is not None:
        sys.stderr.write("\n")
    sys.stdout.write(msgspec.json.encode(report).decode() + "\n" if as_json else as_text(report))
    return 0
