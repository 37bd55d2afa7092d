"""Mutation testing of one module with mutmut: a periodic check of the tests, not part of .ci/run.

    .venv/bin/python .ci/mutation.py domain/sushi_go_party/scoring.py

mutmut copies the code into ./mutants, runs the module's tests once to learn which test reaches which
function, then runs, for each mutant, only the tests that reach the function it changed. This script
gives mutmut one module to mutate and that module's own fast tests (TESTS below), runs a single worker
(the machine is shared), and prints the kill rate. CONTRIBUTING.md ("Mutation testing") has the figures.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _game_tests(game: str, *names: str) -> list[str]:
    return [f"tests/unit/{game}/{name}.py" for name in names]


#: The tests that speak for each module: fast example tests plus the bounded (CI profile) properties.
TESTS: dict[str, list[str]] = {
    "domain/sushi_go/scoring.py": _game_tests("sushi_go", "test_scoring", "test_properties"),
    "domain/sushi_go/decide.py": _game_tests("sushi_go", "test_rules", "test_picks", "test_properties"),
    "domain/sushi_go/evolve.py": _game_tests("sushi_go", "test_rules", "test_picks", "test_properties"),
    "domain/sushi_go/legal.py": _game_tests("sushi_go", "test_rules", "test_picks", "test_properties"),
    "domain/sushi_go_party/scoring.py": _game_tests("sushi_go_party", "test_scoring", "test_outcomes"),
    # Party's outcomes (rules version 2) and its golden logs (whole recorded games of version 1, played
    # again through version 1's turn machine) speak for its decide and evolve too.
    "domain/sushi_go_party/decide.py": [
        *_game_tests("sushi_go_party", "test_turns", "test_setup", "test_picks", "test_properties", "test_outcomes"),
        "tests/unit/test_golden_logs.py",
    ],
    "domain/sushi_go_party/evolve.py": [
        *_game_tests("sushi_go_party", "test_turns", "test_setup", "test_picks", "test_properties", "test_outcomes"),
        "tests/unit/test_golden_logs.py",
    ],
    "domain/sushi_go_party/legal.py": _game_tests("sushi_go_party", "test_turns", "test_picks", "test_properties"),
    "domain/spin_some/scoring.py": _game_tests("spin_some", "test_scoring", "test_properties"),
    "domain/spin_some/decide.py": _game_tests("spin_some", "test_turns", "test_picks", "test_properties"),
    "domain/spin_some/evolve.py": _game_tests("spin_some", "test_turns", "test_picks", "test_properties"),
    "domain/spin_some/legal.py": _game_tests("spin_some", "test_turns", "test_picks", "test_properties"),
    "domain/dim_sum_derby/scoring.py": _game_tests("dim_sum_derby", "test_scoring", "test_end"),
    "domain/dim_sum_derby/decide.py": _game_tests(
        "dim_sum_derby", "test_actions", "test_setup", "test_kitchen", "test_derby_cards", "test_end"
    ),
    "domain/dim_sum_derby/evolve.py": _game_tests(
        "dim_sum_derby", "test_actions", "test_setup", "test_kitchen", "test_derby_cards", "test_end"
    ),
    "domain/dim_sum_derby/legal.py": _game_tests(
        "dim_sum_derby", "test_actions", "test_derby_cards", "test_kitchen", "test_setup", "test_picks"
    ),
    "services/ratings.py": ["tests/unit/test_statistics.py"],
    "services/statistics.py": ["tests/unit/test_statistics.py"],
    "services/standings.py": ["tests/unit/test_standings.py"],
}

#: mutmut's exit codes (mutmut.stats) that mean the tests noticed the mutant.
KILLED = {"killed", "timeout", "segfault"}


def main(module: str) -> None:
    os.chdir(ROOT)
    os.environ["HYPOTHESIS_PROFILE"] = "ci"  # derandomized and bounded: the same verdicts on every run
    shutil.rmtree("mutants", ignore_errors=True)

    from mutmut import configuration

    config = configuration._load_config()
    config.only_mutate = [module]
    config.pytest_add_cli_args_test_selection = TESTS[module]
    configuration._config = config

    from mutmut.__main__ import _run
    from mutmut.mutation.diff_apply import get_diff_for_mutant
    from mutmut.stats import status_by_exit_code

    # mutmut's progress spinner goes to mutants/mutmut.log (at the descriptor level: workers are forked).
    Path("mutants").mkdir()
    terminal = os.dup(1)
    with open("mutants/mutmut.log", "w") as log:
        os.dup2(log.fileno(), 1)
        try:
            _run([], max_children=1)
        except SystemExit as stop:
            if stop.code:
                raise
        finally:
            sys.stdout.flush()
            os.dup2(terminal, 1)
    meta = json.loads((ROOT / "mutants" / f"{module}.meta").read_text())
    statuses = Counter(status_by_exit_code[code] for code in meta["exit_code_by_key"].values())
    killed = sum(statuses[status] for status in KILLED)
    total = sum(statuses.values())
    print(f"{module}: {killed}/{total} killed ({100 * killed / total:.0f}%), {dict(statuses)}")
    for name, code in sorted(meta["exit_code_by_key"].items()):
        if status_by_exit_code[code] not in KILLED:
            changed = [line for line in get_diff_for_mutant(name, path=module).splitlines() if line[:2] in ("- ", "+ ")]
            print(f"  {status_by_exit_code[code]}: {name}", *changed, sep="\n    ")


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in TESTS:
        sys.exit(f"usage: {sys.argv[0]} MODULE, one of:\n  " + "\n  ".join(TESTS))
    main(sys.argv[1])
