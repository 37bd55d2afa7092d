"""The OpenAPI document and its docs UI, as served under /schema: typed, and with no CDN.

Both render plugins are Litestar's own, handed the typed document (`document.py`) instead of the one
Litestar generates. Swagger UI's files come from the swagger-ui-py package and are served by kaiten,
so the page works on a machine without internet access.
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path
from typing import Any

from litestar import Request, Router
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.static_files import create_static_files_router

from kaiten.api.contract.document import typed_document

ASSETS_PATH = "/schema/assets"


def _swagger_ui_files() -> Path:
    """The swagger-ui-py package's copy of Swagger UI (found, not imported: only its files are used)."""
    spec = find_spec("swagger_ui")
    if spec is None or spec.origin is None:
        raise RuntimeError("the swagger-ui-py package is missing: reinstall kaiten")
    return Path(spec.origin).parent / "static"


ASSETS = _swagger_ui_files()


class _TypedOnce:
    """The typed document of Litestar's, worked out once (Litestar hands the same dict every time)."""

    def __init__(self) -> None:
        self._source: dict[str, Any] | None = None
        self._typed: dict[str, Any] = {}

    def __call__(self, generated: dict[str, Any]) -> dict[str, Any]:
        if generated is not self._source:
            self._typed = typed_document(generated)
            self._source = generated
        return self._typed


class TypedJsonRenderPlugin(JsonRenderPlugin):
    def __init__(self, typed: _TypedOnce) -> None:
        super().__init__()
        self._typed = typed

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, self._typed(openapi_schema))


class OfflineSwaggerRenderPlugin(SwaggerRenderPlugin):
    def __init__(self, typed: _TypedOnce) -> None:
        super().__init__(
            js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            css_url=f"{ASSETS_PATH}/swagger-ui.css",
            standalone_preset_js_url=f"{ASSETS_PATH}/swagger-ui-standalone-preset.js",
            favicon=f"<link rel='icon' type='image/png' href='{ASSETS_PATH}/favicon-32x32.png'>",
            path="/swagger",
        )
        self._typed = typed

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, self._typed(openapi_schema))


def render_plugins() -> list[JsonRenderPlugin | SwaggerRenderPlugin]:
    """Swagger UI first: it is the page at /schema."""
    typed = _TypedOnce()
    return [OfflineSwaggerRenderPlugin(typed), TypedJsonRenderPlugin(typed)]


def assets_router() -> Router:
    return create_static_files_router(path=ASSETS_PATH, directories=[ASSETS], include_in_schema=False)
