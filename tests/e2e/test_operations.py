"""Liveness, readiness and metrics."""

from __future__ import annotations

import json
import logging
import subprocess
import sys

import pytest

from kaiten.api.app import create_app
from kaiten.api.bootstrap import bootstrap
from kaiten.api.logging_setup import JsonLines
from kaiten.api.settings import RateLimit, Settings, SettingsError
from tests.app_client import AppClient
from tests.e2e.play import bearer, create

pytestmark = pytest.mark.one_store


async def test_health_ready_and_metrics(client):
    assert (await client.get("/health")).json() == {"status": "ok"}
    assert (await client.get("/ready")).json() == {"status": "ready", "auth": "open"}
    await client.get("/v1/catalog")
    metrics = await client.get("/metrics")
    assert metrics.status_code == 200
    assert "kaiten_requests_total" in metrics.text


async def test_a_database_that_is_not_migrated_is_not_ready(empty_database_url):
    services = bootstrap(empty_database_url)
    try:
        async with AppClient(app=create_app(services)) as client:
            assert (await client.get("/health")).status_code == 200
            response = await client.get("/ready")
            assert response.status_code == 503
            assert response.json()["code"] == "not-ready"
    finally:
        await services.close()


async def test_an_unreachable_database_is_a_503_problem_not_a_500():
    services = bootstrap("postgresql+psycopg://postgres@127.0.0.1:1/nowhere")
    try:
        async with AppClient(app=create_app(services)) as client:
            response = await client.get("/v1/games/00000000-0000-0000-0000-000000000000")
            assert response.status_code == 503
            assert response.headers["content-type"].startswith("application/problem+json")
            assert response.json()["code"] == "database-unavailable"
            assert (await client.get("/ready")).status_code == 503
    finally:
        await services.close()


async def test_ready_probes_write_nothing_to_the_log(client, caplog):
    caplog.set_level(logging.INFO)
    await client.get("/ready")
    caplog.clear()
    for _ in range(3):
        assert (await client.get("/ready")).status_code == 200
    written = [(r.name, r.getMessage()) for r in caplog.records if r.name not in ("kaiten.request", "httpx")]
    assert written == []


def limited_app(services, requests: int):
    return create_app(services, Settings(rate_limit=RateLimit(requests=requests, per="minute")))


async def test_a_client_over_the_rate_limit_gets_a_429_with_retry_after(services):
    async with AppClient(app=limited_app(services, 3)) as client:
        created = await create(client, "sushi-go", 2)
        token = bearer(created["tokens"]["0"])
        url = f"/v1/games/{created['id']}"
        # The creation was this address's first request; the seat token is a client of its own.
        for _ in range(3):
            assert (await client.get(url, headers=token)).status_code == 200
        refused = await client.get(url, headers=token)
        assert refused.status_code == 429
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["code"] == "rate-limited"
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        other_seat = bearer(created["tokens"]["1"])
        assert (await client.get(url, headers=other_seat)).status_code == 200
        for _ in range(2):
            assert (await client.get(url)).status_code == 200
        assert (await client.get(url)).status_code == 429
        # Probes are for the platform, never limited.
        for _ in range(5):
            assert (await client.get("/health")).status_code == 200


async def test_without_a_setting_there_is_no_limit(client):
    for _ in range(30):
        assert (await client.get("/v1/catalog")).status_code == 200


def test_the_rate_limit_setting_is_read_and_checked(monkeypatch):
    monkeypatch.setenv("KAITEN_RATE_LIMIT", "600/minute")
    assert Settings.from_env().rate_limit == RateLimit(requests=600, per="minute")
    monkeypatch.setenv("KAITEN_RATE_LIMIT", "lots")
    with pytest.raises(SettingsError, match="KAITEN_RATE_LIMIT"):
        Settings.from_env()
    monkeypatch.delenv("KAITEN_RATE_LIMIT")
    monkeypatch.setenv("KAITEN_LOG_LEVEL", "chatty")
    with pytest.raises(SettingsError, match="KAITEN_LOG_LEVEL"):
        Settings.from_env()
    monkeypatch.setenv("KAITEN_LOG_LEVEL", "warning")
    assert Settings.from_env().log_level == "WARNING"


def request_lines(caplog) -> list[dict]:
    formatter = JsonLines()
    return [json.loads(formatter.format(r)) for r in caplog.records if r.name == "kaiten.request"]


async def test_each_request_is_one_json_log_line_without_the_token(client, caplog):
    caplog.set_level(logging.INFO, logger="kaiten.request")
    created = await create(client, "sushi-go", 2)
    token = created["tokens"]["1"]
    caplog.clear()
    response = await client.get(f"/v1/games/{created['id']}/legal-commands", headers=bearer(token))
    assert response.status_code == 200
    (line,) = request_lines(caplog)
    assert line["request_id"] == response.headers["x-request-id"]
    assert line["method"] == "GET" and line["route"] == "/v1/games/{game_id}/legal-commands"
    assert line["status"] == 200 and line["duration_ms"] >= 0
    assert (line["game_id"], line["seat"]) == (created["id"], 1)
    assert line["level"] == "INFO" and line["logger"] == "kaiten.request"
    assert token not in caplog.text and all(token not in json.dumps(line) for line in request_lines(caplog))


async def test_a_request_id_is_kept_when_sent_and_made_when_not(client, caplog):
    caplog.set_level(logging.INFO, logger="kaiten.request")
    kept = await client.get("/v1/catalog", headers={"X-Request-ID": "trace-42.a:b"})
    assert kept.headers["x-request-id"] == "trace-42.a:b"
    made = await client.get("/v1/catalog", headers={"X-Request-ID": "no spaces or {braces} allowed"})
    assert len(made.headers["x-request-id"]) == 32 and made.headers["x-request-id"] != kept.headers["x-request-id"]
    unrouted = await client.get("/v1/nothing-here")
    assert unrouted.status_code == 404 and unrouted.headers["x-request-id"]
    lines = request_lines(caplog)
    assert lines[0]["request_id"] == "trace-42.a:b"
    assert lines[-1]["status"] == 404 and lines[-1]["route"] is None and lines[-1]["seat"] is None


def test_configured_logging_writes_json_lines_at_the_level_asked() -> None:
    # In a process of its own: configuring logging replaces every handler, the test runner's too.
    script = (
        "import logging; from api.logging_setup import configure_logging; configure_logging('WARNING'); "
        "logging.getLogger('kaiten.test').info('hidden'); logging.getLogger('kaiten.test').warning('shown %s', 1)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    (line,) = done.stderr.strip().splitlines()
    assert json.loads(line)["message"] == "shown 1" and json.loads(line)["level"] == "WARNING"
