"""kaiten serves its web client at /play: the page and its modules, small, complete, and outside the
OpenAPI document (the browser tests in tests/browser play it); hashed names cached for good, the page
revalidated, everything compressed for a client that accepts it (api/play.py)."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path

import pytest

from kaiten.api.play import IMMUTABLE, WEB_FILES, WebClient

pytestmark = pytest.mark.one_store

#: The client must stay small: no framework, no bundled fonts or images.
MAX_BYTES = 300_000
IMPORT = re.compile(r"""^\s*(?:import|export)\s[^"']*?from\s+["'](\.[^"']+)["']""", re.MULTILINE)
HASHED = re.compile(r"^/play/(?:[\w-]+/)*[\w-]+\.[0-9a-f]{12}\.(?:js|css)$")
IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.DOTALL)


def referenced(page: str) -> tuple[set[str], dict[str, str]]:
    """The /play URLs the page names (src, href), and its import map."""
    urls = set(re.findall(r'(?:src|href)="(/play/[^"]+)"', page))
    found = IMPORT_MAP.search(page)
    assert found, "the page has no import map"
    imports: dict[str, str] = json.loads(found[1])["imports"]
    return urls, imports


async def test_play_answers_the_page_and_its_modules(client):
    for path in ("/play", "/play/"):
        page = await client.get(path)
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert re.search(r'<script type="module" src="/play/js/main\.[0-9a-f]{12}\.js">', page.text)
    module = await client.get("/play/js/main.js")
    assert module.status_code == 200
    assert "javascript" in module.headers["content-type"]
    assert module.headers["cache-control"] == "no-cache" and module.headers["etag"]
    assert (await client.get("/play/js/nowhere.js")).status_code == 404
    assert (await client.get("/play/js/main.000000000000.js")).status_code == 404


async def test_the_page_is_revalidated_and_answers_304_when_unchanged(client):
    page = await client.get("/play/")
    assert page.headers["cache-control"] == "no-cache"
    etag = page.headers["etag"]
    again = await client.get("/play/", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag and again.headers["cache-control"] == "no-cache"
    assert (await client.get("/play/", headers={"if-none-match": '"other"'})).status_code == 200


async def test_every_url_the_page_names_is_hashed_and_cached_for_good(client):
    urls, imports = referenced((await client.get("/play/")).text)
    plain = {f"/play/{path.relative_to(WEB_FILES).as_posix()}" for path in WEB_FILES.rglob("*.js")}
    assert set(imports) == plain, "every module's plain URL is mapped"
    for url in urls | set(imports.values()):
        assert HASHED.match(url), url
        answer = await client.get(url)
        assert answer.status_code == 200, url
        assert answer.headers["cache-control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    for plain_url, hashed in imports.items():
        assert (await client.get(plain_url)).content == (await client.get(hashed)).content


async def test_the_client_is_compressed_when_the_browser_accepts_it(client):
    for url in ("/play/", "/play/js/main.js", "/play/style.css"):
        squeezed = await client.get(url, headers={"accept-encoding": "gzip"})
        assert squeezed.headers["content-encoding"] == "gzip", url
        assert "accept-encoding" in squeezed.headers["vary"].lower()
        plain = await client.get(url, headers={"accept-encoding": "identity"})
        assert "content-encoding" not in plain.headers, url
        assert squeezed.content == plain.content  # httpx inflated it
        assert int(squeezed.headers["content-length"]) < len(gzip.compress(plain.content)) + 64
    # The API and its event streams are sent as written.
    catalog = await client.get("/v1/catalog", headers={"accept-encoding": "gzip"})
    assert catalog.status_code == 200 and "content-encoding" not in catalog.headers


def test_a_changed_file_changes_its_url_alone(tmp_path: Path):
    before = WebClient()
    copy = tmp_path / "web"
    shutil.copytree(WEB_FILES, copy)
    names = copy / "js" / "names.js"
    names.write_text(names.read_text() + "\n// changed\n")
    after = WebClient(copy)
    assert after.hashed["js/names.js"] != before.hashed["js/names.js"]
    assert {name: url for name, url in after.hashed.items() if name != "js/names.js"} == {
        name: url for name, url in before.hashed.items() if name != "js/names.js"
    }
    _, imports = referenced(after.index.body.decode())
    assert imports["/play/js/names.js"] == f"/play/{after.hashed['js/names.js']}"
    assert after.index.etag != before.index.etag


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
