"""Every screen of the client opens without a console error, names every control for screen readers,
fits a phone's width, and the statistics draw their charts as SVG."""

from __future__ import annotations

from typing import Any

import pytest

from tests import plain_http
from tests.browser.conftest import PHONE, screenshot
from tests.browser.ui import bots_game_finished

GAMES = ["sushi-go", "sushi-go-party", "spin-some-for-dim-sum", "dim-sum-derby"]

#: Controls without a name a screen reader can read out: no label, no aria-label, no text.
UNNAMED = """() => [...document.querySelectorAll("main input, main select, main button, main a")]
    .filter(control => !(control.labels && control.labels.length) && !control.getAttribute("aria-label")
        && !control.textContent.trim())
    .map(control => control.outerHTML.slice(0, 120))"""


def a_finished_game(kaiten: str, game: str, players: int) -> str:
    """A game of bots, played to its end."""
    seats = [{"bot": "greedy"}] * players
    return str(bots_game_finished(kaiten, {"game": game, "players": players, "seats": seats})["id"])


def check(page: Any, name: str) -> None:
    # A screen draws its heading once its data is in (the lobby's open games a moment later).
    page.wait_for_selector("main h1")
    assert page.evaluate(UNNAMED) == [], f"{name}: controls without a name"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"], (
        f"{name} scrolls sideways"
    )


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_every_screen_opens_cleanly(kaiten: str, open_page: Any, viewport: dict[str, int] | None) -> None:
    game = a_finished_game(kaiten, "sushi-go", 2)
    open_game = plain_http.post(f"{kaiten}/v1/games", json={"game": "dim-sum-derby", "players": 3}).json()["id"]
    page = open_page(f"{kaiten}/play", **({"viewport": viewport} if viewport else {})).page
    screens = [
        "#/",
        *[f"#/new/{name}" for name in GAMES],
        f"#/games/{open_game}/join/0",
        f"#/games/{open_game}",
        f"#/games/{game}",
        f"#/games/{game}/replay/3",
        "#/history",
        "#/history?game=sushi-go&status=finished",
        "#/stats",
        *[f"#/stats/{name}" for name in GAMES],
        "#/players/carol",
    ]
    for screen in screens:
        page.goto(f"{kaiten}/play{screen}")
        check(page, screen)
    if viewport is None:
        page.goto(f"{kaiten}/play#/new/sushi-go-party")
        page.select_option("#menu", "custom")
        check(page, "a custom Party menu")
        screenshot(page, "new-party-game-desktop")
        page.goto(f"{kaiten}/play#/")
        page.wait_for_selector("#open-games + ul, #open-games + p:not(:text('Loading…'))")
        screenshot(page, "lobby-desktop")


def test_statistics_draw_charts(kaiten: str, open_page: Any) -> None:
    a_finished_game(kaiten, "spin-some-for-dim-sum", 2)
    page = open_page(f"{kaiten}/play#/stats/spin-some-for-dim-sum").page
    # The statistics are a catch-up projection: they trail the log by a moment.
    for _ in range(50):
        page.wait_for_selector("main h1")
        if page.locator("svg.chart").count() == 2:
            break
        page.wait_for_timeout(200)
        page.reload()
    charts = page.locator("svg.chart")
    assert charts.count() == 2
    assert charts.first.locator("rect.bar").count() >= 1
    assert "Seats by final score" in charts.first.locator("title").text_content()
    screenshot(page, "statistics-desktop")
