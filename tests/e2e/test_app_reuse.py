"""An app made over services serves the services handed in before each of its starts: the tests'
`app_client` reuses one app for every test's own services (tests/app_client.py)."""

from __future__ import annotations

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.api.bootstrap import bootstrap_with_store
from tests.app_client import AppClient, app_client
from tests.e2e.play import create


async def test_an_app_started_again_serves_the_services_handed_in_since() -> None:
    first, second = (bootstrap_with_store(InMemoryEventStore()) for _ in range(2))
    async with app_client(first) as client:
        made_first = await create(client, "sushi-go", 2)
        app = client.app
    async with app_client(second) as client:
        assert client.app is app
        made_second = await create(client, "sushi-go", 2)
        assert (await client.get(f"/v1/games/{made_first['id']}")).status_code == 404
        assert (await client.get(f"/v1/games/{made_second['id']}")).status_code == 200
    async with AppClient(app=app) as client:
        assert (await client.get(f"/v1/games/{made_second['id']}")).status_code == 200


async def test_two_clients_at_once_are_served_by_two_apps() -> None:
    first, second = (bootstrap_with_store(InMemoryEventStore()) for _ in range(2))
    async with app_client(first) as one, app_client(second) as other:
        assert one.app is not other.app
        made = await create(one, "sushi-go", 2)
        assert (await other.get(f"/v1/games/{made['id']}")).status_code == 404
