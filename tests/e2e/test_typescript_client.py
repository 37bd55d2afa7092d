"""A TypeScript client built with openapi-typescript and openapi-fetch type-checks against our document.

tests/typescript/client.ts plays a game through the generated types and holds mistakes the types
must catch (`@ts-expect-error`). The tools come from the npm registry into a temporary folder; with
no `node` on the machine the test skips, saying why (CI has node).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "tests" / "typescript"


def run(command: list[str], folder: Path) -> str:
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="no node and npm on this machine: the TypeScript client is not type-checked",
)
def test_a_typescript_client_type_checks_against_the_generated_types(tmp_path: Path) -> None:
    for name in ("package.json", "tsconfig.json", "client.ts"):
        shutil.copy(SOURCES / name, tmp_path / name)
    run(["npm", "install", "--no-package-lock", "--no-audit", "--no-fund", "--silent"], tmp_path)
    run(
        [
            "npx",
            "openapi-typescript",
            str(ROOT / "openapi" / "openapi.json"),
            "--output",
            "schema.d.ts",
            # Request fields with a default stay optional (the tool's default makes them required).
            "--default-non-nullable",
            "false",
        ],
        tmp_path,
    )
    run(["npx", "tsc", "--project", "."], tmp_path)
