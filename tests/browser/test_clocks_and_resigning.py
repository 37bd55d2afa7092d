"""A game with a turn clock in the web client: the time left ticks down beside the table, and a
person who resigns hands the seat to a bot (here the only person, so the game is abandoned, and a
rematch is offered). Resigning takes a confirmation, and its button sits far from the hand."""

from __future__ import annotations

import re
from typing import Any

from tests import plain_http
from tests.browser.conftest import PHONE
from tests.browser.ui import create_game, settled, tokens

#: How far below the hand "Resign" must be on a phone (it was 71 px above it): out of a thumb's reach.
FAR_PX = 300


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
    page.click('button[data-action="confirm-resign"]')
    page.wait_for_selector('.table[data-status="abandoned"]')
    assert page.text_content('[data-zone="turn"]') == "This game was abandoned."
    assert page.query_selector('button[data-action="resign"]') is None
    assert page.query_selector('[data-zone="clocks"] li') is None
    table = plain_http.get(f"{kaiten}/v1/games/{game}", headers={"authorization": f"Bearer {tokens(page, game)['0']}"})
    assert table.json()["seats"][0]["resigned"] is True
    # An abandoned game is over too: a rematch is offered, with the clock kept.
    page.click("#rematch")
    page.wait_for_function("game => !location.hash.includes(game)", arg=game)
    settled(page)
    rematch = page.evaluate("location.hash").split("/")[2]
    again = plain_http.get(f"{kaiten}/v1/games/{rematch}").json()
    assert again["rematch_of"] == game and again["status"] == "active"
    assert again["options"]["clock"]["turn_seconds"] == 60


def test_resigning_takes_a_confirmation_and_sits_far_from_the_hand_on_a_phone(kaiten: str, open_page: Any) -> None:
    page = open_page(f"{kaiten}/play", viewport=PHONE).page
    game = create_game(page, "sushi-go", 2, {1: "bot:greedy"})
    settled(page)
    # Measured in one evaluation: the bot's move, arriving through the stream at any moment, redraws the
    # table, and a box asked for in two steps can belong to an element already replaced (None).
    below = page.evaluate(
        """() => {
            const hand = document.querySelector('[data-zone="hand"]').getBoundingClientRect();
            return document.querySelector('button[data-action="resign"]').getBoundingClientRect().top - hand.bottom;
        }"""
    )
    resign = page.locator('button[data-action="resign"]')
    assert below >= FAR_PX, f"Resign is {below:.0f} px below the hand"
    headers = {"authorization": f"Bearer {tokens(page, game)['0']}"}

    # One tap asks; "Keep playing" (where the focus goes) takes it back.
    resign.click()
    question = page.locator('[data-zone="confirm-resign"]')
    assert "cannot take it back" in question.inner_text()
    assert page.evaluate("document.activeElement.dataset.action") == "cancel-resign"
    # A move arriving meanwhile redraws the table: the question and the focus stay where they were.
    before = page.get_attribute(".table", "data-version")
    legal = plain_http.get(f"{kaiten}/v1/games/{game}/legal-commands", headers=headers).json()["commands"]
    moved = plain_http.post(f"{kaiten}/v1/games/{game}/commands", json=legal[0], headers=headers)
    assert moved.status_code == 200, moved.text
    page.wait_for_function("before => document.querySelector('.table').dataset.version !== before", arg=before)
    assert question.is_visible()
    assert page.evaluate("document.activeElement.dataset.action") == "cancel-resign"
    page.keyboard.press("Enter")
    page.wait_for_selector('button[data-action="resign"]')
    assert page.evaluate("document.activeElement.dataset.action") == "resign"
    assert (
        plain_http.get(f"{kaiten}/v1/games/{game}", headers=headers).json()["seats"][0].get("resigned", False) is False
    )

    page.click('button[data-action="resign"]')
    page.click('button[data-action="confirm-resign"]')
    page.wait_for_selector('.table[data-status="abandoned"]')
    assert plain_http.get(f"{kaiten}/v1/games/{game}", headers=headers).json()["seats"][0]["resigned"] is True
