"""The client served from another origin (`?api=` names the server): CORS lets it call the API, and it
follows its seat's stream with single-use tickets, never with the seat's token in a URL; a lost stream
comes back with a fresh ticket."""

from __future__ import annotations

from typing import Any

from tests import plain_http
from tests.browser.ui import create_game, send, settled, tokens


def join_and_pick(kaiten: str, game: str) -> str:
    """Bob takes the open seat through the API and picks a card: the page must see it live."""
    token = plain_http.post(f"{kaiten}/v1/games/{game}/seats", json={"name": "Bob"}).json()["token"]
    pick(kaiten, game, token)
    return str(token)


def pick(kaiten: str, game: str, token: str) -> None:
    headers = {"authorization": f"Bearer {token}"}
    command = plain_http.get(f"{kaiten}/v1/games/{game}/legal-commands", headers=headers).json()["commands"][0]
    assert plain_http.post(f"{kaiten}/v1/games/{game}/commands", json=command, headers=headers).status_code == 200


def moved_past(page: Any, version: int) -> None:
    page.wait_for_function("v => Number(document.querySelector('.table').dataset.version) > v", arg=version)


def test_a_page_on_another_origin_plays_and_follows_its_seat_live(
    kaiten: str, other_origin: str, open_page: Any
) -> None:
    watched = open_page(f"{other_origin}/play/?api={kaiten}#/")
    page = watched.page
    requests: list[Any] = []
    page.on("request", lambda request: requests.append(request))
    game = create_game(page, "sushi-go", 2, {1: "open"})
    alice = tokens(page, game)["0"]
    before = settled(page)
    bob = join_and_pick(kaiten, game)
    moved_past(page, before)
    page.wait_for_selector('[data-zone="connection"]:text("Live.")')
    send(page, page.locator('.table button[data-command="pick"]').first)
    before = settled(page)
    pick(kaiten, game, bob)
    moved_past(page, before)

    api_calls = [request for request in requests if request.url.startswith(kaiten)]
    assert api_calls, "the page never called the API"
    assert all(alice not in request.url for request in requests), "the seat's token went into a URL"
    ticketed = [request for request in api_calls if "/events/stream?" in request.url]
    assert ticketed and all("ticket=" in request.url for request in ticketed)
    issued = [request for request in api_calls if request.url.endswith("/stream-tickets")]
    assert issued and issued[0].headers.get("authorization") == f"Bearer {alice}"
    answer = issued[0].response()
    assert answer.status == 201
    assert answer.headers["access-control-allow-origin"] == other_origin


def test_a_lost_stream_comes_back_with_a_fresh_ticket(kaiten: str, other_origin: str, open_page: Any) -> None:
    watched = open_page(f"{other_origin}/play/?api={kaiten}#/")
    page = watched.page
    watched.expected.append("net::ERR_FAILED")
    streams: list[str] = []

    def cut_the_first(route: Any) -> None:
        streams.append(route.request.url)
        if len(streams) == 1:
            route.abort()
        else:
            route.continue_()

    page.route("**/events/stream?*", cut_the_first)
    game = create_game(page, "sushi-go", 2, {1: "open"})
    page.wait_for_selector('[data-zone="connection"]:text("Live.")')
    before = settled(page)
    join_and_pick(kaiten, game)
    moved_past(page, before)

    assert len(streams) == 2, streams
    tickets = [url.split("ticket=")[1].split("&")[0] for url in streams]
    assert tickets[0] != tickets[1], "the spent ticket was used again"
    assert any("net::ERR_FAILED" in error for error in watched.errors), "the first stream was not cut"
