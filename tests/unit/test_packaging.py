"""kaiten installs as one package, kaiten (issue 27 §4): the wheel holds the package and its files and
nothing under a generic top-level name, its `kaiten` command runs outside the repository, and no
module imports a folder by its bare name (which would load it a second time, outside the package)."""

from __future__ import annotations

import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("domain", "services", "adapters", "api", "migrations", "environments")
BARE_IMPORT = re.compile(rf"^\s*(?:from|import) ({'|'.join(FOLDERS)})\b", re.M)


def test_no_module_imports_a_folder_by_its_bare_name() -> None:
    tracked = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True)
    offenders = [
        f"{name}: {match[0].strip()}"
        for name in tracked.stdout.split()
        for match in BARE_IMPORT.finditer((ROOT / name).read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_every_folder_is_linked_into_the_package() -> None:
    package = ROOT / "kaiten"
    assert sorted(path.name for path in package.iterdir() if path.is_symlink()) == sorted(FOLDERS)
    assert all((package / folder).resolve() == ROOT / folder for folder in FOLDERS)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
        check=True,
        timeout=240,
    )
    (built,) = dist.glob("kaiten-*.whl")
    return built


def test_the_wheel_holds_the_package_and_nothing_at_the_top_level_but_it(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top_level == {"kaiten"}
    for folder in FOLDERS:
        assert f"kaiten/{folder}/__init__.py" in names
    assert "kaiten/api/web/index.html" in names
    assert "kaiten/migrations/script.py.mako" in names
    assert any(name.startswith("kaiten/migrations/versions/0001_") for name in names)


def test_the_installed_wheel_serves_its_command_outside_the_repository(wheel: Path, tmp_path: Path) -> None:
    """Installed without the repository on the path: the dependencies come from this environment."""
    environment = tmp_path / "venv"
    venv.create(environment)
    python = environment / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # The dependencies as this process finds them, through a path file rather than as site
    # directories, so that the editable kaiten of this environment is not installed there too.
    dependencies = [entry for entry in sys.path if entry and Path(entry).is_dir() and Path(entry).resolve() != ROOT]
    (Path(site) / "dependencies.pth").write_text("\n".join(dependencies) + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        timeout=120,
    )
    help_text = subprocess.run(
        [environment / "bin" / "kaiten", "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert help_text.returncode == 0, help_text.stderr
    assert "serve" in help_text.stdout and "simulate" in help_text.stdout
    where = subprocess.run(
        [python, "-c", "import kaiten.api.app, kaiten.environments, kaiten.domain; print(kaiten.domain.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert where.returncode == 0, where.stderr
    assert where.stdout.strip().startswith(site), where.stdout
