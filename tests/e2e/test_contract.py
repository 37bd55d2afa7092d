"""What the typed contract promises beyond the schemas: conditional reads, the catalog's bots, the
docs UI without a CDN, typed answers for every game, and the history's filters."""

from __future__ import annotations

import re

import msgspec
import pytest

from kaiten.domain.catalog import GAMES
from tests.e2e.play import bearer, create
from tests.projecting import settle_all

pytestmark = pytest.mark.one_store


@pytest.mark.parametrize("path", ["", "/legal-commands", "/events"])
async def test_game_reads_carry_an_entity_tag_and_answer_304_when_unchanged(client, path):
    game = await create(client, "sushi-go", 2, seed=4)
    seat = bearer(game["tokens"]["0"])
    url = f"/v1/games/{game['id']}{path}"
    first = await client.get(url, headers=seat)
    assert first.status_code == 200
    tag = first.headers["etag"]
    assert tag.startswith(f'"{game["version"]}-') and first.headers["vary"] == "Authorization, Origin"
    assert first.headers["cache-control"] == "private"

    unchanged = await client.get(url, headers={**seat, "If-None-Match": tag})
    assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged.headers["etag"] == tag
    assert (await client.get(url, headers={**seat, "If-None-Match": f'W/{tag}, "1"'})).status_code == 304
    # Another viewer's answer differs, and so does its tag: the first seat's tag revalidates nothing.
    other = await client.get(url, headers={**bearer(game["tokens"]["1"]), "If-None-Match": tag})
    assert other.status_code == 200 and other.headers["etag"] != tag
    # A bare version names no answer (it did once: a cache could revalidate any viewer's copy with it).
    assert (await client.get(url, headers={**seat, "If-None-Match": f'"{game["version"]}"'})).status_code == 200

    legal = (await client.get(f"/v1/games/{game['id']}/legal-commands", headers=seat)).json()
    sent = await client.post(f"/v1/games/{game['id']}/commands", json=legal["commands"][0], headers=seat)
    assert sent.status_code == 200
    moved = await client.get(url, headers={**seat, "If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["etag"].startswith(f'"{sent.json()["version"]}-')


async def test_the_catalog_lists_each_games_bots_with_a_description(client):
    catalog = (await client.get("/v1/catalog")).json()
    for entry in catalog["games"]:
        bots = {bot["id"]: bot for bot in entry["bots"]}
        assert set(bots) == set(GAMES[entry["id"]].bots)
        assert all(bot["description"].endswith(".") and bot["name"] for bot in bots.values())
        assert (await client.get(f"/v1/catalog/{entry['id']}")).json()["bots"] == entry["bots"]


async def test_every_game_answers_with_its_own_typed_table(client):
    for game, seats in [("sushi-go", 2), ("sushi-go-party", 3), ("spin-some-for-dim-sum", 2), ("dim-sum-derby", 3)]:
        table = await create(client, game, seats, seed=1)
        assert table["game"] == game and table["status"] == "active"
        assert [token["seat"] for token in table["seat_tokens"]] == list(range(seats))
        assert {str(t["seat"]): t["token"] for t in table["seat_tokens"]} == table["tokens"]
        page = (await client.get(f"/v1/games/{table['id']}/events")).json()
        assert page["game"] == game
        assert all(event["data"]["type"] == event["type"] for event in page["events"])


async def test_the_docs_ui_loads_nothing_from_another_host(client):
    page = await client.get("/schema")
    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    sources = re.findall(r"(?:src|href)=['\"]([^'\"]+)['\"]", page.text)
    assert sources and all(source.startswith("/schema/assets/") for source in sources), sources
    for source in sources:
        asset = await client.get(source)
        assert asset.status_code == 200 and len(asset.content) > 0, source


async def test_the_served_document_is_the_typed_one(client):
    served = (await client.get("/schema/openapi.json")).json()
    assert served["components"]["securitySchemes"]["seatToken"]["scheme"] == "bearer"
    assert "SushiGoTableView" in served["components"]["schemas"]


async def test_abandoned_is_a_status_the_history_filters_by(client, services):
    # The only person resigns: the game is abandoned. Other tests' games share the history.
    game = await create(client, "sushi-go", 2, seats=[{"name": "Solo"}, {"bot": "random"}])
    resigned = await client.post(f"/v1/games/{game['id']}/resign", headers=bearer(game["tokens"]["0"]))
    assert resigned.status_code == 200, resigned.text
    await settle_all(services.projection_runners)
    response = await client.get("/v1/games?status=abandoned&limit=100")
    assert response.status_code == 200
    items = response.json()["items"]
    assert game["id"] in [item["id"] for item in items]
    assert {item["status"] for item in items} == {"abandoned"}
    refused = await client.get("/v1/games?status=lost")
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "status"


async def test_a_command_that_is_no_json_is_a_400_and_one_of_another_game_a_422(client):
    game = await create(client, "sushi-go", 2, seed=4)
    seat = {**bearer(game["tokens"]["0"]), "content-type": "application/json"}
    url = f"/v1/games/{game['id']}/commands"
    assert (await client.post(url, content=b"{nope", headers=seat)).json()["code"] == "malformed-request"
    other = await client.post(url, json={"type": "rotate", "steps": 1}, headers=seat)
    assert other.status_code == 422 and other.json()["code"] == "invalid-command"


async def test_a_seat_only_operation_says_first_that_the_token_is_missing(client):
    game = await create(client, "sushi-go", 2, seed=4)
    response = await client.post(f"/v1/games/{game['id']}/commands", json={}, headers={"If-Match": "soon"})
    assert response.status_code == 401 and response.json()["code"] == "missing-token"


async def test_each_games_catalog_details_are_typed_and_served_as_typed(client):
    document = (await client.get("/schema/openapi.json")).json()["components"]["schemas"]
    for game in GAMES.values():
        entry = document[f"{game.type_prefix}CatalogEntry"]
        assert entry["properties"]["details"] == {"$ref": f"#/components/schemas/{game.type_prefix}Details"}
        details = (await client.get(f"/v1/catalog/{game.id}")).json()["details"]
        # Nothing served that the type does not state: decoding and encoding again gives it back whole.
        typed = msgspec.json.decode(msgspec.json.encode(details), type=game.details_type)
        assert msgspec.json.decode(msgspec.json.encode(typed)) == details
