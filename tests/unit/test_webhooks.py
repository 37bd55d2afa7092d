"""What webhooks hear of, how they are signed, when they are retried, and where they may not go."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.notify import LocalNotifier
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.adapters.webhook_http import HttpWebhookSender, is_public
from kaiten.api.settings import SettingsError, WebhookOptions
from kaiten.services.commands import Act, CreateGame, GetTable, ListLegalCommands, NewSeat, Resign, TakeSeat
from kaiten.services.games import Games
from kaiten.services.ports import DELIVERIES_QUEUED, RESYNC, AppendNotice
from kaiten.services.webhook_delivery import PURGE_BATCH, PURGE_EVERY, DeliveryWorker, retry_delay
from kaiten.services.webhooks import SIGNATURE_TOLERANCE_SECONDS, body_signature, signature
from tests.e2e.webhook_receiver import RECEIVER_EXAMPLE, Receiver
from tests.unit.seats.fixtures import FakeClock

Payload = dict[str, object]


def payloads(store: InMemoryEventStore, game_id: str) -> list[Payload]:
    return [msgspec.json.decode(message.body) for message in store.outbox.get(game_id, [])]


async def play_to_the_end(games: Games, game_id: str, tokens: dict[str, str]) -> None:
    while (table := await games.view(GetTable(game_id))).status != "finished":
        for seat in table.awaiting:
            legal = await games.legal_commands(ListLegalCommands(game_id, tokens[str(seat)]))
            body = msgspec.json.encode(legal.commands[0])
            await games.act(Act(game_id=game_id, token=tokens[str(seat)], body=body))


async def test_turns_come_when_a_seat_is_newly_awaited_and_the_end_names_the_winners() -> None:
    store = InMemoryEventStore()
    games = Games(store, SystemClock(), SecureIds(), people=InMemoryPeople())
    created = await games.create(CreateGame("sushi-go", 3, None, 11, [NewSeat(name="a"), NewSeat(name="b")]))
    granted = await games.take_seat(TakeSeat(game_id=created.id, seat=NewSeat(name="c")))
    assert granted.token is not None
    tokens = {**created.tokens, "2": granted.token}
    # The game started with the last seat: every seat's turn came at once.
    started = (await games.view(GetTable(created.id))).version
    assert payloads(store, created.id) == [
        {"game_id": created.id, "version": started, "event": "turn", "seats": [0, 1, 2]}
    ]
    await play_to_the_end(games, created.id, tokens)
    sent = payloads(store, created.id)
    # Simultaneous picks: a seat that picked waits for the others and hears nothing until the hands
    # pass, when every seat's next turn comes together.
    assert {tuple(payload["seats"]) for payload in sent if payload["event"] == "turn"} == {(0, 1, 2)}
    final = await games.view(GetTable(created.id))
    assert sent[-1] == {
        "game_id": created.id,
        "version": final.version,
        "event": "finished",
        "seats": list(final.table.result.winners),
    }
    assert [payload["version"] for payload in sent] == sorted({payload["version"] for payload in sent})


async def test_an_abandoned_game_ends_too_with_no_winners() -> None:
    store = InMemoryEventStore()
    games = Games(store, SystemClock(), SecureIds(), people=InMemoryPeople())
    created = await games.create(CreateGame("sushi-go", 2, None, 11, [NewSeat(name="a"), NewSeat(bot="greedy")]))
    await games.resign(Resign(game_id=created.id, token=created.tokens["0"]))
    final = await games.view(GetTable(created.id))
    assert final.status == "abandoned"
    assert payloads(store, created.id)[-1] == {
        "game_id": created.id,
        "version": final.version,
        "event": "finished",
        "seats": [],
    }


def test_the_signature_is_the_hex_hmac_sha256_of_time_delivery_and_body() -> None:
    body = b'{"game_id":"g","version":3,"event":"turn","seats":[0]}'
    expected = hmac.new(b"secret", b"1700000000.42." + body, hashlib.sha256).hexdigest()
    assert signature("secret", 1_700_000_000, "42", body) == f"t=1700000000,v1={expected}"
    # API 1.0's header, kept for the receivers written against it.
    assert body_signature("secret", body) == "sha256=" + hmac.new(b"secret", body, hashlib.sha256).hexdigest()


verify = RECEIVER_EXAMPLE.verify
secrets_ = st.text(min_size=16, max_size=40)
times = st.integers(min_value=1_000_000_000, max_value=4_000_000_000)


@given(secrets_, times, st.integers(min_value=1, max_value=2**40).map(str), st.binary(max_size=200))
def test_the_receiver_example_takes_what_kaiten_signed_within_the_tolerance(
    secret: str, sent: int, delivery: str, body: bytes
) -> None:
    header = signature(secret, sent, delivery, body)
    tolerance = SIGNATURE_TOLERANCE_SECONDS
    assert tolerance == RECEIVER_EXAMPLE.TOLERANCE_SECONDS, "the example says what kaiten documents"
    assert verify(secret, header, delivery, body, now=sent + tolerance)
    assert verify(secret, header, delivery, body, now=sent - tolerance)
    assert not verify(secret, header, delivery, body, now=sent + tolerance + 1), "replayed later"
    assert not verify(secret, header, str(int(delivery) + 1), body, now=sent), "another delivery's id"
    assert not verify(secret, header, delivery, body + b" ", now=sent), "another body"
    assert not verify(secret + "x", header, delivery, body, now=sent), "another secret"
    shifted = header.replace(f"t={sent}", f"t={sent + 1}")
    assert not verify(secret, shifted, delivery, body, now=sent), "another time"
    assert not verify(secret, body_signature(secret, body), delivery, body, now=sent), "the body alone"


@pytest.mark.parametrize("header", ["", "t=,v1=", "v1=00", f"t={'9' * 5000},v1=00", "t=-5,v1=00", "t=\u0661,v1=00"])
def test_the_receiver_example_refuses_headers_that_are_no_signature(header: str) -> None:
    assert not verify("a-long-enough-secret", header, "1", b"{}", now=0)


@given(st.integers(min_value=1, max_value=60))
def test_retries_back_off_exponentially_with_jitter_up_to_a_cap(failures: int) -> None:
    ceiling = min(3600.0, 2.0 ** (failures - 1))
    assert 0 <= retry_delay(failures) <= ceiling


def test_jitter_spreads_the_retries() -> None:
    assert len({retry_delay(8) for _ in range(20)}) > 1


@pytest.mark.parametrize(
    "address",
    [
        *("127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0"),
        # Shared address space (the 100.100.100.200 is a cloud's metadata service), benchmarking,
        # IETF protocol assignments, documentation, multicast, broadcast.
        *("100.64.0.1", "100.100.100.200", "198.18.0.1", "192.0.0.170", "192.0.2.1", "224.0.0.1", "255.255.255.255"),
        *("::1", "fe80::1", "fd00::1", "::", "ff0e::1", "2001:db8::1"),
        # IPv6 addresses that lead to a private IPv4 one: 6to4 (2002::/16), NAT64, Teredo.
        *("2002:a00:1::1", "2002:6464:64c8::1", "64:ff9b::a00:1", "64:ff9b:1::a00:1"),
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    ],
)
def test_every_address_that_is_not_the_public_internets_is_refused(address: str) -> None:
    assert not is_public(address)
    if ":" not in address:
        assert not is_public(f"::ffff:{address}"), "IPv4-mapped"


@pytest.mark.parametrize(
    "address", ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "1.1.1.1", "2002:808:808::1", "64:ff9b::808:808"]
)
def test_public_addresses_are_taken(address: str) -> None:
    assert is_public(address)


@pytest.mark.parametrize(
    "url",
    [
        *("http://127.0.0.1:8000/hook", "http://localhost/hook", "https://[::1]/x", "http://169.254.169.254/latest"),
        *("http://100.100.100.200/latest/meta-data", "http://[2002:a00:1::1]/x"),
    ],
)
async def test_urls_into_the_servers_own_network_are_refused(url: str) -> None:
    refusal = await HttpWebhookSender().refusal(url)
    assert refusal is not None and "not the public internet's" in refusal


@pytest.mark.parametrize(
    "url", ["ftp://example.com/x", "file:///etc/passwd", "http:///nohost", "hook", "http://[::1/", "http://h:99999/"]
)
async def test_only_http_urls_with_a_host_are_taken(url: str) -> None:
    for sender in (HttpWebhookSender(), HttpWebhookSender(allow_private=True)):
        assert await sender.refusal(url) == "a webhook's URL is http:// or https:// with a host"


async def test_private_urls_are_taken_when_allowed() -> None:
    assert await HttpWebhookSender(allow_private=True).refusal("http://127.0.0.1:8000/hook") is None


async def test_a_refused_url_is_not_sent_to() -> None:
    result = await HttpWebhookSender().send("http://127.0.0.1:9/hook", b"{}", {})
    assert result.status_code is None and result.error is not None and result.error.startswith("not sent")


#: Builds a serving process's services, then sends one webhook to a port nobody listens on, and prints
#: which of httpx and its command line's packages were imported before and after the sending.
IMPORTS_AROUND_A_SENDING = """
import asyncio, sys
import kaiten.api.asgi
from kaiten.api.bootstrap import bootstrap
LOADED = ("httpx", "click", "rich", "pygments")
def loaded():
    return sorted({name.partition(".")[0] for name in sys.modules} & set(LOADED))
