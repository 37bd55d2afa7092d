"""httpx's one-shot requests, for the tests' servers, with one TLS context for all of them.

`httpx.get` and `httpx.post` make a client per call and each client its own TLS context, which loads
the CA bundle: 20 ms of CPU a request to a server that speaks plain HTTP. The browser tests poll
their servers this way, and the contexts took a ninth of the test workers' CPU (py-spy over the whole
suite). Each call here is still one-shot (a client of its own: no cookies or connections kept).
"""

from __future__ import annotations

import ssl
from typing import Any

import httpx

#: Made once, on first import; never used to connect (every URL here is http://).
TLS: ssl.SSLContext = httpx.create_ssl_context()


def get(url: str, **options: Any) -> httpx.Response:
    return httpx.get(url, verify=TLS, **options)


def post(url: str, **options: Any) -> httpx.Response:
    return httpx.post(url, verify=TLS, **options)


def async_client(**options: Any) -> httpx.AsyncClient:
    """An `httpx.AsyncClient` with the one TLS context: each client made its own (20 ms of CPU), and the
    tests of server processes make one for every few requests."""
    return httpx.AsyncClient(verify=TLS, **options)
