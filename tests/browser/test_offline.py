"""A network drop (issue 29 D1): with the browser offline for a few seconds, the table says it is
offline, a move made meanwhile waits and is sent once (each try with the same idempotency key), and
within 5 s of the connection coming back the table shows where the game is, with its buttons."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests import plain_http
from tests.browser.conftest import TIMEOUT_MS
from tests.browser.ui import settled

#: How long after the connection is back the table must have caught up.
CATCH_UP_MS = 5_000


def test_a_network_drop_is_shown_and_caught_up_and_a_move_made_offline_is_sent_once(
    kaiten: str, open_page: Any
) -> None:
    seats = [{"name": "Aiko"}, {"name": "Ben"}]
    created = plain_http.post(f"{kaiten}/v1/games", json={"game": "sushi-go", "players": 2, "seats": seats}).json()
    game, tokens = created["id"], created["tokens"]
    watched = open_page(f"{kaiten}/play#/games/{game}/seat/0?token={tokens['0']}")
    watched.expected += ["ERR_INTERNET_DISCONNECTED", "ERR_NETWORK_CHANGED", "Failed to load resource"]
    page = watched.page
    keys: list[str | None] = []
    page.on(
        "request",
        lambda request: (
            request.method == "POST"
            and request.url.endswith("/commands")
            and keys.append(request.headers.get("idempotency-key"))
        ),
    )
    settled(page)
    page.wait_for_selector('[data-zone="connection"][data-state="live"]')

    page.context.set_offline(True)
    page.wait_for_selector('[data-zone="connection"][data-state="offline"]')
    assert "offline" in page.text_content('[data-zone="connection"]').lower()
    # Ben moves meanwhile: the page cannot read it.
    ben = {"authorization": f"Bearer {tokens['1']}"}
    command = plain_http.get(f"{kaiten}/v1/games/{game}/legal-commands", headers=ben).json()["commands"][0]
    assert plain_http.post(f"{kaiten}/v1/games/{game}/commands", json=command, headers=ben).status_code == 200
    # Aiko picks a card offline: the move waits, and says so.
    page.locator('[data-zone="hand"] button[data-command="pick"]').first.click()
    page.wait_for_function("() => document.querySelector('.table').getAttribute('aria-busy') === 'true'")
    # A few seconds offline: the page tries again meanwhile (the same key each time).
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert "sent as soon as the connection is back" in page.text_content('[data-zone="connection"]')

    page.context.set_offline(False)
    back = time.monotonic()
    aiko = {"authorization": f"Bearer {tokens['0']}"}
    # Both picks in, the cards revealed: the server moved on to the next turn.
    page.wait_for_function(
        """() => {
            const table = document.querySelector(".table");
            return table.getAttribute("aria-busy") === "false"
                && document.querySelector('[data-zone="connection"]').dataset.state === "live"
                && document.querySelectorAll('[data-zone="tableau"][data-seat="1"] [data-card-id]').length === 1
                && document.querySelectorAll('[data-zone="hand"] button[data-command="pick"]').length > 0;
        }""",
        timeout=CATCH_UP_MS,
    )
    assert time.monotonic() - back < CATCH_UP_MS / 1000
    server = plain_http.get(f"{kaiten}/v1/games/{game}", headers=aiko).json()
    assert settled(page) == server["version"]
    assert len(server["state"]["tableaus"][0]) == 1, "Aiko's move was played twice, or not at all"
    assert len(keys) >= 1 and None not in keys and len(set(keys)) == 1, keys


def test_a_table_is_settled_only_once_it_follows_the_game_live(kaiten: str, open_page: Any) -> None:
    """Once its stream opens, the page reads the table again and redraws it all, and a click on a control
    as it is replaced is lost: a test's pick went nowhere, and its wait for the table ran out. So the
    tests' `settled` waits for the stream, which no stream ticket can open here until it is let through."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # where used, as conftest.py does

    seats = [{"name": "Aiko"}, {"name": "Ben"}]
    created = plain_http.post(f"{kaiten}/v1/games", json={"game": "sushi-go", "players": 2, "seats": seats}).json()
    watched = open_page(f"{kaiten}/play")
    watched.expected += ["Failed to load resource"]
    page = watched.page
    # Refused before the table's screen opens (a change of the address's hash), so its stream cannot open.
    page.route("**/stream-tickets", lambda route: route.abort())
    page.goto(f"{kaiten}/play#/games/{created['id']}/seat/0?token={created['tokens']['0']}")
    page.wait_for_selector('.table[data-version][aria-busy="false"]')
    page.set_default_timeout(1_000)
    with pytest.raises(PlaywrightTimeoutError):
        settled(page)
    assert page.get_attribute('[data-zone="connection"]', "data-state") == "connecting"

    page.unroute("**/stream-tickets")
    page.set_default_timeout(TIMEOUT_MS)
    table = plain_http.get(f"{kaiten}/v1/games/{created['id']}").json()
    assert settled(page) == table["version"]
    assert page.get_attribute('[data-zone="connection"]', "data-state") == "live"
