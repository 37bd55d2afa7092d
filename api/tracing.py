"""OpenTelemetry traces, with the `otel` extra and `KAITEN_OTEL=1`: a span per request (Litestar's
OpenTelemetry plugin) with the SQL statements it ran as its children (the SQLAlchemy instrumentation
on the process's engines).

The exporter is configured by the standard `OTEL_*` variables: `OTEL_TRACES_EXPORTER` (`otlp`, the
default, over HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`;
`console`; `none`), `OTEL_SERVICE_NAME` (default `kaiten`), `OTEL_RESOURCE_ATTRIBUTES`,
`OTEL_TRACES_SAMPLER`. Nothing here imports OpenTelemetry until traces are on: without the extra the
service runs as before, and asking for traces without it is a setting error at start-up."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy import event

if TYPE_CHECKING:
    # Types alone: the settings import this module, and `kaiten serve`'s own process (which reads
    # them, then starts the workers that serve) needs nothing of Litestar's.
    from litestar.plugins.opentelemetry import OpenTelemetryPlugin
    from litestar.types import ASGIApp, Receive, Scope, Send
    from opentelemetry.sdk.trace import TracerProvider
    from sqlalchemy.ext.asyncio import AsyncEngine

#: The setting that turns traces on.
SETTING = "KAITEN_OTEL"
EXPORTERS = ("otlp", "console", "none")
#: Probes and scrapes come every few seconds from the platform: no trace of theirs.
UNTRACED_PATHS = ["^/health$", "^/ready$", "^/metrics$"]
INSTRUMENTATION = "kaiten"
#: What the `otel` extra brings that kaiten imports.
EXTRA_MODULES = (
    "opentelemetry.sdk.trace",
    "opentelemetry.instrumentation.asgi",
    "opentelemetry.instrumentation.sqlalchemy.engine",
    "opentelemetry.exporter.otlp.proto.http.trace_exporter",
    "litestar.plugins.opentelemetry",
)


def missing() -> str | None:
    """What of the `otel` extra cannot be imported, if anything."""
    for module in EXTRA_MODULES:
        try:
            importlib.import_module(module)
        except ImportError as error:
            return error.name or module
    return None


def exporter_name() -> str:
    return (os.environ.get("OTEL_TRACES_EXPORTER") or "otlp").strip().lower()


def problem(value: str | None) -> tuple[bool, str | None]:
    """Whether `KAITEN_OTEL` turns traces on, and what stops the service from starting with it."""
    setting = (value or "").strip().lower()
    if setting in ("", "0", "false", "off"):
        return False, None
    if setting not in ("1", "true", "on"):
        return False, f"{SETTING} must be 1 (traces on) or 0, not {value!r}"
    absent = missing()
    if absent is not None:
        return True, (
            f"{SETTING}=1 needs the otel extra, which is not installed ({absent} is missing): "
            "pip install 'kaiten[otel]', or unset KAITEN_OTEL"
        )
    if exporter_name() not in EXPORTERS:
        return True, f"OTEL_TRACES_EXPORTER must be one of {', '.join(EXPORTERS)} for kaiten, not {exporter_name()!r}"
    return True, None


def provider_from_env() -> TracerProvider:
    """A tracer provider that exports as the `OTEL_*` variables say (a batch at a time)."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SpanExporter

    named = "OTEL_SERVICE_NAME" in os.environ or "service.name=" in os.environ.get("OTEL_RESOURCE_ATTRIBUTES", "")
    provider = TracerProvider(resource=Resource.create({} if named else {SERVICE_NAME: "kaiten"}))
    exporter: SpanExporter | None = {
        "otlp": OTLPSpanExporter,
        "console": ConsoleSpanExporter,
    }.get(exporter_name(), lambda: None)()
    if exporter is not None:
        provider.add_span_processor(BatchSpanProcessor(exporter))
    return provider


def request_spans(provider: TracerProvider) -> OpenTelemetryPlugin:
    """Litestar's plugin: one server span per request, named by its route."""
    from litestar.plugins.opentelemetry import OpenTelemetryConfig, OpenTelemetryPlugin

    return OpenTelemetryPlugin(
        OpenTelemetryConfig(tracer_provider=provider, exclude=UNTRACED_PATHS, exclude_spans=["receive", "send"])
    )


def trace_statements(engines: Iterable[AsyncEngine | None], provider: TracerProvider) -> Callable[[], None]:
    """Every statement the engines run becomes a span, a child of whatever span is current (a
    request's); returns what takes the instrumentation off the engines again."""
    from opentelemetry.instrumentation.sqlalchemy.engine import EngineTracer
    from opentelemetry.metrics import NoOpMeterProvider

    # The engine tracer also counts connections through an OpenTelemetry meter: kaiten's pool figures
    # are Prometheus gauges (api/metrics.py), so that meter is a no-op one.
    usage = NoOpMeterProvider().get_meter(INSTRUMENTATION).create_up_down_counter("db.client.connections.usage")
    tracer = provider.get_tracer(INSTRUMENTATION)
    listeners: list[Any] = EngineTracer._remove_event_listener_params
    added_from = len(listeners)
    for engine in engines:
        if engine is not None:
            EngineTracer(tracer, engine.sync_engine, usage)  # type: ignore[no-untyped-call]
    ours = listeners[added_from:]
    del listeners[added_from:]

    def untrace() -> None:
        for target, identifier, listener in ours:
            engine = target()
            if engine is not None and event.contains(engine, identifier, listener):
                event.remove(engine, identifier, listener)

    return untrace


def spans_named_by_route(app: ASGIApp) -> ASGIApp:
    """A route's middleware: the request's span is named by its route's template (`POST
    /v1/games/{game_id}/commands`), not by the path it was opened with, which the plugin's span
    started with before the route was known."""

    async def named(scope: Scope, receive: Receive, send: Send) -> None:
        from opentelemetry import trace

        template = scope.get("path_template")
        if template:
            span = trace.get_current_span()
            span.update_name(f"{scope.get('method', scope['type'])} {template}")
            span.set_attribute("http.route", template)
        await app(scope, receive, send)

    return named
