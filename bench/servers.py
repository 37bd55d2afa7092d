"""Serving processes for the benchmarks: an ASGI app under uvicorn or granian, with N workers."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class ServerKind:
    """An HTTP server and its worker count, written `granian` or `granian:2` on the command line."""

    name: str
    workers: int = 1

    @classmethod
    def parse(cls, text: str) -> ServerKind:
        name, _, workers = text.partition(":")
        if name not in ("uvicorn", "granian"):
            raise ValueError(f"a server is uvicorn or granian, not {name!r}")
        return cls(name, int(workers or 1))

    def __str__(self) -> str:
        return self.name if self.workers == 1 else f"{self.name}:{self.workers}"

    def command(self, app: str, port: int) -> list[str]:
        if self.name == "uvicorn":
            return [
                *(sys.executable, "-m", "uvicorn", app, "--port", str(port), "--workers", str(self.workers)),
                *("--log-level", "warning", "--no-access-log"),
            ]
        return [
            *(sys.executable, "-m", "granian", "--interface", "asgi", app, "--port", str(port)),
            *("--workers", str(self.workers), "--log-level", "warning", "--no-ws"),
        ]


#: The ASGI app of this checkout (kaiten/ links its folders into one package).
KAITEN_APP = "kaiten.api.asgi:app"


def app_of(root: Path) -> str:
    """The ASGI app of the checkout at `root`: one from before kaiten became one package (issue 27)
    serves its top-level `api`."""
    return KAITEN_APP if (root / "kaiten").is_dir() else "api.asgi:app"


@contextmanager
def serving(
    app: str,
    port: int,
    database_url: str,
    kind: ServerKind = ServerKind("uvicorn"),
    root: Path = ROOT,
    env: dict[str, str] | None = None,
) -> Iterator[subprocess.Popen[bytes]]:
    """The app served from the code in `root` until the block ends."""
    # Open mode: no app keys to provision for a bench's clients (on PostgreSQL the default asks for them).
    environment = {
        **os.environ,
        "DATABASE_URL": database_url,
        "PYTHONPATH": str(root),
        "KAITEN_AUTH": "open",
        **(env or {}),
    }
    # The servers' own output (a log line per request) is not what is measured here.
    quiet = subprocess.DEVNULL
    process = subprocess.Popen(kind.command(app, port), cwd=root, env=environment, stdout=quiet, stderr=quiet)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=0.5)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        else:
            raise RuntimeError(f"{kind} did not start serving {app} on port {port}")
        yield process
    finally:
        process.terminate()
        process.wait(15)


def _tree(pid: int) -> dict[int, list[str]]:
    """A process and all its descendants (a server's workers): each one's fields of /proc/<pid>/stat
    after the command's name (the state is the first)."""
    stats = {member: fields for member, (_name, fields) in _processes().items()}
    tree, grew = {pid}, True
    while grew:
        children = {child for child, fields in stats.items() if int(fields[1]) in tree} - tree
        tree |= children
        grew = bool(children)
    return {member: stats[member] for member in tree if member in stats}


def postgres_cpu_seconds() -> float:
    """The CPU time every PostgreSQL process of the machine has used so far, with that of its ended
    children (backends of closed connections) as the postmaster counts them."""
    ticks = os.sysconf("SC_CLK_TCK")
    # utime, stime, cutime and cstime: the 14th to 17th fields, the 12th to 15th after the name.
    postgres = (fields for name, fields in _processes().values() if name == "postgres")
    return sum(int(field) for fields in postgres for field in fields[11:15]) / ticks


def _processes() -> dict[int, tuple[str, list[str]]]:
    """Every process of the machine: its command's name, and its fields of /proc/<pid>/stat after the
    name (the state is the first)."""
    processes: dict[int, tuple[str, list[str]]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, fields = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        processes[int(stat.parent.name)] = (head.split("(", 1)[1], fields.split())
    return processes


def tree_rss_mib(pid: int) -> float:
    """The resident memory of a process and all its descendants, in MiB."""
    return sum(_rss_kib(member) for member in _tree(pid)) / 1024


def tree_cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process and all its living descendants have used so far: what
    a load costs the server itself, whatever else the machine runs beside it."""
    ticks = os.sysconf("SC_CLK_TCK")
    # utime and stime are the 14th and 15th fields of stat, the 12th and 13th after the name.
    return sum(int(fields[11]) + int(fields[12]) for fields in _tree(pid).values()) / ticks


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0
