"""The rules' hottest modules compiled with mypyc: optional, built apart from the sources, used only
when asked for, and never when stale.

    python -m kaiten.compiled build build/compiled      # mypyc and a C compiler: the [compiled] extras
    KAITEN_COMPILED=build/compiled kaiten simulate ...  # any kaiten process, the service's bot workers too

`build` compiles `MODULES` into a folder of extension modules beside a manifest of their sources'
digests. A process started with `KAITEN_COMPILED` set to that folder imports them from there:
`kaiten/__init__.py` puts a finder in front of the import system before any of them is imported. When
a source changed since the build, or the build is another Python's, the process warns and imports
every module from its source, so a stale build never plays rules other than the sources'.

Why the build is kept out of the tree: an extension module beside its source shadows it (the import
system prefers extensions), so an edited source would change nothing until the next build.

What a compiled module holds: plain functions and classes over ints, lists and tuples (Sushi Go!'s bot
playouts, deals and scoring: what `kaiten simulate` and the search's rollouts spend their time in). No
msgspec struct is defined in one (msgspec reads a class's annotations, which a compiled class does not
keep: each game's calculator body lives in its `commands` module for this), and nothing replaces a
compiled module's functions at run time (its calls between its own functions are bound at build time).
Compiled code checks the declared types of what it is given (a field typed `int` is read as an int, so
`True` becomes 1): what a caller may get wrong is read as `object` and checked, as Sushi Go!'s `decide`
reads a pick's cards; the rest is what the service decoded with msgspec against those same types.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import warnings
from collections.abc import Mapping, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: The modules compiled, dependencies first.
MODULES: tuple[str, ...] = (
    "kaiten.domain.majority",
    "kaiten.domain.sushi_go.scoring",
    "kaiten.domain.sushi_go.decide",
    "kaiten.domain.sushi_go.evolve",
    "kaiten.domain.sushi_go.bots",
)
#: The environment variable naming the folder a build wrote.
ENVIRONMENT = "KAITEN_COMPILED"
MANIFEST = "manifest.json"
#: This Python's suffix for extension modules (a build is for one Python version and platform).
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
_PACKAGE = Path(__file__).resolve().parent


def source_of(module: str) -> Path:
    """The source file of one of `MODULES` (found without importing its package)."""
    return _PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")


def digest_of(module: str) -> str:
    return hashlib.sha256(source_of(module).read_bytes()).hexdigest()


_BUILD = """
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="kaiten-compiled",
    ext_modules=mypycify({sources!r}, opt_level={opt_level!r}, target_dir={generated!r}),
    script_args=["build_ext", "--build-lib", {lib!r}, "--build-temp", {temp!r}],
)
"""


def build(out: Path, opt_level: str = "3") -> list[str]:
    """Compile `MODULES` into `out` (replacing what an earlier build wrote there); the names of the
    extension modules written. Raises RuntimeError when mypyc or the C compiler fails.

    `opt_level` is the C compiler's: what a module does is mypyc's translation, the same at every
    level, and the tests build at 0, which takes the compiler a third of the time of 3 (and their
    rules' tests as long to run)."""
    root = _PACKAGE.parent
    sources = [str(source_of(module).relative_to(root)) for module in MODULES]
    digests = {module: digest_of(module) for module in MODULES}
    with tempfile.TemporaryDirectory(prefix="kaiten-compiled-") as work:
        lib = Path(work, "lib")
        script = textwrap.dedent(
            _BUILD.format(
                sources=sources, opt_level=opt_level, generated=f"{work}/c", lib=str(lib), temp=f"{work}/temp"
            )
        )
        # mypyc names each module by its path from the folder it runs in: the one holding kaiten/.
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=root,
            env={**os.environ, "MYPY_CACHE_DIR": f"{work}/mypy-cache"},
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"mypyc failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
        files = {_module_name(path.relative_to(lib)): path for path in lib.rglob(f"*{SUFFIX}")}
        if not set(MODULES) <= set(files):
            raise RuntimeError(f"mypyc built {sorted(files)}, not every one of {MODULES}")
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        for module, path in files.items():
            shutil.copy2(path, out / f"{module}{SUFFIX}")
    manifest = {"suffix": SUFFIX, "sources": digests, "extensions": sorted(files)}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return sorted(files)


def _module_name(relative: Path) -> str:
    """`kaiten/domain/sushi_go/bots.cpython-311-x86_64-linux-gnu.so` -> `kaiten.domain.sushi_go.bots`
    (mypyc's shared library of the group sits at the top: its own top-level name)."""
    return ".".join((*relative.parent.parts, relative.name.removesuffix(SUFFIX)))


class _CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the built extension modules, by name; everything else is left to the import system."""

    def __init__(self, files: Mapping[str, Path]) -> None:
        self._files = dict(files)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self._files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def install(folder: Path) -> bool:
    """Import `MODULES` from `folder` (a build) from now on; False, with a warning, when the build is
    missing, another Python's or stale, or a module was imported from its source already."""
    why = _unusable(folder)
    if why is None:
        manifest = json.loads((folder / MANIFEST).read_text())
        sys.meta_path.insert(0, _CompiledFinder({name: folder / f"{name}{SUFFIX}" for name in manifest["extensions"]}))
        return True
    warnings.warn(f"{ENVIRONMENT}={folder}: {why}; the rules run from their sources", RuntimeWarning, stacklevel=2)
    return False


def _unusable(folder: Path) -> str | None:
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError) as error:
        return f"no build there ({error})"
    if manifest.get("suffix") != SUFFIX:
        return f"built for {manifest.get('suffix')}, not this Python ({SUFFIX})"
    if set(manifest.get("sources", ())) != set(MODULES):
        return "built for other modules than kaiten.compiled.MODULES"
    stale = [module for module, digest in manifest["sources"].items() if digest_of(module) != digest]
    if stale:
        return f"{', '.join(stale)} changed since the build"
    imported = [module for module in MODULES if module in sys.modules]
    if imported:
        return f"{', '.join(imported)} imported from source already"
    return None


def compiled() -> list[str]:
    """Those of `MODULES` this process imported from a build."""
    return [
        module
        for module in MODULES
        if module in sys.modules and str(getattr(sys.modules[module], "__file__", "")).endswith(SUFFIX)
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m kaiten.compiled", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build_command = commands.add_parser("build", help=f"compile {', '.join(MODULES)} into a folder")
    build_command.add_argument("out", type=Path, help=f"the folder to write (then set {ENVIRONMENT} to it)")
    args = parser.parse_args(argv)
    if args.command == "build":
        try:
            built = build(args.out)
        except (RuntimeError, OSError) as error:
            sys.exit(f"{error}\n(mypyc comes with the [compiled] extras: pip install -e '.[compiled]')")
        print(f"built {len(built)} extension modules into {args.out}; run with {ENVIRONMENT}={args.out}")


if __name__ == "__main__":
    main()
