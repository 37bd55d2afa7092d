"""compose.yaml runs the topology of issue 28 (two `kaiten serve` replicas behind a proxy, PgBouncer,
a PostgreSQL primary and its synchronous standby), linted here, where there is no Docker engine.

- The whole file is validated against the Compose Specification's JSON schema, the copy that
  check-jsonschema ships (`--builtin-schema vendor.compose-spec`, the schema `docker compose` itself
  validates with): keys, types and value shapes of every service, config and volume. A copy with a
  misspelt key is refused, so the check bites.
- What the schema cannot know: every `depends_on` names a service, with a healthcheck where it waits
  for health and a one-shot where it waits for completion; every config and volume used is declared,
  every file mounted exists; no `$` is left for Compose to interpolate; the kaiten services run
  exactly the commands the tests run (`kaiten migrate`, `kaiten serve --host 0.0.0.0 --port 8000`, as
  `kaiten`'s own parser reads them) and start with settings `Settings.from_env` takes; their database
  URLs go to PgBouncer (pool), the primary (direct) and the standby (reads); PgBouncer pools
  transactions in front of the primary; the primary waits for the standby by the name the standby
  gives itself; the proxy and Prometheus reach exactly the API replicas, at the port they serve on.
- Where Docker is installed, `docker compose config` reads it too.
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy.engine import make_url

from kaiten.api.cli import build_parser
from kaiten.api.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"
API_REPLICAS = ("api-1", "api-2")
#: The commands the tests run: tests/e2e/servers.py (`serve --port`), tests/conftest.py (migrations).
SERVE = ["kaiten", "serve", "--host", "0.0.0.0", "--port", "8000"]
MIGRATE = ["kaiten", "migrate"]


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def check_schema(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.compose-spec", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_compose_yaml_follows_the_compose_specification(tmp_path: Path) -> None:
    checked = check_schema(COMPOSE)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    misspelt = tmp_path / "compose.yaml"
    misspelt.write_text(COMPOSE.read_text().replace("    healthcheck:\n", "    healthchek:\n", 1))
    refused = check_schema(misspelt)
    assert refused.returncode != 0 and "healthchek" in refused.stdout + refused.stderr


def test_every_reference_between_services_configs_and_volumes_holds(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert {"db-primary", "db-standby", "pgbouncer", "migrate", "proxy", *API_REPLICAS} <= services.keys()
    for name, service in services.items():
        assert "image" in service, name
        waits = service.get("depends_on", {})
        for other in waits:
            assert other in services, (name, other)
            condition = waits[other]["condition"] if isinstance(waits, dict) else "service_started"
            if condition == "service_healthy":
                assert "healthcheck" in services[other], (name, other)
            if condition == "service_completed_successfully":
                assert services[other].get("restart") == "no", (name, other)
        if name != "migrate" and not service.get("profiles"):
            assert "healthcheck" in service, name
        for config in service.get("configs", []):
            assert config["source"] in compose["configs"], (name, config)
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            assert (ROOT / source).exists() if source.startswith(".") else source in compose["volumes"], volume
    # Compose replaces `$NAME` with the environment's: every `$` meant for a shell or nginx is `$$`.
    assert re.search(r"(?<!\$)\$(?!\$)", COMPOSE.read_text().replace("$$", "")) is None


def test_the_kaiten_services_run_the_tests_commands_with_settings_kaiten_takes(
    compose: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    services = compose["services"]
    assert services["migrate"]["command"] == MIGRATE
    for name in API_REPLICAS:
        assert services[name]["command"] == SERVE, name
        assert services[name]["image"] == services["migrate"]["image"]
    for name in ("migrate", *API_REPLICAS):
        command = services[name]["command"]
        parsed = build_parser().parse_args(command[1:])
        assert parsed.command == command[1]
        for variable in list(os.environ):
            if variable == "DATABASE_URL" or variable.startswith(("KAITEN_", "OTEL_")):
                monkeypatch.delenv(variable)
        for variable, value in services[name]["environment"].items():
            monkeypatch.setenv(variable, value)
        settings = Settings.from_env()
        assert settings.database_url == services[name]["environment"]["DATABASE_URL"]
    api = Settings.from_env()
    assert not api.open, "a server with a database needs app keys"
    hosts = {
        "pool": make_url(api.database_url),
        "direct": make_url(api.direct_database_url or ""),
        "reads": make_url(api.read_database_url or ""),
    }
    assert {role: (url.host, url.port) for role, url in hosts.items()} == {
        "pool": ("pgbouncer", 6432),
        "direct": ("db-primary", 5432),
        "reads": ("db-standby", 5432),
    }


def ini(compose: dict[str, Any], config: str) -> configparser.ConfigParser:
    parsed = configparser.ConfigParser()
    parsed.read_string(compose["configs"][config]["content"])
    return parsed


def test_pgbouncer_pools_transactions_in_front_of_the_primary_which_waits_for_its_standby(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    pgbouncer = ini(compose, "pgbouncer-ini")
    assert pgbouncer["pgbouncer"]["pool_mode"] == "transaction"
    assert pgbouncer["pgbouncer"]["listen_port"] == "6432"
    assert re.search(r"\bhost=db-primary port=5432\b", pgbouncer["databases"]["kaiten"])
    assert services["pgbouncer"]["command"][0] == "pgbouncer"
    primary = " ".join(services["db-primary"]["command"])
    assert "synchronous_commit=on" in primary
    (standby_name,) = re.findall(r"synchronous_standby_names=FIRST 1 \((\w+)\)", primary)
    standby = services["db-standby"]["command"][-1]
    assert f"application_name={standby_name}'" in standby
    assert "pg_basebackup --host=db-primary" in standby
    replication = compose["configs"]["primary-replication"]["content"]
    assert "REPLICATION LOGIN" in replication and "host replication replicator" in replication


def test_the_proxy_and_prometheus_reach_exactly_the_api_replicas(compose: dict[str, Any]) -> None:
    port = SERVE[SERVE.index("--port") + 1]
    nginx = compose["configs"]["nginx-conf"]["content"]
    assert sorted(re.findall(r"^\s*server ([\w-]+:\d+);", nginx, re.MULTILINE)) == [
        f"{name}:{port}" for name in API_REPLICAS
    ]
    assert "proxy_buffering off" in nginx
    assert compose["services"]["proxy"]["ports"] == [f"{port}:{port}"]
    prometheus = yaml.safe_load(compose["configs"]["prometheus-yml"]["content"])
    (job,) = prometheus["scrape_configs"]
    assert sorted(job["static_configs"][0]["targets"]) == [f"{name}:{port}" for name in API_REPLICAS]
    grafana = compose["services"]["grafana"]["volumes"]
    assert "./docs/grafana/kaiten.json:/var/lib/grafana/dashboards/kaiten.json:ro" in grafana


def compose_plugin() -> bool:
    """Whether `docker compose` runs here (it reads a file without an engine)."""
    if shutil.which("docker") is None:
        return False
    return subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=60).returncode == 0


@pytest.mark.skipif(not compose_plugin(), reason="no `docker compose` here: the schema check above stands in")
def test_docker_compose_reads_it() -> None:
    done = subprocess.run(
        ["docker", "compose", "-f", str(COMPOSE), "config", "--quiet"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
