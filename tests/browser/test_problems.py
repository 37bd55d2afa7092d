"""When something goes wrong (issue 29 D3, D4): the page says what happened in words, next to what
caused it, and clears it once it no longer holds; a seat or game this browser keeps that no longer
works explains itself and offers to watch the game or to forget the seat, never a blank page."""

from __future__ import annotations

import json
from typing import Any

from tests import plain_http
from tests.browser.conftest import PHONE
from tests.browser.ui import settled

IN_VIEW = """element => {
    const box = element.getBoundingClientRect();
    return box.height > 0 && box.top >= -1 && box.bottom <= window.innerHeight + 1;
}"""


def test_a_problem_shows_in_words_beside_its_button_and_clears_when_it_no_longer_holds(
    kaiten: str, open_page: Any
) -> None:
    watched = open_page(f"{kaiten}/play#/new/sushi-go-party", viewport=PHONE)
    watched.expected += ["ERR_INTERNET_DISCONNECTED", "Failed to load resource"]
    page = watched.page
    page.fill("#your-name", "Aiko")
    problem = page.locator('form [data-zone="problem"]')
    # A form that cannot be sent: the reason shows under its button, in view, and goes once it changes.
    page.select_option("#menu", "custom")
    page.locator("fieldset.choices input[type=checkbox]:checked").first.uncheck()
    page.click("button[type=submit]")
    problem.wait_for()
    assert "custom menu needs" in problem.inner_text()
    assert problem.evaluate(IN_VIEW), "the problem is off-screen"
    page.select_option("#menu", "random")
    problem.wait_for(state="hidden")

    # Offline: words, not "Failed to fetch"; cleared when the connection is back; then it works.
    page.context.set_offline(True)
    page.click("button[type=submit]")
    problem.wait_for()
    said = problem.inner_text()
    assert "Failed to fetch" not in said and "offline" in said.lower(), said
    assert problem.evaluate(IN_VIEW), "the problem is off-screen"
    assert page.locator("#notice").count() == 0, "a banner at the top of the page"
    page.context.set_offline(False)
    problem.wait_for(state="hidden")
    page.click("button[type=submit]")
    settled(page)


def hold_seat(page: Any, game: str, kind: str, token: str) -> None:
    held = {game: {"game": kind, "seats": {"0": token}, "added": "2024-01-01T00:00:00Z"}}
    page.evaluate("held => localStorage.setItem('kaiten.games', held)", json.dumps(held))


def test_a_seat_whose_code_fails_explains_and_offers_to_watch_or_forget(kaiten: str, open_page: Any) -> None:
    game = plain_http.post(
        f"{kaiten}/v1/games", json={"game": "sushi-go", "players": 2, "seats": [{"name": "Ben"}]}
    ).json()
    watched = open_page(f"{kaiten}/play#/")
    watched.expected += ["401", "404", "422"]
    page = watched.page
    page.wait_for_selector("main h1")
    hold_seat(page, game["id"], "sushi-go", "not-a-token-of-this-game")
    page.goto(f"{kaiten}/play#/games/{game['id']}")
    page.wait_for_selector("main h1:text('Your seat here no longer works')")
    assert "no longer works" in page.inner_text('[data-zone="unreadable"]')
    page.get_by_role("link", name="Watch the game").click()
    page.wait_for_selector(".table[data-version]")
    assert page.text_content('[data-zone="turn"]').startswith("Waiting for players")
    page.go_back()
    page.click('button[data-action="forget"]')
    page.wait_for_selector(".table[data-version]")
    assert page.evaluate("JSON.parse(localStorage.getItem('kaiten.games'))") == {}

    # A game the server does not know, held here or not: said in words, with ways on.
    unknown = "00000000-0000-4000-8000-000000000000"
    hold_seat(page, unknown, "sushi-go", "not-a-token-either")
    page.goto(f"{kaiten}/play#/games/{unknown}")
    page.wait_for_selector("main h1:text('Game not found')")
    page.click('button[data-action="forget"]')
    page.wait_for_function("() => location.hash === '#/'")
    for address in (f"#/games/{unknown}", "#/games/not-a-game", f"#/games/{unknown}/replay"):
        page.goto(f"{kaiten}/play{address}")
        page.wait_for_selector("main h1")
        assert page.text_content("main h1") == "Game not found", address
        assert page.locator("main a[href='#/']").count() == 1
