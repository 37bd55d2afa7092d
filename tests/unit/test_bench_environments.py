"""bench/environments.py's instruction count: what it reads of valgrind's output, and its arithmetic."""

from __future__ import annotations

import pytest

from bench.environments import callgrind_instructions, per_play

CALLGRIND_STDERR = """==4242== Callgrind, a call-graph generating cache profiler
==4242== Events    : Ir
==4242== Collected : 1,575,371,632
==4242==
==4242== I   refs:      1,575,371,632
"""


def test_the_instructions_are_those_callgrind_collected() -> None:
    assert callgrind_instructions(CALLGRIND_STDERR) == 1_575_371_632


def test_output_without_a_count_is_refused() -> None:
    with pytest.raises(ValueError, match="no instruction count"):
        callgrind_instructions("valgrind: command not found")


def test_a_step_costs_the_difference_between_two_runs_over_their_extra_steps() -> None:
    # The imports and the first game's warm-up are in both runs, and cancel out.
    assert per_play((79, 1_403_964_436), (913, 1_575_371_632)) == pytest.approx(171_407_196 / 834)


def test_runs_without_extra_steps_are_refused() -> None:
    with pytest.raises(ValueError, match="no more steps"):
        per_play((10, 100), (10, 200))
