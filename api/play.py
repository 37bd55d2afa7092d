"""kaiten's own web client, served at /play: static ES modules that use only the public API.

No build step: the files are read once when the app is made, and each is also served under a name
that carries a digest of its bytes (`js/api.3f2a1b9c0d4e.js`), cached for good
(`Cache-Control: public, max-age=31536000, immutable`). The page itself (`/play`, `/play/`) is
revalidated on every visit (`no-cache` with an ETag, 304 when unchanged) and names the hashed files:
its stylesheet and first module directly (and every module as a `modulepreload`, fetched at once
rather than import by import), every other module through an import map whose keys are
the plain URLs the modules' relative imports resolve to (`./api.js` from `/play/js/x.<hash>.js` is
`/play/js/api.js`, which the map sends to `/play/js/api.<hash>.js`). So a changed file changes its
own URL alone, and the next visit's page points at it. The plain URLs still answer, revalidated like
the page. Everything under /play is gzip-compressed for a client that accepts it (the app's
CompressionConfig, which every other route opts out of: an event stream must not be buffered).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from litestar import Request, Response, Router, get
from litestar.exceptions import NotFoundException
from litestar.params import PathParameter

PLAY_PATH = "/play"
#: The client's files, shipped as package data (pyproject.toml) so that `kaiten serve` needs no build step.
WEB_FILES = Path(__file__).parent / "web"
#: The `opt` key with which a route opts out of the app's compression (api/app.py): all but /play.
UNCOMPRESSED = "uncompressed"
#: Hex digits of SHA-256 in a hashed name: 48 bits tell one version of a file from another.
DIGEST_CHARS = 12
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}
_FIRST_MODULE = re.compile(r'<script type="module" src="/play/([^"]+)"></script>')
_STYLESHEET = re.compile(r'<link rel="stylesheet" href="/play/([^"]+)">')


@dataclass(frozen=True, slots=True)
class WebFile:
    body: bytes
    media_type: str
    etag: str
    cache_control: str


def hashed_name(name: str, body: bytes) -> str:
    """`js/api.js` -> `js/api.<digest>.js`: the same directory, so relative imports resolve alike."""
    path = Path(name)
    digest = hashlib.sha256(body).hexdigest()[:DIGEST_CHARS]
    return str(path.with_name(f"{path.stem}.{digest}{path.suffix}").as_posix())


def _etag(body: bytes) -> str:
    return f'"{hashlib.sha256(body).hexdigest()[:32]}"'


class WebClient:
    """The client's files as served: by plain and by hashed name, and its page naming the hashed ones."""

    def __init__(self, root: Path = WEB_FILES) -> None:
        self.files: dict[str, WebFile] = {}
        #: Plain name -> hashed name, for every file but the page.
        self.hashed: dict[str, str] = {}
        for path in sorted(root.rglob("*")):
            name = path.relative_to(root).as_posix()
            if not path.is_file() or name == "index.html":
                continue
            body = path.read_bytes()
            media_type = MEDIA_TYPES.get(path.suffix, "application/octet-stream")
            self.hashed[name] = hashed_name(name, body)
            self.files[self.hashed[name]] = WebFile(body, media_type, _etag(body), IMMUTABLE)
            self.files[name] = WebFile(body, media_type, _etag(body), REVALIDATE)
        page = self.page((root / "index.html").read_text(encoding="utf-8")).encode()
        self.index = WebFile(page, MEDIA_TYPES[".html"], _etag(page), REVALIDATE)

    def page(self, html: str) -> str:
        """index.html naming the hashed files, with the import map of every module before its first one."""
        modules = {
            f"{PLAY_PATH}/{name}": f"{PLAY_PATH}/{hashed}"
            for name, hashed in self.hashed.items()
            if name.endswith(".js")
        }
        import_map = json.dumps({"imports": modules}, indent=1, sort_keys=True)
        # Every module asked for at once, rather than each once the module importing it has arrived.
        preloads = "".join(f'  <link rel="modulepreload" href="{url}">\n' for url in sorted(modules.values()))
        html = _STYLESHEET.sub(lambda found: found[0].replace(found[1], self.hashed[found[1]]), html)
        return _FIRST_MODULE.sub(
            lambda found: (
                f'<script type="importmap">\n{import_map}\n</script>\n{preloads}  '
                + found[0].replace(found[1], self.hashed[found[1]])
            ),
            html,
            count=1,
        )

    def answer(self, name: str, if_none_match: str | None) -> Response[bytes]:
        """The file of that name (the page for none), or 304 when the client holds it already."""
        served = self.index if name in ("", "index.html") else self.files.get(name)
        if served is None:
            raise NotFoundException(f"no file {name!r} in the web client")
        headers = {"Cache-Control": served.cache_control, "ETag": served.etag}
        if if_none_match is not None and served.etag in (tag.strip() for tag in if_none_match.split(",")):
            return Response(b"", status_code=304, headers=headers, media_type=served.media_type)
        return Response(served.body, headers=headers, media_type=served.media_type)


def play_router(client: WebClient | None = None) -> Router:
    """`/play` and `/play/` answer the page, every other path under /play/ a file of the client (by its
    plain or its hashed name); none of it is part of the OpenAPI document."""
    web = client or WebClient()

    @get(PLAY_PATH, include_in_schema=False, name="play", sync_to_thread=False)
    def page(request: Request[Any, Any, Any]) -> Response[bytes]:
        return web.answer("", request.headers.get("if-none-match"))

    @get(f"{PLAY_PATH}/{{file_path:path}}", include_in_schema=False, name="play-file", sync_to_thread=False)
    def file(request: Request[Any, Any, Any], file_path: Annotated[str, PathParameter()]) -> Response[bytes]:
        return web.answer(file_path.strip("/"), request.headers.get("if-none-match"))

    return Router(path="/", route_handlers=[page, file], opt={UNCOMPRESSED: False})
