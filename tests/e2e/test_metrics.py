"""The Prometheus metrics: README.md's list is what `/metrics` exposes, the backlogs and pools are
measured, and the Grafana dashboard (docs/grafana/kaiten.json) queries only exposed metrics."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from kaiten.adapters.schema import deadlines, webhook_deliveries
from kaiten.api.app import create_app
from kaiten.api.bootstrap import Services, bootstrap
from tests.app_client import AppClient
from tests.e2e.play import bearer, create

pytestmark = pytest.mark.one_store

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DASHBOARD = ROOT / "docs" / "grafana" / "kaiten.json"
SECTION = "## Metrics, traces and a dashboard"
#: What the client library exposes of the process and the interpreter, besides kaiten's own.
LIBRARY_PREFIXES = ("process_", "python_")
#: A database nobody listens on: its requests answer 503.
UNREACHABLE = "postgresql+psycopg://postgres@127.0.0.1:1/nowhere"


def documented() -> dict[str, tuple[str, set[str]]]:
    """README's metrics: name → (type, labels)."""
    text = README.read_text()
    section = text[text.index(SECTION) : text.index("\n## ", text.index(SECTION) + 1)]
    rows = re.findall(r"^\| `(kaiten_\w+)` \| (\w+) \|([^|]*)\|", section, re.MULTILINE)
    assert len(rows) >= 10, rows
    return {name: (kind, set(re.findall(r"`(\w+)`", labels))) for name, kind, labels in rows}


def families(exposition: str) -> dict[str, str]:
    """Every metric family of a scrape (`# TYPE` lines) → its type."""
    return dict(re.findall(r"^# TYPE (\S+) (\S+)$", exposition, re.MULTILINE))


def sample_labels(exposition: str, name: str) -> set[str]:
    labels: set[str] = set()
    for line in exposition.splitlines():
        match = re.match(rf"^{name}(?:_bucket|_sum|_count)?\{{(.*)\}} ", line)
        if match:
            labels |= {label for label in re.findall(r'(\w+)="', match.group(1)) if label != "le"}
    return labels


def own(exposed: dict[str, str]) -> dict[str, str]:
    """kaiten's families, less the `_created` series the library adds beside counters and histograms."""
    return {
        name: kind
        for name, kind in exposed.items()
        if name.startswith("kaiten_")
        and not (name.endswith("_created") and kind == "gauge" and _creates(name.removesuffix("_created"), exposed))
    }


def _creates(base: str, exposed: dict[str, str]) -> bool:
    return exposed.get(f"{base}_total") == "counter" or exposed.get(base) == "histogram"


async def scrape_after_every_kind_of_request(client: AppClient) -> str:
    """A scrape once the server answered a creation, a command and, elsewhere, a 5xx (the request
    metrics appear with their first request, the errors' with the first 5xx)."""
    created = await create(client, "sushi-go", 2)
    token = bearer(created["tokens"]["0"])
    (first, *_) = (await client.get(f"/v1/games/{created['id']}/legal-commands", headers=token)).json()["commands"]
    assert (await client.post(f"/v1/games/{created['id']}/commands", json=first, headers=token)).status_code == 200
    unreachable = bootstrap(UNREACHABLE)
    try:
        async with AppClient(app=create_app(unreachable)) as failing:
            assert (await failing.get("/ready")).status_code == 503
    finally:
        await unreachable.close()
    response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return response.text


async def test_the_readmes_metrics_are_exactly_what_the_server_exposes(client):
    exposition = await scrape_after_every_kind_of_request(client)
    exposed = families(exposition)
    listed = documented()
    assert own(exposed).keys() == listed.keys()
    for name, (kind, labels) in listed.items():
        assert exposed[name] == kind, name
        seen = sample_labels(exposition, name)
        # A labelled metric shows its labels once it has a sample (a projection's once it ran).
        assert seen <= labels and (seen == labels or not seen), (name, seen, labels)
    assert sample_labels(exposition, "kaiten_requests_total") == {"method", "path", "status_code", "app_name"}
    assert 'path="/v1/games/{game_id}/commands"' in exposition
    others = {name for name in exposed if not name.startswith("kaiten_")}
    assert others and all(name.startswith(LIBRARY_PREFIXES) for name in others), others


@pytest.fixture
async def own_client(own_services: Services) -> AsyncIterator[AppClient]:
    async with AppClient(app=create_app(own_services)) as test_client:
        yield test_client


def gauge(exposition: str, sample: str) -> float:
    (value,) = re.findall(rf"^{re.escape(sample)} (\S+)$", exposition, re.MULTILINE)
    return float(value)


