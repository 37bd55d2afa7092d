"""The web client's "find a game" screen (issue 29 §2): two people join a matchmaking queue from their
browsers and land at one table, each at their own seat; a person may leave the queue while waiting.
Both of its states fit a phone and pass axe-core."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests import plain_http
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import audit, axe_script
from tests.browser.test_phone_widths import fits
from tests.browser.ui import game_id, settled, tokens

__all__ = ["axe_script"]  # the fixture, used here too

GAME = "spin-some-for-dim-sum"


def look_for_a_game(page: Any, name: str, waits: bool = True) -> None:
    page.fill("#find-name", name)
    page.select_option("#find-min", "2")
    page.select_option("#find-max", "2")
    page.click("#find-join")
    if waits:
        page.wait_for_selector("#find-waiting")


def test_two_people_looking_for_a_game_sit_down_together(kaiten: str, open_page: Any, axe_script: Path) -> None:
    alice = open_page(f"{kaiten}/play#/", viewport=PHONE).page
    alice.click(f"a[href='#/find/{GAME}']")
    alice.wait_for_selector("#find-join")
    problems: list[str] = []
    fits(alice, "the find-a-game form")
    audit(alice, axe_script, "find a game", problems)
    look_for_a_game(alice, "Alice")
    fits(alice, "waiting for a game")
    audit(alice, axe_script, "waiting for a game", problems)
    assert problems == [], "\n".join(problems)
    # Left, and back in the queue; a reload keeps waiting.
    alice.click("#find-leave")
    alice.wait_for_selector("#find-join")
    look_for_a_game(alice, "Alice")
    alice.reload()
    alice.wait_for_selector("#find-waiting")
    bob = open_page(f"{kaiten}/play#/find/{GAME}").page
    bob.wait_for_selector("#find-join")
    look_for_a_game(bob, "Bob", waits=False)
    settled(bob)
    settled(alice)
    game = game_id(alice)
    assert game_id(bob) == game
    seats = {**tokens(alice, game), **tokens(bob, game)}
    assert sorted(seats) == ["0", "1"] and len(tokens(alice, game)) == len(tokens(bob, game)) == 1
    table = plain_http.get(f"{kaiten}/v1/games/{game}").json()
    assert [seat["name"] for seat in table["seats"]] == ["Alice", "Bob"]
