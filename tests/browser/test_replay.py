"""The replay slider: the table it shows at version N is the API's replay?at=N, and it is driven by
the keyboard like any range input."""

from __future__ import annotations

from typing import Any

from tests import plain_http
from tests.browser.conftest import screenshot
from tests.browser.ui import bots_game_finished, card_ids


def finished_bot_game(kaiten: str) -> tuple[str, int]:
    """A Sushi Go! game of three bots, played to its end."""
    seats = [{"bot": "greedy"}, {"bot": "random"}, {"bot": "greedy"}]
    table = bots_game_finished(kaiten, {"game": "sushi-go", "players": 3, "seed": 11, "seats": seats})
    return table["id"], table["version"]


def shown_at(page: Any, version: int) -> None:
    page.wait_for_selector(f'.replay-board[data-version="{version}"][aria-busy="false"]')


def test_the_replay_slider_shows_the_table_at_each_version(kaiten: str, open_page: Any) -> None:
    game, last = finished_bot_game(kaiten)
    page = open_page(f"{kaiten}/play#/games/{game}/replay").page
    shown_at(page, last)
    assert page.locator(".events li").count() == last
    slider = page.locator("#replay-version")
    slider.focus()
    page.keyboard.press("Home")
    shown_at(page, 1)
    for _ in range(9):
        page.keyboard.press("ArrowRight")
    shown_at(page, 10)
    screenshot(page, "replay-desktop")

    for version in (10, last // 3, last // 2, last - 5, last):
        slider.fill(str(version))
        shown_at(page, version)
        state = plain_http.get(f"{kaiten}/v1/games/{game}/replay", params={"at": version}).json()["state"]
        for seat, tableau in enumerate(state["tableaus"]):
            zone = f'.replay-board [data-zone="tableau"][data-seat="{seat}"]'
            assert card_ids(page, zone) == [card["id"] for card in tableau], f"seat {seat} at version {version}"
        assert page.locator(f'.events li[data-version="{version}"][aria-current="step"]').count() == 1

    # The event list steps too: its entries jump to their version.
    page.locator('.events li[data-version="20"] button').click()
    shown_at(page, 20)

    # The game is over: its replay shows any seat's hand as that seat saw it then.
    assert card_ids(page, '.replay-board [data-zone="hand"]') == []
    page.select_option("#replay-seat", "1")
    page.wait_for_selector('.replay-board[data-seat="1"][aria-busy="false"]')
    seen = plain_http.get(f"{kaiten}/v1/games/{game}/replay", params={"at": 20, "as_seat": 1}).json()["state"]["hand"]
    assert seen and card_ids(page, '.replay-board [data-zone="hand"]') == [card["id"] for card in seen]
