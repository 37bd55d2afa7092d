"""Matchmaking queues (issue 29 §2) through the API, on SQLite and PostgreSQL: players join a game's
queue, a game starts once enough compatible players wait, each with their seat token in their entry;
leaving, options, another app's entries, bots after a wait, and a formed game whose creation a dead
process left undone."""

from __future__ import annotations

import asyncio
import random
import uuid
from datetime import timedelta
from typing import Any, cast
from urllib.parse import quote

from kaiten.api.app import create_app
from kaiten.api.bootstrap import Services
from kaiten.services.ports import MatchedSeat, PlayerFeeds, QueueMatchRecord, QueuePlan, Quotas
from tests.app_client import AppClient
from tests.e2e.apps import app_headers, new_app_key
from tests.e2e.play import bearer, play_randomly
from tests.e2e.serving import serving
from tests.projecting import settle_all

Client = AppClient
QUEUE = "/v1/queues/sushi-go/entries"


async def app(services: Services) -> dict[str, str]:
    """A new app's key headers: its queues are its own, apart from every other test's."""
    return app_headers(await new_app_key(services, f"queues-{uuid.uuid4().hex[:8]}"))


async def join(client: Client, headers: dict[str, str], player: str, low: int = 2, high: int = 2, **extra: Any) -> Any:
    body = {"player_id": player, "min_players": low, "max_players": high, **extra}
    response = await client.post(QUEUE, json=body, headers=headers)
    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"{QUEUE}/{response.json()['id']}"
    return response.json()


