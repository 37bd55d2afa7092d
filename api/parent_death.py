"""Serving workers that die with the `kaiten serve` process that started them.

granian runs the app in child processes, even with one worker. A SIGKILL of `kaiten serve` (a
process manager's last resort, which no process can handle) would leave those children serving,
orphaned, holding the port. Linux kills a child when its parent dies if the child asks for it
(prctl PR_SET_PDEATHSIG): `kaiten serve` names itself in KAITEN_WORKER_OF, and each worker asks.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

WORKER_OF = "KAITEN_WORKER_OF"
_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """In a worker of `kaiten serve`, be killed when it dies; elsewhere, nothing."""
    parent = os.environ.get(WORKER_OF)
    if parent is None or not sys.platform.startswith("linux") or os.getpid() == int(parent):
        return
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    # The parent may have died before the request took effect: then no signal would ever come.
    if os.getppid() != int(parent):
        os.kill(os.getpid(), signal.SIGKILL)