async def test_the_backlogs_are_counted_in_the_database_and_the_pool_read_from_the_engine(own_client, own_services):
    engine = own_services.engine
    assert engine is not None
    now = datetime.now(UTC)
    scraped = (await own_client.get("/metrics")).text
    assert gauge(scraped, "kaiten_webhook_deliveries_pending") == 0
    assert gauge(scraped, "kaiten_webhook_oldest_pending_seconds") == 0
    assert gauge(scraped, "kaiten_deadlines_due") == 0
    delivery = {"webhook_id": "w", "game_id": "g", "event": "turn", "body": "{}", "attempts": 0}
    async with engine.begin() as connection:
        await connection.execute(
            sa.insert(webhook_deliveries),
            [
                {
                    **delivery,
                    "version": 1,
                    "status": "pending",
                    "next_attempt_at": now,
                    "created_at": now - timedelta(minutes=5),
                },
                {**delivery, "version": 2, "status": "pending", "next_attempt_at": now, "created_at": now},
                {
                    **delivery,
                    "version": 3,
                    "status": "delivered",
                    "next_attempt_at": now,
                    "created_at": now - timedelta(hours=1),
                },
            ],
        )
        await connection.execute(
            sa.insert(deadlines),
            [
                {"game_id": "due-1", "version": 1, "due_at": now - timedelta(seconds=1)},
                {"game_id": "due-2", "version": 1, "due_at": now - timedelta(minutes=1)},
                {"game_id": "later", "version": 1, "due_at": now + timedelta(hours=1)},
            ],
        )
    try:
        async with engine.connect() as held, engine.connect() as also_held:
            assert held is not also_held
            scraped = (await own_client.get("/metrics")).text
        assert gauge(scraped, "kaiten_webhook_deliveries_pending") == 2
        assert 300 <= gauge(scraped, "kaiten_webhook_oldest_pending_seconds") < 400
        assert gauge(scraped, "kaiten_deadlines_due") == 2
        assert gauge(scraped, 'kaiten_db_pool_size{pool="primary"}') == engine.pool.size()  # type: ignore[attr-defined]
        assert 2 <= gauge(scraped, 'kaiten_db_pool_checked_out{pool="primary"}') <= engine.pool.size()  # type: ignore[attr-defined]
    finally:
        async with engine.begin() as connection:
            await connection.execute(sa.delete(deadlines).where(deadlines.c.game_id.in_(["due-1", "due-2", "later"])))
            await connection.execute(sa.delete(webhook_deliveries).where(webhook_deliveries.c.webhook_id == "w"))


#: What PromQL spells that is not a metric's name.
PROMQL_WORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring", "group_left", "group_right"}


def metric_names(expression: str) -> set[str]:
    """The metrics a PromQL expression selects: every name that is not a function, an aggregation, a
    keyword, a label (in matchers and in by/without/on/ignoring lists), a string or a range."""
    bare = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expression)
    bare = re.sub(r"\{[^}]*\}", " ", bare)
    bare = re.sub(r"\[[^\]]*\]", " ", bare)
    bare = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", bare)
    names = set()
    for word in re.finditer(r"(?<![\w.])[a-zA-Z_:][\w:]*", bare):
        if bare[word.end() :].lstrip().startswith("(") or word.group() in PROMQL_WORDS:
            continue
        names.add(word.group())
    return names


def test_metric_names_are_read_out_of_promql():
    assert metric_names(
        'histogram_quantile(0.99, sum by (le) (rate(kaiten_x_bucket{path="/v1/{id}",method="POST"}[5m])))'
    ) == {"kaiten_x_bucket"}
    assert metric_names("sum by (pool) (a) / sum without (job) (b) > bool 0 and on (pool) c offset 5m") == {
        "a",
        "b",
        "c",
    }
    assert metric_names("max(kaiten_y) by (projection)") == {"kaiten_y"}


def expressions(node: object) -> list[str]:
    if isinstance(node, dict):
        found = [node["expr"]] if isinstance(node.get("expr"), str) else []
        return found + [expr for value in node.values() for expr in expressions(value)]
    if isinstance(node, list):
        return [expr for value in node for expr in expressions(value)]
    return []


async def test_the_dashboard_queries_only_metrics_the_server_exposes(client):
    exposed = families(await scrape_after_every_kind_of_request(client))
    selectable = set(exposed) | {
        f"{name}{suffix}"
        for name, kind in exposed.items()
        if kind == "histogram"
        for suffix in ("_bucket", "_sum", "_count")
    }
    dashboard = json.loads(DASHBOARD.read_text())
    queried = [expr for panel in dashboard["panels"] for expr in expressions(panel)]
    assert len(queried) >= 10
    named = {name for expr in queried for name in metric_names(expr)}
    assert named - selectable == set()
    # What an operator looks at first, each in a panel of its own.
    titles = {panel["title"] for panel in dashboard["panels"]}
    assert {
        "Commands per second",
        "Command latency (p50, p99)",
        "Projection lag",
        "Webhook backlog",
        "Bots' queue",
        "Database pool use",
    } <= titles
    assert {
        "kaiten_request_duration_seconds_bucket",
        "kaiten_projection_lag_seconds",
        "kaiten_webhook_deliveries_pending",
        "kaiten_deadlines_due",
        "kaiten_db_pool_checked_out",
        "kaiten_db_pool_size",
    } <= named
