"""A pg_auto_failover formation for tests: a monitor, a primary and a synchronous standby, each a
`pg_autoctl` keeper supervising its PostgreSQL, on loopback, on free ports, in a temporary folder.

It is made with the tool's own commands (`pg_autoctl create monitor`, `pg_autoctl create postgres`), as
an operator would, from Debian's `postgresql-<major>-auto-failover`. Everything runs as the `postgres`
user when the tests run as root (PostgreSQL refuses root), with pg_autoctl's configuration and state
under the temporary folder (XDG_* variables), never in a home folder. The shared server on 5432 is
never touched.

The monitor's health checks are made quicker than its defaults (a check every second instead of 5 s,
a node unhealthy after 3 s without a report instead of 20 s, a lost primary's demotion not waited for
past 3 s instead of 30 s): a test waits for a failover in seconds, not half a minute. These are the
monitor's `pgautofailover.*` settings, which an operator may tune the same way.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

PG_AUTOCTL = "pg_autoctl"
#: The keeper and its PostgreSQL are up (or a standby cloned and caught up) within this.
START_SECONDS = 90
#: The monitor's quicker failure detection (milliseconds; see the module's docstring).
MONITOR_SETTINGS = {
    "pgautofailover.health_check_period": "1000",
    "pgautofailover.health_check_timeout": "1000",
    "pgautofailover.health_check_max_retries": "1",
    "pgautofailover.health_check_retry_delay": "500",
    "pgautofailover.node_considered_unhealthy_timeout": "3000",
    "pgautofailover.primary_demote_timeout": "3000",
}
DATABASE = "kaiten"


def missing() -> str | None:
    """Why a formation cannot be made here (None when it can)."""
    if shutil.which(PG_AUTOCTL) is None:
        return "no pg_autoctl (Debian's postgresql-15-auto-failover: apt-get install postgresql-15-auto-failover)"
    if pg_ctl() is None:
        return "no PostgreSQL binaries under /usr/lib/postgresql/*/bin"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root with no postgres user to run PostgreSQL as"
    return None


def pg_ctl() -> Path | None:
    """The pg_ctl of the newest PostgreSQL for which pg_auto_failover's extension is installed."""
    found = sorted(
        (path for path in Path("/usr/lib/postgresql").glob("*/bin/pg_ctl") if _has_extension(path)),
        key=lambda path: int(path.parent.parent.name),
    )
    return found[-1] if found else None


def _has_extension(pg_ctl_path: Path) -> bool:
    return (pg_ctl_path.parent.parent / "lib" / "pgautofailover.so").exists()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Node:
    name: str
    data: Path
    port: int
    keeper: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.data.parent / f"{self.name}.log"