async def status(client: Client, headers: dict[str, str], entry: dict[str, Any]) -> Any:
    response = await client.get(f"{QUEUE}/{entry['id']}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def problem(response: Any) -> tuple[int, str]:
    assert response.headers["content-type"].startswith("application/problem+json"), response.text
    return response.status_code, response.json()["code"]


async def test_players_waiting_together_are_seated_in_one_game_with_their_tokens(
    closed_client: Client, closed_services: Services
) -> None:
    headers = await app(closed_services)
    alice = await join(closed_client, headers, "alice", 2, 3, name="Alice")
    assert alice["status"] == "waiting" and alice["token"] is None and alice["rating"] is None
    bob = await join(closed_client, headers, "bob", 2, 2)
    # Bob's join completed a game: two players, each accepting two.
    assert bob["status"] == "matched", bob
    alice = await status(closed_client, headers, alice)
    assert alice["status"] == "matched" and alice["game_id"] == bob["game_id"]
    assert (alice["seat"], bob["seat"]) == (0, 1)
    assert await status(closed_client, headers, alice) == alice, "asked again, the same token"
    table = (await closed_client.get(f"/v1/games/{alice['game_id']}", headers=bearer(alice["token"]))).json()
    assert table["status"] == "active" and table["viewer"] == {"seat": 0}
    assert [(seat["name"], seat["player_id"]) for seat in table["seats"]] == [("Alice", "alice"), ("bob", "bob")]
    legal = await closed_client.get(f"/v1/games/{bob['game_id']}/legal-commands", headers=bearer(bob["token"]))
    assert legal.status_code == 200 and legal.json()["commands"], legal.text
    # The game is an ordinary one: it shows in each player's stream (services/players.py).
    app_id = (await closed_services.apps.authenticate(headers["Authorization"].removeprefix("Bearer "))).app_id
    person = await closed_services.games.people.of_player(app_id, "alice")
    assert person is not None
    feed = await cast(PlayerFeeds, closed_services.games.store).feed(person.person_id, 0, 10)
    assert ("game-started", alice["game_id"]) in [(item.kind, item.game_id) for item in feed]
    # Matched, the entry cannot be left; the player may queue again.
    left = await closed_client.delete(f"{QUEUE}/{alice['id']}", headers=headers)
    assert problem(left) == (409, "queue-entry-matched")
    again = await join(closed_client, headers, "alice", 2, 3)
    assert again["status"] == "waiting" and again["id"] != alice["id"]


async def test_a_game_waits_for_as_many_as_everyone_accepts(closed_client: Client, closed_services: Services) -> None:
    headers = await app(closed_services)
    first = await join(closed_client, headers, "p1", 3, 4)
    second = await join(closed_client, headers, "p2", 2, 4)
    assert second["status"] == "waiting", "p1 wants three players at least"
    third = await join(closed_client, headers, "p3", 3, 3)
    assert third["status"] == "matched"
    entries = [await status(closed_client, headers, entry) for entry in (first, second, third)]
    assert {entry["game_id"] for entry in entries} == {third["game_id"]}
    assert [entry["seat"] for entry in entries] == [0, 1, 2]
    table = (await closed_client.get(f"/v1/games/{third['game_id']}", headers=headers)).json()
    assert len(table["seats"]) == 3 and table["status"] == "active"


async def test_leaving_queues_and_options(closed_client: Client, closed_services: Services) -> None:
    headers = await app(closed_services)
    alice = await join(closed_client, headers, "alice")
    twice = {"player_id": "alice", "min_players": 2, "max_players": 2}
    assert problem(await closed_client.post(QUEUE, json=twice, headers=headers)) == (409, "already-queued")
    left = await closed_client.delete(f"{QUEUE}/{alice['id']}", headers=headers)
    assert left.status_code == 204, left.text
    assert (await status(closed_client, headers, alice))["status"] == "left"
    assert (await closed_client.delete(f"{QUEUE}/{alice['id']}", headers=headers)).status_code == 204
    # A join sent again with its Idempotency-Key answers the entry the first made; another join may
    # not reuse the key.
    keyed = {**headers, "Idempotency-Key": "join-erin-1"}
    erin = await join(closed_client, keyed, "erin", 3, 3)
    assert await join(closed_client, keyed, "erin", 3, 3) == erin
    reused = await closed_client.post(QUEUE, json={**twice, "player_id": "frank"}, headers=keyed)
    assert problem(reused) == (409, "idempotency-key-reused")
    bob = await join(closed_client, headers, "bob")
    assert bob["status"] == "waiting", "Alice left: nobody to play with"
    # Other options are another queue.
    clocked = await join(closed_client, headers, "carol", options={"clock": {"turn_seconds": 60}})
    assert clocked["status"] == "waiting"
    dave = await join(closed_client, headers, "dave", options={"clock": {"turn_seconds": 60}})
    assert dave["status"] == "matched"
    carol = await status(closed_client, headers, clocked)
    assert carol["game_id"] == dave["game_id"] and carol["options"] == dave["options"]
    assert (await status(closed_client, headers, bob))["status"] == "waiting"


async def test_refusals(closed_client: Client, closed_services: Services) -> None:
    headers, other = await app(closed_services), await app(closed_services)
    alice = await join(closed_client, headers, "alice")
    body = {"player_id": "zed", "min_players": 2, "max_players": 2}
    # Another app's entry is no entry; no key on a server that needs keys is refused.
    for method in ("get", "delete"):
        response = await closed_client.request(method, f"{QUEUE}/{alice['id']}", headers=other)
        assert problem(response) == (404, "queue-entry-not-found")
        party = f"/v1/queues/sushi-go-party/entries/{alice['id']}"
        wrong_game = await closed_client.request(method, party, headers=headers)
        assert problem(wrong_game) == (404, "queue-entry-not-found")
        assert problem(await closed_client.request(method, f"{QUEUE}/{alice['id']}")) == (401, "app-key-required")
    assert problem(await closed_client.post(QUEUE, json=body)) == (401, "app-key-required")
    # An id that is no entry's (not even a UUID, or with a NUL that PostgreSQL would refuse) is none.
    for odd in ("nope", "%00", quote(str(uuid.uuid4()).upper())):
        response = await closed_client.get(f"{QUEUE}/{odd}", headers=headers)
        assert problem(response) == (404, "queue-entry-not-found"), odd
    chess = await closed_client.post("/v1/queues/chess/entries", json=body, headers=headers)
    assert problem(chess) == (404, "unknown-game")
    refused = {
        "invalid-player-range": {"min_players": 3, "max_players": 2},
        "invalid-options": {"options": {"clock": {"turn_seconds": "soon"}}},
        "invalid-bots": {"bot": "greedy"},
        "unknown-bot": {"bot": "deep-blue", "bots_after_seconds": 5},
    }
    for code, change in refused.items():
        response = await closed_client.post(QUEUE, json={**body, **change}, headers=headers)
        assert problem(response) == (422, code), code
    too_many = await closed_client.post(QUEUE, json={**body, "max_players": 7}, headers=headers)
    assert problem(too_many) == (422, "invalid-player-range")
    malformed = await closed_client.post(QUEUE, json={**body, "rating_window": -1}, headers=headers)
    assert problem(malformed) == (400, "malformed-request")


async def test_bots_fill_a_game_once_the_player_waited_long_enough(
    closed_client: Client, closed_services: Services
) -> None:
    headers = await app(closed_services)
    now = await join(closed_client, headers, "alice", 2, 3, bot="greedy", bots_after_seconds=0)
    assert now["status"] == "matched"
    table = (await closed_client.get(f"/v1/games/{now['game_id']}", headers=headers)).json()
    assert len(table["seats"]) == 2 and [seat.get("bot") for seat in table["seats"]] == [None, "greedy"]
    later = await join(closed_client, headers, "bob", 3, 3, bot="random", bots_after_seconds=1)
    assert later["status"] == "waiting"
    await asyncio.sleep(1.1)
    # The server's own round (every second) or this one matches the queue now that Bob's wait is over.
    matchmaking = closed_services.matchmaking
    assert matchmaking is not None
    await matchmaking.run_once()
    async with asyncio.timeout(5):
        while (bob := await status(closed_client, headers, later))["status"] != "matched":
            await asyncio.sleep(0.1)
    table = (await closed_client.get(f"/v1/games/{bob['game_id']}", headers=headers)).json()
    assert [seat.get("bot") for seat in table["seats"]] == [None, "random", "random"]


async def test_a_game_formed_by_a_process_that_died_is_created_once_by_another(
    closed_client: Client, closed_services: Services
) -> None:
    """The process that formed a game died before creating it: a status read creates it, and (nobody
    asking) another process's round does once the lease ran out; never twice."""
    headers = await app(closed_services)
    app_id = (await closed_services.apps.authenticate(headers["Authorization"].removeprefix("Bearer "))).app_id
    matchmaking = closed_services.matchmaking
    assert matchmaking is not None
    store, lease = matchmaking.store, timedelta(seconds=30)

    async def formed_and_not_created(players: list[str]) -> tuple[str, list[Any]]:
        """A game formed by hand as a process that died right after matching leaves it."""
        entries = [await join(closed_client, headers, player, 3, 3) for player in players]
        assert {entry["status"] for entry in entries} == {"waiting"}
        game_id = str(uuid.uuid4())

        def plan(waiting: Any) -> QueuePlan:
            formed = QueueMatchRecord(game_id, app_id, "sushi-go", "", len(waiting), (), matchmaking.clock.now())
            seats = [MatchedSeat(entry.entry_id, seat, matchmaking.ids.token()) for seat, entry in enumerate(waiting)]
            return QueuePlan(matches=[(formed, seats)], next_due=None)

        record = await store.entry(app_id, entries[0]["id"])
        assert record is not None
        formed = await store.match(app_id, record.queue_key, matchmaking.clock.now(), lease, plan)
        assert formed is not None and [match.game_id for match in formed] == [game_id]
        assert (await closed_client.get(f"/v1/games/{game_id}", headers=headers)).status_code == 404
        return game_id, entries

    # Within the lease no round takes it; a status read creates it.
    game_id, entries = await formed_and_not_created(["frank", "grace"])
    assert await store.claim_matches(matchmaking.clock.now(), lease, 10) == []
    seen = [await status(closed_client, headers, entry) for entry in entries]
    assert [(entry["status"], entry["game_id"], entry["seat"]) for entry in seen] == [
        ("matched", game_id, 0),
        ("matched", game_id, 1),
    ]
    table = (await closed_client.get(f"/v1/games/{game_id}", headers=bearer(seen[1]["token"]))).json()
    assert table["viewer"] == {"seat": 1} and table["status"] == "active"
    assert not await matchmaking.create_game(game_id), "created once"
    # Nobody asks: once the lease ran out, a round of any process claims it and creates it.
    game_id, entries = await formed_and_not_created(["heidi", "ivan"])
    assert await store.claim_matches(matchmaking.clock.now() + 2 * lease, lease, 10) == [game_id]
    assert await matchmaking.create_game(game_id)
    assert await store.claim_matches(matchmaking.clock.now() + 4 * lease, lease, 10) == []
    seen = [await status(closed_client, headers, entry) for entry in entries]
    table = (await closed_client.get(f"/v1/games/{game_id}", headers=bearer(seen[0]["token"]))).json()
    assert table["viewer"] == {"seat": 0} and table["status"] == "active"


async def test_a_player_token_queues_its_own_player_only(closed_client: Client, closed_services: Services) -> None:
    headers = await app(closed_services)
    minted = await closed_client.post("/v1/players/alice/tokens", json={}, headers=headers)
    assert minted.status_code == 201, minted.text
    alice = bearer(minted.json()["token"])
    bob = await join(closed_client, headers, "bob", 3, 3)
    for_bob = await closed_client.post(
        QUEUE, json={"player_id": "bob", "min_players": 2, "max_players": 2}, headers=alice
    )
    assert problem(for_bob) == (403, "player-token-refused")
    for method in ("get", "delete"):
        response = await closed_client.request(method, f"{QUEUE}/{bob['id']}", headers=alice)
        assert problem(response) == (404, "queue-entry-not-found")
    mine = await join(closed_client, alice, "alice", 3, 3)
    assert (await status(closed_client, alice, mine))["status"] == "waiting"
    carol = await join(closed_client, headers, "carol", 3, 3)
    assert carol["status"] == "matched"
    seated = await status(closed_client, alice, mine)
    table = await closed_client.get(f"/v1/games/{seated['game_id']}", headers=bearer(seated["token"]))
    assert table.json()["viewer"] == {"seat": 1}


async def test_rated_players_meet_within_their_rating_windows(closed_client: Client, closed_services: Services) -> None:
    """Alice and Bob are rated by a game against each other: with windows too narrow for the gap
    between their ratings they wait; a player whose window reaches both meets one of them."""
    headers = await app(closed_services)
    seats = [{"name": "Alice", "player_id": "alice"}, {"name": "Bob", "player_id": "bob"}]
    # A game's deal takes a fresh salt beside its seed, so a shared victory (equal ratings) comes now and
    # then: the first game with one winner rates them apart.
    for seed in range(7, 17):
        created = await closed_client.post(
            "/v1/games", json={"game": "sushi-go", "players": 2, "seed": seed, "seats": seats}, headers=headers
        )
        assert created.status_code == 201, created.text
        finished = await play_randomly(closed_client, created.json(), random.Random(29))
        if len(finished["result"]["winners"]) == 1:
            break
    else:
        raise AssertionError("ten shared victories in a row")
    await settle_all(closed_services.projection_runners)
    narrow = {"rating_window": 0, "rating_window_per_minute": 0}
    alice = await join(closed_client, headers, "alice", **narrow)
    bob = await join(closed_client, headers, "bob", **narrow)
    assert alice["rating"] is not None and bob["rating"] is not None and alice["rating"] != bob["rating"]
    assert alice["rating_window"] == 0 and (await status(closed_client, headers, alice))["status"] == "waiting"
    assert bob["status"] == "waiting", "their windows cover nobody's rating but their own"
    # Carol is not rated yet: she meets anyone, and a rated player's window never keeps her out.
    carol = await join(closed_client, headers, "carol")
    assert carol["status"] == "matched" and carol["rating"] is None
    seated = [await status(closed_client, headers, entry) for entry in (alice, bob)]
    assert sorted(entry["status"] for entry in seated) == ["matched", "waiting"]
    assert carol["game_id"] in {entry["game_id"] for entry in seated}


async def test_a_full_game_quota_holds_the_apps_queues_until_a_game_ends(
    closed_client: Client, closed_services: Services
) -> None:
    """Matchmade games count against the app's quotas like created ones: they are no way around them."""
    key = await new_app_key(closed_services, f"queues-{uuid.uuid4().hex[:8]}", Quotas(open_games=1))
    headers = app_headers(key)
    ann = await join(closed_client, headers, "ann")
    bob = await join(closed_client, headers, "bob")
    assert bob["status"] == "matched"
    cy = await join(closed_client, headers, "cy")
    dee = await join(closed_client, headers, "dee")
    matchmaking = closed_services.matchmaking
    assert matchmaking is not None
    await matchmaking.run_once()
    held = [(await status(closed_client, headers, entry))["status"] for entry in (cy, dee)]
    assert held == ["waiting", "waiting"], "the app's one open game is running"
    created = await closed_client.post("/v1/games", json={"game": "sushi-go", "players": 2}, headers=headers)
    assert problem(created) == (429, "open-games"), "the quota is full indeed"

    # The first game ends (both its people resign: abandoned), and the held queue forms its game.
    for entry in (await status(closed_client, headers, ann), bob):
        resigned = await closed_client.post(f"/v1/games/{entry['game_id']}/resign", headers=bearer(entry["token"]))
        assert resigned.status_code == 200, resigned.text
    await matchmaking.run_once()
    cy, dee = [await status(closed_client, headers, entry) for entry in (cy, dee)]
    assert cy["status"] == dee["status"] == "matched" and cy["game_id"] == dee["game_id"] != bob["game_id"]


async def test_entries_over_are_forgotten_with_their_tokens_and_the_others_kept(own_database_url: str) -> None:
    # A database of its own: forgetting takes every app's entries over, other tests' too.
    async with (
        serving(own_database_url, open_app=None) as closed_services,
        AppClient(app=create_app(closed_services)) as closed_client,
    ):
        await forgetting(closed_client, closed_services)


async def forgetting(closed_client: Client, closed_services: Services) -> None:
    headers = await app(closed_services)
    app_id = (await closed_services.apps.authenticate(headers["Authorization"].removeprefix("Bearer "))).app_id
    matchmaking = closed_services.matchmaking
    assert matchmaking is not None
    store = matchmaking.store
    ann = await join(closed_client, headers, "ann")
    bob = await join(closed_client, headers, "bob")
    assert bob["status"] == "matched"
    cy = await join(closed_client, headers, "cy")
    assert (await closed_client.delete(f"{QUEUE}/{cy['id']}", headers=headers)).status_code == 204
    # Two entries matched into a game whose creation is still owed (its process died): kept.
    erin, fay = [await join(closed_client, headers, player, 4, 4) for player in ("erin", "fay")]
    pending = str(uuid.uuid4())

    def plan(waiting: Any) -> QueuePlan:
        formed = QueueMatchRecord(pending, app_id, "sushi-go", "", len(waiting), (), matchmaking.clock.now())
        seats = [MatchedSeat(entry.entry_id, seat, matchmaking.ids.token()) for seat, entry in enumerate(waiting)]
        return QueuePlan(matches=[(formed, seats)], next_due=None)

    record = await store.entry(app_id, erin["id"])
    assert record is not None
    await store.match(app_id, record.queue_key, matchmaking.clock.now(), timedelta(seconds=30), plan)
    dee = await join(closed_client, headers, "dee", 3, 3)

    assert await store.forget(matchmaking.clock.now() - timedelta(days=1)) == 0, "nothing is a day old"
    assert await store.forget(matchmaking.clock.now() + timedelta(seconds=1)) == 3
    for gone in (ann, bob, cy):
        response = await closed_client.get(f"{QUEUE}/{gone['id']}", headers=headers)
        assert problem(response) == (404, "queue-entry-not-found")
    assert await store.match_of(bob["game_id"]) is None, "its formed game is forgotten with its entries"
    assert (await closed_client.get(f"/v1/games/{bob['game_id']}", headers=headers)).status_code == 200
    assert (await status(closed_client, headers, dee))["status"] == "waiting"
    kept = [await store.entry(app_id, entry["id"]) for entry in (erin, fay)]
    assert [(entry.status, entry.game_id) for entry in kept if entry is not None] == [("matched", pending)] * 2
    assert (await status(closed_client, headers, erin))["game_id"] == pending, "and its game is still created"
