"""kaiten, the installed package.

The folders the design fixes at the top of the repository (domain/, services/, adapters/, api/,
migrations/) and the research environments (environments/) are linked into this folder, so that they
install and import as kaiten.domain, kaiten.services... and no generic top-level name (domain, api)
clashes with an integrator's or a researcher's own modules. Every tool sees the same tree: Python's
import system, setuptools (editable installs and wheels), mypy and import-linter follow the links.
"""

import os as _os

if _os.environ.get("KAITEN_COMPILED"):
    # Before any module of the rules is imported: the compiled ones must be found first (kaiten.compiled).
    from pathlib import Path as _Path

    from kaiten.compiled import install as _install

    _install(_Path(_os.environ["KAITEN_COMPILED"]))
