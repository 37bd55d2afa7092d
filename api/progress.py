"""A progress bar on a terminal stream, for the CLI's long runs (simulate, tournament)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO


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
