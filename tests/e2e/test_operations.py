"""Liveness, readiness and metrics."""

from __future__ import annotations

from litestar.testing import AsyncTestClient

from api.app import create_app
from api.bootstrap import bootstrap


async def test_health_ready_and_metrics(client):
    assert (await client.get("/health")).json() == {"status": "ok"}
    assert (await client.get("/ready")).json() == {"status": "ready"}
    await client.get("/v1/catalog")
    metrics = await client.get("/metrics")
    assert metrics.status_code == 200
    assert "kaiten_requests_total" in metrics.text


async def test_a_database_that_is_not_migrated_is_not_ready(empty_database_url):
    services = bootstrap(empty_database_url)
    try:
        async with AsyncTestClient(app=create_app(services)) as client:
            assert (await client.get("/health")).status_code == 200
            response = await client.get("/ready")
            assert response.status_code == 503
            assert response.json()["code"] == "not-ready"
    finally:
        await services.close()


async def test_an_unreachable_database_is_a_503_problem_not_a_500():
    services = bootstrap("postgresql+psycopg://postgres@127.0.0.1:1/nowhere")
    try:
        async with AsyncTestClient(app=create_app(services)) as client:
            response = await client.get("/v1/games/00000000-0000-0000-0000-000000000000")
            assert response.status_code == 503
            assert response.headers["content-type"].startswith("application/problem+json")
            assert response.json()["code"] == "database-unavailable"
            assert (await client.get("/ready")).status_code == 503
    finally:
        await services.close()
