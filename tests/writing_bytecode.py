"""Loaded first (`-p tests.writing_bytecode` in pytest's options), before pytest imports its plugins:
lets every pytest process write the modules it rewrote for their assertions, whatever
PYTHONDONTWRITEBYTECODE says (set on some machines and CI runners, this one included).

pytest rewrites its plugins (hypothesis, schemathesis, faker and the rest: about 300 modules) and the
suite's test modules from source in every process that imports them, unless it finds them rewritten
before: without this, each xdist worker took 15 s of CPU to collect the suite, 9 of them rewriting.
Now the controller, which imports the plugins before its workers start, writes them once for all, and
a module is rewritten from source once, then read.
"""

from __future__ import annotations

import sys

sys.dont_write_bytecode = False
