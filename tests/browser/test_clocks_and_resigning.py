"""A game with a turn clock in the web client: the time left ticks down beside the table, and a
person who resigns hands the seat to a bot (here the only person, so the game is abandoned, and a
rematch is offered)."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.browser.ui import create_game, settled, tokens


def test_the_clock_shows_the_time_left_and_resigning_ends_a_game_with_no_person_left(
    kaiten: str, open_page: Any
) -> None:
    page = open_page(f"{kaiten}/play").page
    game = create_game(page, "sushi-go", 2, {1: "bot:greedy"}, clock=60)
    settled(page)
    # A minute a turn and two in the bank: three minutes for the first pick.
    first = page.text_content('[data-zone="clocks"] li[data-seat="0"]')
    assert re.fullmatch(r"Alice: (3:00|2:5\d) left", first or ""), first
    page.wait_for_function(
        """first => document.querySelector('[data-zone="clocks"] li[data-seat="0"]').textContent !== first""",
        arg=first,
    )
    page.click('button[data-action="resign"]')
    page.wait_for_selector('.table[data-status="abandoned"]')
    assert page.text_content('[data-zone="turn"]') == "This game was abandoned."
    assert page.query_selector('button[data-action="resign"]') is None
    assert page.query_selector('[data-zone="clocks"] li') is None
    table = httpx.get(f"{kaiten}/v1/games/{game}", headers={"authorization": f"Bearer {tokens(page, game)['0']}"})
    assert table.json()["seats"][0]["resigned"] is True
    # An abandoned game is over too: a rematch is offered, with the clock kept.
    page.click("#rematch")
    page.wait_for_function("game => !location.hash.includes(game)", arg=game)
    settled(page)
    rematch = page.evaluate("location.hash").split("/")[2]
    again = httpx.get(f"{kaiten}/v1/games/{rematch}").json()
    assert again["rematch_of"] == game and again["status"] == "active"
    assert again["options"]["clock"]["turn_seconds"] == 60