services = bootstrap(sys.argv[1])
print(loaded())
print(asyncio.run(services.delivery_worker.sender.send("http://127.0.0.1:9/hook", b"{}", {})).error is not None)
print(loaded())
"""


def test_a_set_of_services_loads_httpx_at_its_first_sending_not_before(tmp_path: Path) -> None:
    """A server's start and every command's: httpx, whose import brings its command line's packages, and
    its TLS context cost about 0.12 s of CPU, for webhooks most servers send seldom."""
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'kaiten.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-c", IMPORTS_AROUND_A_SENDING, database_url],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    before, sent, after = done.stdout.splitlines()
    assert (before, sent) == ("[]", "True")
    assert "httpx" in after


class Rebinding:
    """A name server that answers a public address first, then a loopback one (DNS rebinding)."""

    def __init__(self) -> None:
        self.answers = [["93.184.215.14"], ["127.0.0.1"]]

    async def __call__(self, host: str, port: int) -> list[str]:
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


async def test_a_name_that_resolves_elsewhere_after_the_check_is_not_sent_to() -> None:
    receiver = Receiver()
    await receiver.start()
    sender = HttpWebhookSender(resolver=Rebinding())
    try:
        url = f"http://rebinding.test:{receiver.port}/hook"
        assert await sender.refusal(url) is None, "public when registered"
        result = await sender.send(url, b"{}", {})
    finally:
        await sender.close()
        await receiver.stop()
    assert result.error is not None and result.error.startswith("not sent"), result
    assert receiver.received == []


async def test_the_connection_goes_to_the_address_that_was_checked() -> None:
    receiver = Receiver()
    await receiver.start()

    async def only_this_resolver(host: str, port: int) -> list[str]:
        return ["127.0.0.1"] if host == "hook.test" else []

    sender = HttpWebhookSender(allow_private=True, resolver=only_this_resolver)
    try:
        result = await sender.send(f"http://hook.test:{receiver.port}/hook", b"{}", {})
    finally:
        await sender.close()
        await receiver.stop()
    assert result.status_code == 200, result
    assert receiver.received[0].headers["host"] == f"hook.test:{receiver.port}"


class FinishedDeliveries:
    """A webhook store's purge, over deliveries known only by when they finished."""

    def __init__(self, finished: list[datetime]) -> None:
        self.finished = sorted(finished)

    async def purge(self, finished_before: datetime, limit: int) -> int:
        done = [moment for moment in self.finished if moment < finished_before][:limit]
        self.finished = self.finished[len(done) :]
        return len(done)


