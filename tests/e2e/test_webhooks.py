"""Webhooks through the API, delivered by the serving process's worker to a receiver on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from kaiten.api.app import create_app
from kaiten.api.bootstrap import bootstrap
from kaiten.api.settings import WebhookOptions
from kaiten.services.webhooks import body_signature, signature
from tests import plain_http
from tests.app_client import AppClient
from tests.e2e.play import bearer, create, play_randomly, turn_came
from tests.e2e.servers import free_port
from tests.e2e.serving import serving
from tests.e2e.webhook_receiver import (
    RECEIVER_EXAMPLE_PATH,
    SECRET,
    WAIT_SECONDS,
    Receiver,
    person_against_a_bot,
    pick,
    register,
)


@pytest.fixture
async def hooked(database_url: str) -> AsyncIterator[AppClient]:
    """An app whose worker delivers (to 127.0.0.1, allowed here) and retries within tenths of a second."""
    options = WebhookOptions(allow_private=True, first_retry_seconds=0.1)
    async with serving(database_url, run_deliveries=True, webhooks=options) as services:
        assert services.delivery_worker is not None
        services.delivery_worker.poll_seconds = 0.05
        async with AppClient(app=create_app(services)) as client:
            yield client


async def next_turn(client: AppClient, game: dict[str, Any]) -> int:
    """Alice picks; the version at which her next turn came (the bot picks in the background, before
    or after her: the hands pass at her pick or at the bot's)."""
    return await turn_came(client, game["id"], 0, await pick(client, game))


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    started = Receiver()
    await started.start()
    yield started
    await started.stop()


async def test_a_whole_game_is_delivered_signed_and_in_order(
    hooked: AppClient,
    receiver: Receiver,
) -> None:
    game = await person_against_a_bot(hooked)
    hook = await register(hooked, game, receiver.url)
    finished = await play_randomly(hooked, game, random.Random(3))
    await receiver.wait_for(1, event="finished", game_id=game["id"])
    payloads = await receiver.wait_for(1, game_id=game["id"])
    assert all(item.signed_with(SECRET) for item in receiver.received)
    versions = [payload["version"] for payload in payloads]
    assert versions == sorted(set(versions))
    # Every turn but the last gives Alice her next turn, with the bot's, when the hands pass (whichever
    # of them picked last: the table awaited both right then); the last one ends the game.
    turns = [payload for payload in payloads if payload["event"] == "turn"]
    assert len(turns) >= 20 and {tuple(payload["seats"]) for payload in turns} == {(0, 1)}
    for turn in turns[:: len(turns) // 4]:
        replayed = await hooked.get(f"/v1/games/{game['id']}/replay?at={turn['version']}")
        assert replayed.json()["awaiting"] == [0, 1]
    assert payloads[-1] == {
        "game_id": game["id"],
        "version": finished["version"],
        "event": "finished",
        "seats": finished["result"]["winners"],
    }
    shown = await hooked.get(
        f"/v1/games/{game['id']}/webhooks/{hook['id']}/deliveries?limit=500", headers=bearer(game["tokens"]["0"])
    )
    deliveries = shown.json()["deliveries"]
    assert [delivery["version"] for delivery in deliveries] == versions
    assert {delivery["status"] for delivery in deliveries} == {"delivered"}
    first = deliveries[0]["attempts"]
    assert len(first) == 1 and first[0]["status_code"] == 200 and first[0]["latency_ms"] >= 0


async def test_a_failed_delivery_is_retried_and_holds_the_later_ones_back(
    hooked: AppClient,
    receiver: Receiver,
) -> None:
    game = await person_against_a_bot(hooked)
    hook = await register(hooked, game, receiver.url, events=["turn"])
    receiver.statuses = [500, 503]
    versions = [await next_turn(hooked, game) for _ in range(3)]
    payloads = await receiver.wait_for(3, game_id=game["id"])
    assert [payload["version"] for payload in payloads] == versions
    # The first delivery was tried three times; the others waited for it and came once each.
    received = [item for item in receiver.received if item.payload["game_id"] == game["id"]]
    assert [item.payload["version"] for item in received] == [versions[0]] * 3 + versions[1:]
    assert [item.headers["x-kaiten-attempt"] for item in received[:3]] == ["1", "2", "3"]
    shown = await hooked.get(
        f"/v1/games/{game['id']}/webhooks/{hook['id']}/deliveries", headers=bearer(game["tokens"]["0"])
    )
    attempts = shown.json()["deliveries"][0]["attempts"]
    assert [attempt["status_code"] for attempt in attempts] == [500, 503, 200]


async def test_deliveries_wait_for_a_receiver_that_is_down(
    hooked: AppClient,
) -> None:
    receiver = Receiver()  # not listening yet
    game = await person_against_a_bot(hooked)
    hook = await register(hooked, game, receiver.url)
    versions = [await next_turn(hooked, game) for _ in range(2)]
    path = f"/v1/games/{game['id']}/webhooks/{hook['id']}/deliveries"
    async with asyncio.timeout(10):
        while not (await hooked.get(path, headers=bearer(game["tokens"]["0"]))).json()["deliveries"][0]["attempts"]:
            await asyncio.sleep(0.05)
    failed = (await hooked.get(path, headers=bearer(game["tokens"]["0"]))).json()["deliveries"][0]["attempts"][0]
    assert failed["status_code"] is None and failed["error"]
    await receiver.start()
    try:
        payloads = await receiver.wait_for(2, game_id=game["id"])
    finally:
        await receiver.stop()
    assert [payload["version"] for payload in payloads] == versions


async def test_only_the_seat_that_registered_a_webhook_sees_or_removes_it(
    hooked: AppClient,
    receiver: Receiver,
) -> None:
    game = await create(hooked, "sushi-go", 2, seed=1)
    hook = await register(hooked, game, receiver.url)
    second = await register(hooked, game, receiver.url, events=["finished"])
    listed = await hooked.get(f"/v1/games/{game['id']}/webhooks", headers=bearer(game["tokens"]["0"]))
    assert listed.status_code == 200, listed.text
    assert [(item["id"], item["events"]) for item in listed.json()["webhooks"]] == [
        (hook["id"], ["turn", "finished"]),
        (second["id"], ["finished"]),
    ]
    assert listed.json()["webhooks"][0]["url"] == receiver.url and "secret" not in listed.json()["webhooks"][0]
    others = await hooked.get(f"/v1/games/{game['id']}/webhooks", headers=bearer(game["tokens"]["1"]))
    assert others.json() == {"webhooks": []}, "a seat sees only its own webhooks"
    path = f"/v1/games/{game['id']}/webhooks/{hook['id']}"
    other = await hooked.get(f"{path}/deliveries", headers=bearer(game["tokens"]["1"]))
    assert other.status_code == 404 and other.json()["code"] == "webhook-not-found"
    assert (await hooked.delete(path, headers=bearer(game["tokens"]["1"]))).status_code == 404
    anonymous = await hooked.get(f"{path}/deliveries")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "missing-token"
    assert (await hooked.delete(path, headers=bearer(game["tokens"]["0"]))).status_code == 204
    left = await hooked.get(f"/v1/games/{game['id']}/webhooks", headers=bearer(game["tokens"]["0"]))
    assert [item["id"] for item in left.json()["webhooks"]] == [second["id"]]
    gone = await hooked.get(f"{path}/deliveries", headers=bearer(game["tokens"]["0"]))
    assert gone.status_code == 404 and gone.json()["code"] == "webhook-not-found"
    await pick(hooked, game)
    assert [item for item in receiver.received if item.payload["game_id"] == game["id"]] == []


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"url": "ftp://127.0.0.1/x", "events": ["turn"], "secret": SECRET}, 422, "webhook-url-refused"),
        ({"url": "not a url", "events": ["turn"], "secret": SECRET}, 422, "webhook-url-refused"),
        # The reproduction: no host could be read from it, and that was a 500.
        ({"url": "http://[::1/", "events": ["turn"], "secret": SECRET}, 422, "webhook-url-refused"),
        ({"url": "http://127.0.0.1/x", "events": ["moved"], "secret": SECRET}, 400, "malformed-request"),
        ({"url": "http://127.0.0.1/x", "events": [], "secret": SECRET}, 400, "malformed-request"),
        ({"url": "http://127.0.0.1/x", "events": ["turn"], "secret": "short"}, 400, "malformed-request"),
    ],
)
async def test_bad_webhooks_are_refused_with_a_code(
    hooked: AppClient,
    body: dict[str, Any],
    status: int,
    code: str,
) -> None:
    game = await create(hooked, "sushi-go", 2, seed=1)
    response = await hooked.post(f"/v1/games/{game['id']}/webhooks", json=body, headers=bearer(game["tokens"]["0"]))
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == code


