"""While there is no primary (a failover in progress), a request answers a clean 503 problem with
`Retry-After`, never a 500; and a URL naming every node of a formation reaches the writable one, for
the pool as for the LISTEN connection (tests/e2e/test_failover.py runs a real failover)."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import make_url

from kaiten.adapters.database import async_url
from kaiten.adapters.notify import libpq_conninfo
from kaiten.api.app import create_app
from kaiten.api.bootstrap import bootstrap
from kaiten.api.errors import UNAVAILABLE_RETRY_AFTER_SECONDS
from tests.app_client import AppClient
from tests.e2e.servers import free_port

TWO_PEOPLE = {"game": "sushi-go", "players": 2, "seats": [{"name": "ann"}, {"name": "bob"}]}


def test_a_multi_host_url_reaches_libpq_with_every_host() -> None:
    url = async_url("postgresql://kaiten@/kaiten?host=10.0.0.1:5432&host=10.0.0.2:5433&target_session_attrs=read-write")
    conninfo = libpq_conninfo(url)
    assert "host=10.0.0.1,10.0.0.2" in conninfo
    assert "port=5432,5433" in conninfo
    assert "target_session_attrs=read-write" in conninfo
    # libpq's own form (hosts and ports as lists) is read the same way.
    same = async_url(
        "postgresql://kaiten@/kaiten?host=10.0.0.1,10.0.0.2&port=5432,5433&target_session_attrs=read-write"
    )
    assert set(libpq_conninfo(same).split()) == set(conninfo.split())
    # A plain URL keeps its password, host and port.
    plain = libpq_conninfo(async_url("postgresql+psycopg://u:p%40ss@db.example:6543/games"))
    assert {"host=db.example", "port=6543", "dbname=games", "user=u", "password=p@ss"} <= set(plain.split())


def _problem_503(response: object) -> None:
    assert response.status_code == 503, response.text  # type: ignore[attr-defined]
    assert response.headers["content-type"].startswith("application/problem+json")  # type: ignore[attr-defined]
    assert response.json()["code"] == "database-unavailable"  # type: ignore[attr-defined]
    assert response.headers["retry-after"] == str(UNAVAILABLE_RETRY_AFTER_SECONDS)  # type: ignore[attr-defined]


async def test_no_node_reachable_is_a_503_with_retry_after() -> None:
    ports = free_port(), free_port()
    hosts = "&".join(f"host=127.0.0.1:{port}" for port in ports)
    services = bootstrap(f"postgresql+psycopg://postgres@/kaiten?{hosts}&target_session_attrs=read-write")
    try:
        async with AppClient(app=create_app(services)) as client:
            _problem_503(await client.post("/v1/games", json=TWO_PEOPLE))
            _problem_503(await client.get("/v1/games/00000000-0000-0000-0000-000000000000"))
    finally:
        await services.close()


@pytest.mark.postgres
async def test_a_server_that_takes_no_writes_is_a_503_not_a_500(postgres_url: str) -> None:
    """A write that reaches a read-only server (a standby, a demoted primary) fails with SQLSTATE 25006;
    the request is answered as the database being unavailable for now."""
    read_only = make_url(postgres_url).update_query_dict({"options": "-c default_transaction_read_only=on"})
    services = bootstrap(read_only.render_as_string(hide_password=False))
    try:
        async with AppClient(app=create_app(services)) as client:
            _problem_503(await client.post("/v1/games", json=TWO_PEOPLE))
    finally:
        await services.close()
