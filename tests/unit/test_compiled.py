"""The compiled rules (kaiten/compiled.py) are tested both ways: a build plays the very games the
sources play and passes the rules' own tests, and a build that is stale, another Python's or too late
is never used."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import msgspec
import pytest

from kaiten import compiled
from kaiten.domain.catalog import get_game
from kaiten.services import simulation
from tests.loud_skips import skip_loudly

ROOT = Path(__file__).resolve().parents[2]
#: Set to 1 (CI) to fail rather than skip when this machine cannot build the compiled rules.
REQUIRED = "KAITEN_REQUIRE_COMPILER"
#: The rules' tests run again on the compiled modules.
RULES_TESTS = (
    "tests/unit/sushi_go",
    "tests/unit/test_bot_playouts.py",
    "tests/unit/test_golden_logs.py",
    "tests/unit/test_mcts.py",
    "tests/unit/test_bench_reference.py",
)

FINGERPRINT = """
import hashlib, json, sys
from kaiten import compiled
from tests.unit.test_compiled import fingerprint
print(json.dumps({"compiled": compiled.compiled(), "fingerprint": fingerprint()}))
"""


def fingerprint() -> str:
    """Whole Sushi Go! games of random and greedy bots, 2 to 6 players: final tables, log lengths, decisions."""
    game = get_game("sushi-go")
    digest = hashlib.sha256()
    for players in range(2, 7):
        for bots in (["random"], ["greedy"], ["random", "greedy"]):
            for seed in range(3):
                chosen = simulation._OneGenerator()
                table, length = simulation.play_game(
                    game, [bots[s % len(bots)] for s in range(players)], seed, bots=chosen
                )
                digest.update(msgspec.json.encode(table) + str((length, chosen.decisions)).encode())
    return digest.hexdigest()


def run_python(code: str, folder: Path | None, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != compiled.ENVIRONMENT}
    if folder is not None:
        env[compiled.ENVIRONMENT] = str(folder)
    return subprocess.run(
        [sys.executable, *args, "-c", code] if code else [sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_build_plays_the_games_the_sources_play_and_passes_the_rules_tests(tmp_path: Path) -> None:
    if shutil.which(os.environ.get("CC", "cc")) is None:
        skip_loudly("Compiled rules", "no C compiler here: apt-get install -y gcc", REQUIRED)
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        skip_loudly("Compiled rules", "no Python headers here: apt-get install -y python3-dev", REQUIRED)
    folder = tmp_path / "compiled"
    built = compiled.build(folder, opt_level="0")
    assert set(compiled.MODULES) <= set(built)

    done = run_python(FINGERPRINT, folder)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["compiled"] == list(compiled.MODULES)
    assert answer["fingerprint"] == fingerprint()

    # A warning that the build is not used fails the run (-W error), so these tests ran compiled.
    tests = run_python(
        "",
        folder,
        "-W",
        "error::RuntimeWarning:kaiten",
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-n",
        "0",
        "-q",
        # The golden logs of the other games replay through modules that are not compiled.
        "-k",
        "not test_golden_logs or (sushi-go and not party)",
        *RULES_TESTS,
    )
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-3000:]
    assert " passed" in tests.stdout


def _manifest(folder: Path, **changes: object) -> Path:
    """A build's manifest with its real digests (no extension module: every case here stops before)."""
    folder.mkdir()
    manifest = {
        "suffix": compiled.SUFFIX,
        "sources": {module: compiled.digest_of(module) for module in compiled.MODULES},
        "extensions": list(compiled.MODULES),
        **changes,
    }
    (folder / compiled.MANIFEST).write_text(json.dumps(manifest))
    return folder


STALE = {
    "a source changed": (
        {"sources": {module: hashlib.sha256(b"before").hexdigest() for module in compiled.MODULES}},
        "changed since the build",
    ),
    "another Python": ({"suffix": ".cpython-39-x86_64-linux-gnu.so"}, "not this Python"),
    "other modules": ({"sources": {"kaiten.domain.majority": "0" * 64}}, "other modules"),
}


@pytest.mark.parametrize("case", sorted(STALE))
def test_a_build_that_does_not_match_the_sources_is_not_used(tmp_path: Path, case: str) -> None:
    changes, why = STALE[case]
    folder = _manifest(tmp_path / "compiled", **changes)
    done = run_python(FINGERPRINT.replace(', "fingerprint": fingerprint()', ""), folder)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["compiled"] == []
    assert why in done.stderr and "the rules run from their sources" in done.stderr


def test_no_build_there_is_said_and_the_sources_run(tmp_path: Path) -> None:
    done = run_python("from kaiten import compiled; print(compiled.compiled())", tmp_path / "nothing")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    assert "no build there" in done.stderr


def test_a_build_is_not_swapped_in_once_the_sources_are_imported(tmp_path: Path) -> None:
    folder = _manifest(tmp_path / "compiled")
    finders = list(sys.meta_path)
    with pytest.warns(RuntimeWarning, match="imported from source already"):
        assert not compiled.install(folder)
    assert sys.meta_path == finders
