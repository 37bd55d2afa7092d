"""Browser tests: kaiten's web client (/play) in Debian's Chromium, driven by Playwright, against a real
`kaiten serve` process.

Chromium comes from the system (`apt-get install chromium`): Playwright cannot download its own
browsers here. Without Chromium or Playwright the tests skip, saying why at the end of the run;
KAITEN_REQUIRE_BROWSER=1 (CI) makes that a failure. One open server (SQLite) serves the whole session,
with CORS open to a second, tiny static server that serves the same client from another origin; a
second server needs app keys (KAITEN_AUTH=keys), with one app made on it through the CLI.
Screenshots go to test-output/screenshots (gitignored), or KAITEN_SCREENSHOTS.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from unittest import mock

import httpx
import pytest

from kaiten.api.play import WEB_FILES
from tests import plain_http
from tests.e2e.servers import START_SECONDS, ServerProcess, free_port
from tests.loud_skips import skip_loudly

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("KAITEN_SCREENSHOTS", ROOT / "test-output" / "screenshots"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    # No network here: without these Chromium keeps trying to reach its update and sync services.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 900}
#: How long a page's actions and waits may take unless a test says otherwise.
TIMEOUT_MS = 15_000
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, for one test module at a time: Playwright's sync API runs an event loop in this thread
    while it is started, and the suite's asyncio tests cannot run beside it."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_loudly("Browser", "Playwright is not installed: pip install -e '.[test]'", "KAITEN_REQUIRE_BROWSER")
    executable = shutil.which("chromium")
    if executable is None:
        skip_loudly("Browser", "no Chromium on this machine: apt-get install -y chromium", "KAITEN_REQUIRE_BROWSER")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class _ClientFiles(SimpleHTTPRequestHandler):
    """Serves the client's files under /play/, as kaiten does, from another origin."""

    def translate_path(self, path: str) -> str:
        return super().translate_path(path.removeprefix("/play"))

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def other_origin() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), functools.partial(_ClientFiles, directory=str(WEB_FILES)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="session")
def kaiten(tmp_path_factory: pytest.TempPathFactory, other_origin: str) -> Iterator[str]:
    """The URL of a `kaiten serve` process on a fresh SQLite database, open to `other_origin`."""
    folder = tmp_path_factory.mktemp("kaiten-browser")
    with mock.patch.dict(os.environ, {"KAITEN_CORS_ORIGINS": other_origin}):
        server = ServerProcess(f"sqlite+aiosqlite:///{folder / 'kaiten.sqlite3'}", folder / "server.log")
    with _ready(server):
        yield server.url


@dataclass(frozen=True)
class KeysServer:
    """A `kaiten serve` process that needs app keys, and the key of an app made on it."""

    url: str
    app_key: str

    @property
    def app(self) -> dict[str, str]:
        """The headers of the app's requests."""
        return {"authorization": f"Bearer {self.app_key}"}


@pytest.fixture(scope="session")
def keys_kaiten(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KeysServer]:
    """A server as production runs one (KAITEN_AUTH=keys) on a fresh SQLite database, and an app made
    with `kaiten apps create`, which prints the app's key alone on standard output."""
    folder = tmp_path_factory.mktemp("kaiten-keys")
    database_url = f"sqlite+aiosqlite:///{folder / 'kaiten.sqlite3'}"
    server = ServerProcess(database_url, folder / "server.log", environment={"KAITEN_AUTH": "keys"})
    with _ready(server):
        made = subprocess.run(
            [sys.executable, "-m", "kaiten.api.cli", "apps", "create", "browser-tests"],
            env={**os.environ, "DATABASE_URL": database_url},
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=START_SECONDS,
            check=False,
        )
        assert made.returncode == 0, made.stderr
        assert plain_http.get(f"{server.url}/ready").json()["auth"] == "keys"
        yield KeysServer(server.url, made.stdout.strip())


@contextmanager
def _ready(server: ServerProcess) -> Iterator[None]:
    """Waits until the server answers /ready; kills it in the end."""
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _answers(f"{server.url}/ready"):
            assert server.process.poll() is None, f"the server exited: {server.log.read_text()}"
            assert time.monotonic() < deadline, f"the server was not ready in {START_SECONDS}s"
            time.sleep(0.1)
        yield
    finally:
        server.kill()


def _answers(url: str) -> bool:
    try:
        return plain_http.get(url).status_code == 200
    except httpx.TransportError:
        return False


@dataclass
class Watched:
    """A page and what went wrong on it: console errors and uncaught exceptions."""

    page: Any
    errors: list[str] = field(default_factory=list)
    #: Console errors a test caused on purpose (e.g. a stream it cut), matched by substring.
    expected: list[str] = field(default_factory=list)

    def unexpected(self) -> list[str]:
        return [error for error in self.errors if not any(part in error for part in self.expected)]


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    """Opens pages, each in a browser context of its own (its own local storage: another person),
    and fails the test if any of them logged a console error or threw."""
    opened: list[Watched] = []
    contexts: list[Any] = []

    def open_(url: str, viewport: dict[str, int] = DESKTOP) -> Watched:
        context = browser.new_context(viewport=viewport)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        watched = Watched(page)
        page.on("console", lambda message: message.type == "error" and watched.errors.append(message.text))
        page.on("pageerror", lambda error: watched.errors.append(f"uncaught: {error}"))
        opened.append(watched)
        page.goto(url)
        return watched

    yield open_
    for context in contexts:
        context.close()
    problems = [error for watched in opened for error in watched.unexpected()]
    assert not problems, f"console errors: {problems}"


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
