"""kaiten serves its web client at /play: the page and its modules, small, complete, and outside the
OpenAPI document (the browser tests in tests/browser play it)."""

from __future__ import annotations

import re

from api.play import WEB_FILES

#: The client must stay small: no framework, no bundled fonts or images.
MAX_BYTES = 300_000
IMPORT = re.compile(r"""^\s*(?:import|export)\s[^"']*?from\s+["'](\.[^"']+)["']""", re.MULTILINE)


async def test_play_answers_the_page_and_its_modules(client):
    for path in ("/play", "/play/"):
        page = await client.get(path)
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert '<script type="module" src="/play/js/main.js">' in page.text
    module = await client.get("/play/js/main.js")
    assert module.status_code == 200
    assert "javascript" in module.headers["content-type"]
    assert (await client.get("/play/js/nowhere.js")).status_code == 404


async def test_play_is_not_part_of_the_api_document(client):
    document = (await client.get("/schema/openapi.json")).json()
    assert document["paths"], "no paths at all"
    assert not [path for path in document["paths"] if path.startswith("/play")]


def test_the_client_weighs_under_300_kb():
    total = sum(path.stat().st_size for path in WEB_FILES.rglob("*") if path.is_file())
    assert total < MAX_BYTES, f"{total} bytes"


def test_every_module_the_client_imports_is_shipped():
    modules = sorted(WEB_FILES.rglob("*.js"))
    assert len(modules) > 10
    for module in modules:
        for target in IMPORT.findall(module.read_text()):
            assert (module.parent / target).resolve().is_file(), f"{module.name} imports {target}, which is missing"
    for asset in re.findall(r'(?:src|href)="/play/([^"]+)"', (WEB_FILES / "index.html").read_text()):
        assert (WEB_FILES / asset).is_file(), asset