@dataclass
class Formation:
    root: Path
    monitor: Node
    nodes: list[Node]
    _runner: _Runner = field(repr=False)

    def url(self, user: str = "postgres") -> str:
        """kaiten's URL of the formation: every node, the writable one chosen at each connection."""
        hosts = "&".join(f"host=127.0.0.1:{node.port}" for node in self.nodes)
        return f"postgresql+psycopg://{user}@/{DATABASE}?{hosts}&target_session_attrs=read-write&connect_timeout=2"

    def node_url(self, node: Node, database: str = DATABASE) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{node.port}/{database}?connect_timeout=2"

    def states(self) -> dict[str, tuple[str, str]]:
        """Each node's (reported state, goal state) as the monitor sees them."""
        shown = self._runner.output(PG_AUTOCTL, "show", "state", "--json", "--pgdata", str(self.monitor.data))
        return {
            node["nodename"]: (node["current_group_state"], node["assigned_group_state"]) for node in json.loads(shown)
        }

    def primary(self) -> Node | None:
        """The node the monitor has as primary, if one is (reported and assigned)."""
        for name, (reported, goal) in self.states().items():
            if reported == goal == "primary":
                return next(node for node in self.nodes if node.name == name)
        return None

    def wait_for(
        self, wanted: dict[str, str], seconds: float = START_SECONDS, meanwhile: Callable[[], object] | None = None
    ) -> None:
        """Wait until each named node reports its wanted state and is assigned it (calling `meanwhile`
        between looks)."""
        deadline = time.monotonic() + seconds
        while True:
            if meanwhile is not None:
                meanwhile()
            try:
                states = self.states()
            except RuntimeError:
                states = {}
            if all(states.get(name) == (state, state) for name, state in wanted.items()):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"the formation did not reach {wanted}: {states}\n{self.logs()}")
            time.sleep(0.2)

    def lose(self, node: Node) -> None:
        """The node's machine is gone: its keeper and its PostgreSQL (postmaster and every backend)
        die of SIGKILL at once, nothing flushed or said to anyone."""
        postmaster = _postmaster_pid(node.data)
        # Backends outlive their postmaster until they notice: they belong to the lost machine too.
        running = _postgres_pids(node.data)
        assert node.keeper is not None
        os.killpg(node.keeper.pid, signal.SIGKILL)
        if postmaster is not None:
            _kill_quietly(postmaster)
        node.keeper.wait()
        for pid in running:
            _kill_quietly(pid)

    def processes(self) -> list[int]:
        """Every process of the formation now: the keepers and each node's PostgreSQL, all of it."""
        keepers = [node.keeper.pid for node in (self.monitor, *self.nodes) if node.keeper is not None]
        return keepers + [pid for node in (self.monitor, *self.nodes) for pid in _postgres_pids(node.data)]

    def logs(self) -> str:
        return "\n".join(
            f"--- {node.name}\n{node.log.read_text(errors='replace')[-4000:]}"
            for node in (self.monitor, *self.nodes)
            if node.log.exists()
        )


