"""`kaiten export --all` and `kaiten import --all`: a whole database backed up as zstandard-compressed
JSON lines, and restored into an empty database with every game decided again (services/backup.py,
adapters/backup.py), then the read models rebuilt.

zstandard rather than the standard library's gzip or lzma (README, "Backup and restore"): at level 9
these logs come out a third smaller than gzip's default at 51 MB/s a core, within a tenth of lzma's
size at ten times its speed; its frames carry a checksum of the content (a damaged file is refused,
not half read), and the `zstd` tool reads them.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

import zstandard

from kaiten.adapters.backup import NotEmpty, backup_lines, restore
from kaiten.adapters.database import create_engine
from kaiten.adapters.migrate import upgrade_sync
from kaiten.adapters.projections.rebuild import rebuild
from kaiten.adapters.projections.registry import build_projections
from kaiten.api.cli.progress import progress_bar
from kaiten.api.cli.projections import progress_bar as rebuild_progress_bar
from kaiten.api.settings import Settings
from kaiten.services.backup import MAX_LINE_BYTES, End, GameLine, Header, InvalidBackup, Line, decode_line, encode_line

#: zstd's level: 3 is its default (ratio 14.5 on these logs, 305 MB/s); 9 gives 18.4 at 51 MB/s.
LEVEL = 9
#: The largest window a restore accepts (a hostile frame could ask for gigabytes of memory).
MAX_WINDOW = 1 << 27


def add_arguments(export: argparse.ArgumentParser, imported: argparse.ArgumentParser) -> None:
    """`--all` on `kaiten export` and `kaiten import` (api/cli/logs.py defines them)."""
    export.add_argument(
        "--all", action="store_true", help="back up every game, running ones too, with the apps and people"
    )
    imported.add_argument(
        "--all", action="store_true", help="restore a backup (`export --all`) into an empty database ('-': stdin)"
    )


def _progress(total: int) -> Callable[[int], None] | None:
    return progress_bar(total, sys.stderr) if sys.stderr.isatty() and total else None


# --- export --all ----------------------------------------------------------------------------------


def run_export_all(args: argparse.Namespace) -> int:
    if args.output is None and sys.stdout.isatty():
        print("kaiten: a backup is compressed: write it to a file (-o FILE) or a pipe", file=sys.stderr)
        return 2
    database_url = Settings.from_env().direct_url
    started = time.perf_counter()
    if args.output is None:
        counted = asyncio.run(export_all(database_url, sys.stdout.buffer))
    else:
        with args.output.open("wb") as file:
            counted = asyncio.run(export_all(database_url, file))
    print(
        f"kaiten: backed up {counted.games:,} games, {counted.apps:,} apps and {counted.people:,} people"
        f"{'' if args.output is None else f' to {args.output}'} in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    return 0


async def export_all(
    database_url: str, output: BinaryIO, progress: Callable[[int], None] | None = None, level: int = LEVEL
) -> End:
    """Write the database's backup to `output`, compressed; the counts of its end line."""
    engine = create_engine(database_url)
    compressor = zstandard.ZstdCompressor(level=level, write_checksum=True)
    games = 0
    end: End | None = None
    shown = False
    try:
        with compressor.stream_writer(output, closefd=False) as writer:
            async for line in backup_lines(engine, datetime.now(UTC)):
                writer.write(encode_line(line))
                if isinstance(line, Header) and progress is None:
                    progress = _progress(line.games)
                    shown = progress is not None
                elif isinstance(line, GameLine):
                    games += 1
                    if progress is not None:
                        progress(games)
                elif isinstance(line, End):
                    end = line
    finally:
        await engine.dispose()
    if shown:
        sys.stderr.write("\n")
    assert end is not None
    return end


# --- import --all ----------------------------------------------------------------------------------


def run_import_all(args: argparse.Namespace) -> int:
    database_url = Settings.from_env().direct_url
    upgrade_sync(database_url)
    started = time.perf_counter()
    try:
        if args.file is None or str(args.file) == "-":
            restored = asyncio.run(import_all(database_url, sys.stdin.buffer))
        else:
            with Path(args.file).open("rb") as file:
                restored = asyncio.run(import_all(database_url, file))
    except NotEmpty as held:
        print(
            f"kaiten: import --all restores into an empty database, and this one holds {held}: "
            "point DATABASE_URL at a new database (migrated or not)",
            file=sys.stderr,
        )
        return 1
    except InvalidBackup as refused:
        print(f"kaiten: nothing restored: {refused}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"kaiten: cannot read {args.file}: {error}", file=sys.stderr)
        return 1
    print(
        f"kaiten: restored {restored.games:,} games, {restored.apps:,} apps and {restored.people:,} people, "
        f"each game decided again, and rebuilt the read models in {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    return 0


async def import_all(
    database_url: str,
    source: BinaryIO,
    progress: Callable[[int], None] | None = None,
    rebuilt: Callable[[str], Callable[[int, int], None] | None] | None = None,
) -> End:
    """Restore the backup read from `source` into the empty database at `database_url` (migrated),
    then rebuild every projection; the counts restored."""
    engine = create_engine(database_url)
    try:
        lines = _Lines(source, progress)
        restoring = await restore(engine, iter(lines), lines.show)
        if lines.shown and sys.stderr.isatty():
            sys.stderr.write("\n")
        for projection in build_projections(engine.dialect.name):
            show = rebuilt(projection.name) if rebuilt is not None else _rebuild_progress(projection.name)
            await rebuild(engine, projection, progress=show)
            if show is not None and rebuilt is None:
                sys.stderr.write("\n")
    finally:
        await engine.dispose()
    return End(apps=len(restoring.apps), people=len(restoring.people), games=len(restoring.games))


def _rebuild_progress(name: str) -> Callable[[int, int], None] | None:
    return rebuild_progress_bar(name) if sys.stderr.isatty() else None


class _Lines:
    """The backup's lines, decompressed and decoded one at a time, each at most MAX_LINE_BYTES; the
    progress bar follows the games written, out of the header's count."""

    def __init__(self, source: BinaryIO, progress: Callable[[int], None] | None) -> None:
        decompressor = zstandard.ZstdDecompressor(max_window_size=MAX_WINDOW)
        self._reader = io.BufferedReader(decompressor.stream_reader(source, read_across_frames=True, closefd=False))
        self._progress = progress
        self._number = 0

    def __iter__(self) -> Iterator[Line]:
        while True:
            try:
                raw = self._reader.readline(MAX_LINE_BYTES + 1)
            except zstandard.ZstdError as error:
                raise InvalidBackup(
                    "not-zstandard", f"the file is no zstandard backup, or is damaged: {error}"
                ) from None
            if not raw:
                return
            self._number += 1
            if len(raw) > MAX_LINE_BYTES:
                raise InvalidBackup("line-too-long", f"line {self._number} is longer than any game's line")
            line = decode_line(raw, self._number)
            if isinstance(line, Header) and self._progress is None:
                self._progress = _progress(line.games)
            yield line

    @property
    def shown(self) -> bool:
        return self._progress is not None

    def show(self, games: int) -> None:
        if self._progress is not None:
            self._progress(games)