async def test_the_readmes_receiver_example_takes_every_delivery_and_refuses_what_kaiten_did_not_send(
    hooked: AppClient,
) -> None:
    """docs/webhook_receiver.py, run as it is, behind a real webhook: it takes each delivery once and
    answers 401 to a forged, replayed or tampered request."""
    port = free_port()
    example = subprocess.Popen(
        [sys.executable, str(RECEIVER_EXAMPLE_PATH), str(port)],
        env={**os.environ, "KAITEN_WEBHOOK_SECRET": SECRET},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert example.stdout is not None and example.stdout.readline().startswith("listening")
        url = f"http://127.0.0.1:{port}/hook"
        game = await person_against_a_bot(hooked)
        hook = await register(hooked, game, url)
        await play_randomly(hooked, game, random.Random(4))
        listed = f"/v1/games/{game['id']}/webhooks/{hook['id']}/deliveries?limit=500"
        async with asyncio.timeout(WAIT_SECONDS):
            while True:
                deliveries = (await hooked.get(listed, headers=bearer(game["tokens"]["0"]))).json()["deliveries"]
                if deliveries and {delivery["status"] for delivery in deliveries} == {"delivered"}:
                    break
                await asyncio.sleep(0.1)
        assert {attempt["status_code"] for delivery in deliveries for attempt in delivery["attempts"]} == {204}

        body = b'{"game_id":"g","version":1,"event":"turn","seats":[0]}'
        now = int(time.time())
        sent = [
            ("900001", signature(SECRET, now, "900001", body), body, 204),
            ("900001", signature(SECRET, now, "900001", body), body, 204),  # again: taken once, answered 2xx
            ("900002", signature(SECRET, now - 301, "900002", body), body, 401),  # replayed after the tolerance
            ("900003", signature(SECRET, now, "900002", body), body, 401),  # another delivery's signature
            ("900004", signature(SECRET, now, "900004", body), body.replace(b"turn", b"finished"), 401),
            ("900005", signature("another-secret-entirely", now, "900005", body), body, 401),
            ("900006", body_signature(SECRET, body), body, 401),  # API 1.0's header: signs no time
        ]
        async with plain_http.async_client() as client:
            for delivery, header, content, status in sent:
                headers = {"Kaiten-Signature": header, "X-Kaiten-Delivery": delivery}
                assert (await client.post(url, content=content, headers=headers)).status_code == status, delivery
    finally:
        example.terminate()
        output, _ = example.communicate(timeout=10)
    taken = [json.loads(line) for line in output.splitlines()]
    assert [item["delivery"] for item in taken] == [*(str(d["delivery_id"]) for d in deliveries), "900001"]
    assert [item["version"] for item in taken[:-1]] == [delivery["version"] for delivery in deliveries]


@pytest.mark.postgres
async def test_two_workers_share_the_deliveries_without_sending_one_twice(
    postgres_url: str, receiver: Receiver
) -> None:
    """Two serving processes' workers on one PostgreSQL: each delivery is claimed by one of them."""
    options = WebhookOptions(allow_private=True, first_retry_seconds=0.1)
    first = bootstrap(postgres_url, run_deliveries=True, run_scheduler=True, webhooks=options)
    second = bootstrap(postgres_url, run_deliveries=True, run_scheduler=True, webhooks=options)
    try:
        await first.is_ready()  # the engine's first connection, before the client's loop uses it
        async with AppClient(app=create_app(first)) as client:
            await second.start()
            games = [await person_against_a_bot(client) for _ in range(3)]
            for game in games:
                await register(client, game, receiver.url)
            versions = {game["id"]: [await next_turn(client, game) for _ in range(4)] for game in games}
            payloads = [payload for game in games for payload in await receiver.wait_for(4, game_id=game["id"])]
    finally:
        await second.close()
        await first.close()
    mine = {game["id"] for game in games}
    assert len([item for item in receiver.received if item.payload["game_id"] in mine]) == 12
    for game in games:
        assert [payload["version"] for payload in payloads if payload["game_id"] == game["id"]] == versions[game["id"]]


async def test_a_deliveries_page_after_a_version_no_stream_reaches_is_refused(
    hooked: AppClient,
    receiver: Receiver,
) -> None:
    """The issue's reproduction: `after=2147483648` overflowed PostgreSQL's integer, a 500."""
    game = await person_against_a_bot(hooked)
    hook = await register(hooked, game, receiver.url)
    listed = f"/v1/games/{game['id']}/webhooks/{hook['id']}/deliveries"
    seat = bearer(game["tokens"]["0"])
    assert (await hooked.get(f"{listed}?after=2147483647", headers=seat)).json() == {"deliveries": []}
    for after in ("2147483648", "9" * 4301):
        response = await hooked.get(f"{listed}?after={after}", headers=seat)
        assert response.status_code == 400, response.text
        assert response.json()["code"] == "malformed-request"