def _postmaster_pid(data: Path) -> int | None:
    try:
        return int((data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _postgres_pids(data: Path) -> list[int]:
    """The processes running PostgreSQL on this data folder: the postmaster (its -D names the folder)
    and every process under it, whose titles do not name the folder. Found before a kill: once their
    postmaster is gone they belong to init, and some (the monitor's logger and health-check worker)
    never notice and stay."""
    parents: dict[int, int] = {}
    postmasters = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
                parents[int(entry.name)] = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if str(data).encode() in command and command[0].endswith(b"postgres"):
                postmasters.append(int(entry.name))
    pids: list[int] = []
    generation = postmasters
    while generation:
        pids.extend(generation)
        generation = [child for child, parent in parents.items() if parent in generation]
    return pids


def still_running(pids: list[int]) -> list[int]:
    """Those of `pids` that still run (a zombie has ended: it waits for its parent to reap it)."""
    running = []
    for pid in pids:
        with suppress(OSError):
            if Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z":
                running.append(pid)
    return running


def _kill_quietly(pid: int) -> None:
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


class _Runner:
    """Runs pg_autoctl and PostgreSQL's programs as `postgres` when this process is root, with
    pg_autoctl's files under the formation's folder."""

    def __init__(self, root: Path, pg_ctl_path: Path) -> None:
        self.user = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        self.pg_ctl = pg_ctl_path
        self.environment = {
            **os.environ,
            "PATH": f"{pg_ctl_path.parent}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "PG_CONFIG": str(pg_ctl_path.parent / "pg_config"),
            "HOME": str(root),
            "XDG_CONFIG_HOME": str(root / "config"),
            "XDG_DATA_HOME": str(root / "share"),
            "XDG_RUNTIME_DIR": str(root / "run"),
            "PGHOST": "127.0.0.1",
        }
        for name in ("config", "share", "run"):
            (root / name).mkdir()
            self.own(root / name)

    def own(self, path: Path) -> None:
        if self.user is not None:
            os.chown(path, self.user.pw_uid, self.user.pw_gid)

    def command(self, *args: str) -> list[str]:
        if self.user is None:
            return list(args)
        return ["runuser", "-u", "postgres", "--", *args]

    def output(self, *args: str) -> str:
        completed = subprocess.run(
            self.command(*args),
            capture_output=True,
            text=True,
            timeout=START_SECONDS,
            env=self.environment,
            check=False,
        )
        if completed.returncode != 0:
            raise RuntimeError(f"{args[:3]} failed ({completed.returncode}): {completed.stderr or completed.stdout}")
        return completed.stdout

    def keeper(self, node: Node, *args: str) -> subprocess.Popen[bytes]:
        """`pg_autoctl create ... --run` in a process group of its own (so that it can be lost whole)."""
        with node.log.open("ab") as log:
            return subprocess.Popen(
                self.command(*args),
                env=self.environment,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def psql(self, node: Node, database: str, sql: str) -> str:
        return self.output(
            str(self.pg_ctl.parent / "psql"), "-X", "-A", "-t", "-h", "127.0.0.1", "-p", str(node.port), "-U",
            "postgres", "-d", database, "-c", sql,
        ).strip()  # fmt: skip


@contextmanager
def formation() -> Iterator[Formation]:
    """A monitor, a primary `node_1` and its synchronous standby `node_2`, running until the block ends;
    then every process is killed and the folder deleted."""
    found = pg_ctl()
    assert found is not None, missing()
    root = Path(tempfile.mkdtemp(prefix="kaiten-failover-"))
    runner = _Runner(root, found)
    runner.own(root)
    monitor = Node("monitor", root / "monitor", free_port())
    nodes = [Node(f"node_{number}", root / f"node_{number}", free_port()) for number in (1, 2)]
    made = Formation(root, monitor, nodes, runner)
    try:
        with ExitStack() as stack:
            stack.callback(_stop_all, made)
            common = ("--pgctl", str(found), "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl")
            monitor.keeper = runner.keeper(
                monitor, PG_AUTOCTL, "create", "monitor", "--pgdata", str(monitor.data), "--pgport",
                str(monitor.port), *common, "--run",
            )  # fmt: skip
            _wait_until_answers(runner, monitor, "pg_auto_failover", monitor.keeper)
            for name, value in MONITOR_SETTINGS.items():
                runner.psql(monitor, "pg_auto_failover", f"ALTER SYSTEM SET {name} = {value}")
            runner.psql(monitor, "pg_auto_failover", "SELECT pg_reload_conf()")
            monitor_url = f"postgres://autoctl_node@127.0.0.1:{monitor.port}/pg_auto_failover?sslmode=disable"
            for node in nodes:
                node.keeper = runner.keeper(
                    node, PG_AUTOCTL, "create", "postgres", "--pgdata", str(node.data), "--pgport", str(node.port),
                    "--name", node.name, "--dbname", DATABASE, "--monitor", monitor_url, *common,
                    "--replication-quorum", "true", "--candidate-priority", "50", "--run",
                )  # fmt: skip
                if node is nodes[0]:
                    # One node at a time: the first is a primary alone before the second follows it.
                    made.wait_for({node.name: "single"}, START_SECONDS)
            # The standby is cloned by pg_basebackup, which waits for a spread checkpoint on the primary
            # (a minute or more): ask the primary for an immediate one meanwhile.
            made.wait_for(
                {nodes[0].name: "primary", nodes[1].name: "secondary"},
                START_SECONDS,
                meanwhile=lambda: runner.psql(nodes[0], DATABASE, "CHECKPOINT"),
            )
            yield made
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _wait_until_answers(runner: _Runner, node: Node, database: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            runner.psql(node, database, "SELECT 1")
            return
        except RuntimeError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"{node.name} never answered: {node.log.read_text(errors='replace')[-4000:]}"
                ) from None
            time.sleep(0.2)


def _stop_all(made: Formation) -> None:
    """Kill every keeper and every PostgreSQL of the formation: nothing is kept."""
    for node in (*made.nodes, made.monitor):
        running = _postgres_pids(node.data)
        if node.keeper is not None and node.keeper.poll() is None:
            with suppress(ProcessLookupError):
                os.killpg(node.keeper.pid, signal.SIGKILL)
            node.keeper.wait()
        for pid in running:
            _kill_quietly(pid)
