"""kaiten's own web client, served at /play: static ES modules that use only the public API."""

from __future__ import annotations

from pathlib import Path

from litestar import Router
from litestar.static_files import create_static_files_router

PLAY_PATH = "/play"
#: The client's files, shipped as package data (pyproject.toml) so that `kaiten serve` needs no build step.
WEB_FILES = Path(__file__).parent / "web"


def play_router() -> Router:
    """`/play` and `/play/` answer index.html (which loads its modules by absolute /play/ URLs, so both
    work), every other file under /play/ is itself; none of it is part of the OpenAPI document."""
    return create_static_files_router(
        path=PLAY_PATH, directories=[WEB_FILES], html_mode=True, include_in_schema=False, name="play"
    )
