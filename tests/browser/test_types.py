"""The web client's modules are JSDoc-typed JavaScript, checked by `tsc --checkJs --noEmit` against the
types openapi-typescript generates from openapi/openapi.json ("kaiten-schema" in api/web/js/types.js).

The tools come from the npm registry into a temporary folder. Without node and npm the test skips,
saying why; CI has them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from kaiten.api.play import WEB_FILES

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

COMPILER_OPTIONS = {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "allowJs": True,
    "checkJs": True,
    "strict": True,
    "noEmit": True,
    "skipLibCheck": True,
    "lib": ["ES2023", "DOM", "DOM.Iterable"],
    "paths": {"kaiten-schema": ["./schema.d.ts"]},
}


def run(command: list[str], folder: Path) -> str:
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def checker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("no node and npm on this machine: the web client's JSDoc types are not checked")
    folder = tmp_path_factory.mktemp("web-types")
    shutil.copy(HERE / "types" / "package.json", folder / "package.json")
    run(["npm", "install", "--no-package-lock", "--no-audit", "--no-fund", "--silent"], folder)
    schema = ["npx", "openapi-typescript", str(ROOT / "openapi" / "openapi.json"), "--output", "schema.d.ts"]
    run([*schema, "--default-non-nullable", "false"], folder)
    return folder


@pytest.fixture(scope="module")
def checked(checker: Path) -> subprocess.CompletedProcess[str]:
    """One `tsc` run over the web client's modules and over a copy of them with a field the API does
    not have: each module keeps its own scope, so the copy's error is reported in the copy alone, and
    the compiler starts once for both (a run is seconds of CPU)."""
    mutated = checker / "mutated" / "js"
    shutil.copytree(WEB_FILES / "js", mutated)
    board = mutated / "games" / "spin-some.js"
    board.write_text(board.read_text().replace("player.squishy_bun ?", "player.squishy_bunn ?"))
    config = {"compilerOptions": COMPILER_OPTIONS, "include": [f"{WEB_FILES / 'js'}/**/*.js", "mutated/js/**/*.js"]}
    (checker / "tsconfig.json").write_text(json.dumps(config))
    return subprocess.run(
        ["npx", "tsc", "--project", "."], cwd=checker, capture_output=True, text=True, timeout=300, check=False
    )


def errors(checked: subprocess.CompletedProcess[str], mutated: bool) -> list[str]:
    """The compiler's errors in the web client's own modules, or in the copy's."""
    lines = [line for line in checked.stdout.splitlines() if "error TS" in line]
    return [line for line in lines if line.startswith("mutated/") == mutated]


def test_the_web_client_type_checks_against_the_generated_types(checked: subprocess.CompletedProcess[str]) -> None:
    assert errors(checked, mutated=False) == [], checked.stdout + checked.stderr


def test_the_check_catches_a_field_the_api_does_not_have(checked: subprocess.CompletedProcess[str]) -> None:
    found = errors(checked, mutated=True)
    assert checked.returncode != 0 and found, checked.stdout + checked.stderr
    assert all("spin-some.js" in line and "squishy_bunn" in line for line in found), found