async def test_finished_deliveries_are_forgotten_after_the_keep_in_batches_once_an_hour() -> None:
    clock = FakeClock()
    keep = timedelta(days=30)
    old, recent = clock.now() - keep - timedelta(seconds=1), clock.now() - keep + timedelta(seconds=1)
    deliveries = FinishedDeliveries([old] * (2 * PURGE_BATCH + 5) + [recent])
    worker = DeliveryWorker(deliveries, HttpWebhookSender(), clock, keep_for=keep)  # type: ignore[arg-type]
    assert await worker.purge_finished() == 2 * PURGE_BATCH + 5
    assert deliveries.finished == [recent]
    clock.advance(PURGE_EVERY.total_seconds() - 1)
    assert await worker.purge_finished() == 0, "not looked for again within the hour"
    clock.advance(1)
    assert await worker.purge_finished() == 1
    assert deliveries.finished == []


class CountedClaims:
    """A webhook store with nothing due, which counts the worker's looks for due deliveries."""

    def __init__(self) -> None:
        self.claims = 0

    async def claim(self, now: datetime, until: datetime, limit: int) -> list[object]:
        self.claims += 1
        return []

    async def purge(self, finished_before: datetime, limit: int) -> int:
        return 0


async def settle() -> None:
    """Let every callback that is ready run: nothing here waits on I/O or on a timer."""
    for _ in range(20):
        await asyncio.sleep(0)


async def test_the_worker_looks_for_due_deliveries_when_an_append_queued_some_not_after_every_append() -> None:
    notifier, claims = LocalNotifier(), CountedClaims()
    # A poll far longer than the test: every look after the first is one a notice caused.
    worker = DeliveryWorker(claims, HttpWebhookSender(), FakeClock(), notifier=notifier, poll_seconds=3600)  # type: ignore[arg-type]
    async with notifier.running(), worker.running():
        await settle()
        assert claims.claims == 1, "one look as it starts"
        notifier.publish(AppendNotice("a-game", 7))
        await settle()
        assert claims.claims == 1, "an append that queued nothing"
        notifier.publish(DELIVERIES_QUEUED)
        await settle()
        assert claims.claims == 2
        notifier.publish(RESYNC)
        await settle()
        assert claims.claims == 3, "notices may have been lost: look again"


def test_how_long_finished_deliveries_are_kept_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert WebhookOptions.from_env().keep_for == timedelta(days=30)
    monkeypatch.setenv("KAITEN_WEBHOOK_KEEP", "12h")
    assert WebhookOptions.from_env().keep_for == timedelta(hours=12)
    monkeypatch.setenv("KAITEN_WEBHOOK_KEEP", "forever")
    with pytest.raises(SettingsError, match="KAITEN_WEBHOOK_KEEP"):
        WebhookOptions.from_env()
