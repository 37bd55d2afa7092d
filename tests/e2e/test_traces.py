"""OpenTelemetry traces (the `otel` extra, `KAITEN_OTEL=1`): a span per request, its SQL inside."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from kaiten.api.app import create_app
from kaiten.api.bootstrap import Services
from kaiten.api.settings import Settings, SettingsError
from tests.app_client import AppClient
from tests.e2e.play import bearer, create

pytestmark = pytest.mark.one_store

TRACED = Settings(traces=True)


@pytest.fixture
def exported() -> Iterator[tuple[TracerProvider, InMemorySpanExporter]]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield provider, exporter
    provider.shutdown()


@pytest.fixture
async def traced(services: Services, exported: tuple[TracerProvider, InMemorySpanExporter]) -> AsyncIterator[AppClient]:
    async with AppClient(app=create_app(services, TRACED, tracer_provider=exported[0])) as client:
        yield client


def request_span(spans: list[ReadableSpan], name: str) -> ReadableSpan:
    (span,) = [span for span in spans if span.kind is SpanKind.SERVER and span.name == name]
    return span


def statements_inside(spans: list[ReadableSpan], root: ReadableSpan) -> list[ReadableSpan]:
    """The SQL statements' spans of the root's trace, each checked to descend from the root."""
    assert root.context is not None
    by_id = {span.context.span_id: span for span in spans if span.context is not None}
    inside = []
    for span in spans:
        if span.context is None or span.context.trace_id != root.context.trace_id or not statement(span):
            continue
        ancestor: Any = span
        while ancestor.parent is not None and ancestor.parent.span_id != root.context.span_id:
            ancestor = by_id[ancestor.parent.span_id]
        assert ancestor.parent is not None, f"{span.name} is not inside {root.name}"
        assert span.kind is SpanKind.CLIENT
        inside.append(span)
    assert inside, f"no SQL statement inside {root.name}"
    return inside


def statement(span: ReadableSpan) -> str:
    attributes = span.attributes or {}
    return str(attributes.get("db.statement") or attributes.get("db.query.text") or "")


async def test_a_command_is_one_server_span_with_its_sql_statements_inside(traced, exported):
    _, exporter = exported
    created = await create(traced, "sushi-go", 2)
    token = bearer(created["tokens"]["0"])
    (first, *_) = (await traced.get(f"/v1/games/{created['id']}/legal-commands", headers=token)).json()["commands"]
    exporter.clear()
    sent = await traced.post(f"/v1/games/{created['id']}/commands", json=first, headers=token)
    assert sent.status_code == 200, sent.text

    spans = list(exporter.get_finished_spans())
    command = request_span(spans, "POST /v1/games/{game_id}/commands")
    assert command.parent is None
    assert (command.attributes or {})["http.route"] == "/v1/games/{game_id}/commands"
    inside = statements_inside(spans, command)
    # The append writes the events (and the game's summary row) inside the request's span.
    assert any("INSERT INTO events" in statement(span) for span in inside), [statement(span) for span in inside]
    assert all(span.end_time is not None and command.end_time is not None for span in inside)
    assert all(command.start_time <= span.start_time <= command.end_time for span in inside)  # type: ignore[operator]


async def test_a_creation_is_traced_too_and_probes_are_not(traced, exported):
    _, exporter = exported
    exporter.clear()
    await create(traced, "sushi-go", 2)
    assert (await traced.get("/ready")).status_code == 200
    assert (await traced.get("/metrics")).status_code == 200
    spans = list(exporter.get_finished_spans())
    creation = request_span(spans, "POST /v1/games")
    assert any("INSERT INTO events" in statement(span) for span in statements_inside(spans, creation))
    servers = {span.name for span in spans if span.kind is SpanKind.SERVER}
    assert not any(name.endswith(("/ready", "/metrics")) for name in servers), servers


async def test_without_the_setting_there_are_no_spans(services, exported):
    provider, exporter = exported
    # The provider is handed over, but traces are off: nothing is instrumented.
    async with AppClient(app=create_app(services, Settings(), tracer_provider=None)) as client:
        await create(client, "sushi-go", 2)
    assert exporter.get_finished_spans() == ()
    assert provider is not None


def test_the_setting_is_read_and_checked(monkeypatch):
    monkeypatch.setenv("KAITEN_OTEL", "1")
    assert Settings.from_env().traces is True
    monkeypatch.setenv("KAITEN_OTEL", "0")
    assert Settings.from_env().traces is False
    monkeypatch.setenv("KAITEN_OTEL", "yes please")
    with pytest.raises(SettingsError, match="KAITEN_OTEL"):
        Settings.from_env()
    monkeypatch.setenv("KAITEN_OTEL", "1")
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "jaeger")
    with pytest.raises(SettingsError, match="OTEL_TRACES_EXPORTER"):
        Settings.from_env()


def test_traces_without_the_extra_are_a_clear_start_up_error_not_a_traceback(tmp_path):
    # OpenTelemetry made unimportable, as in an installation without the extra.
    script = (
        "import sys; sys.modules['opentelemetry'] = None; from api.cli import main; "
        "sys.exit(main(['serve', '--port', '1']))"
    )
    env = {**os.environ, "KAITEN_OTEL": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'k.sqlite3'}"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "KAITEN_OTEL=1 needs the otel extra" in done.stderr and "kaiten[otel]" in done.stderr
    assert not (tmp_path / "k.sqlite3").exists()
