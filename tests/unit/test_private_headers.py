"""The headers that keep an answer under /v1 the caller's alone (api/caching.py)."""

from __future__ import annotations

from kaiten.api.caching import private_headers


def test_an_answer_that_said_nothing_is_private_and_varies_with_the_credential() -> None:
    given = [(b"content-type", b"application/json")]
    assert private_headers(given) == [
        (b"content-type", b"application/json"),
        (b"vary", b"Authorization, Origin"),
        (b"cache-control", b"private"),
    ]


def test_the_first_vary_takes_every_name_once_in_its_place_and_a_cache_control_said_stays() -> None:
    given = [
        (b"Vary", b"Origin, Accept-Encoding"),
        (b"cache-control", b"no-store"),
        (b"vary", b"authorization,Accept"),
        (b"etag", b'"3"'),
    ]
    assert private_headers(given) == [
        (b"vary", b"Authorization, Origin, Accept-Encoding, Accept"),
        (b"cache-control", b"no-store"),
        (b"etag", b'"3"'),
    ]
