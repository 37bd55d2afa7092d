"""A test marked `one_store` runs on one store: PostgreSQL where the suite has one, else SQLite; every
other test keeps its run on each store (tests/conftest.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from tests import conftest


@dataclass
class FakeItem:
    """What the collection hook reads of a collected test."""

    name: str
    params: dict[str, str] = field(default_factory=dict)
    one_store: bool = False
    markers: list[Any] = field(default_factory=list)

    @property
    def fixturenames(self) -> list[str]:
        return list(self.params)

    @property
    def callspec(self) -> SimpleNamespace | None:
        return SimpleNamespace(params=self.params) if self.params else None

    def get_closest_marker(self, name: str) -> object | None:
        return object() if name == "one_store" and self.one_store else None

    def add_marker(self, marker: Any) -> None:
        self.markers.append(marker)


def collected(items: list[FakeItem]) -> tuple[list[str], list[str]]:
    """The names kept and the names deselected by the suite's collection hook."""
    deselected: list[FakeItem] = []
    config = SimpleNamespace(hook=SimpleNamespace(pytest_deselected=lambda items: deselected.extend(items)))
    conftest.pytest_collection_modifyitems(config, items)  # type: ignore[arg-type]
    return [item.name for item in items], [item.name for item in deselected]


def suite() -> list[FakeItem]:
    return [
        FakeItem("api[sqlite]", {"database_url": "sqlite"}, one_store=True),
        FakeItem("api[postgres]", {"database_url": "postgres"}, one_store=True),
        FakeItem("own[sqlite]", {"own_database_url": "sqlite"}, one_store=True),
        FakeItem("own[postgres]", {"own_database_url": "postgres"}, one_store=True),
        FakeItem("store[sqlite]", {"database_url": "sqlite"}),
        FakeItem("store[postgres]", {"database_url": "postgres"}),
        FakeItem("no-database", one_store=True),
        FakeItem("param-of-its-own[sqlite]", {"store": "sqlite"}, one_store=True),
    ]


@pytest.mark.parametrize("variable", ["KAITEN_TEST_DATABASE_URL", "KAITEN_REQUIRE_POSTGRES"])
def test_with_postgresql_a_one_store_test_runs_on_postgresql_alone(
    monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    monkeypatch.delenv("KAITEN_TEST_DATABASE_URL", raising=False)
    monkeypatch.delenv("KAITEN_REQUIRE_POSTGRES", raising=False)
    monkeypatch.setenv(variable, "postgresql+psycopg://postgres@127.0.0.1:5432/postgres" if "URL" in variable else "1")
    kept, deselected = collected(suite())
    assert deselected == ["api[sqlite]", "own[sqlite]"]
    assert kept == [
        "api[postgres]",
        "own[postgres]",
        "store[sqlite]",
        "store[postgres]",
        "no-database",
        "param-of-its-own[sqlite]",
    ]


@pytest.mark.parametrize("required", [None, "0"])
def test_without_postgresql_a_one_store_test_runs_on_sqlite_alone(
    monkeypatch: pytest.MonkeyPatch, required: str | None
) -> None:
    monkeypatch.delenv("KAITEN_TEST_DATABASE_URL", raising=False)
    monkeypatch.delenv("KAITEN_REQUIRE_POSTGRES", raising=False)
    if required is not None:
        monkeypatch.setenv("KAITEN_REQUIRE_POSTGRES", required)
    kept, deselected = collected(suite())
    assert deselected == ["api[postgres]", "own[postgres]"]
    assert "api[sqlite]" in kept and "store[postgres]" in kept


def test_a_test_on_the_session_postgresql_is_marked_as_needing_it() -> None:
    items = [FakeItem("on-postgres", {"postgres_url": "x"}), FakeItem("plain")]
    collected(items)
    assert [marker.name for marker in items[0].markers] == ["postgres"]
    assert items[1].markers == []
