"""Every screen of every game fits a phone's 390 px: no screen scrolls sideways, from the new-game form
to the table while it runs, its end-of-game scores, and its replay at the start, the middle and the end.
Each game is played by as many seats as it takes, the widest its tables and score grids get."""

from __future__ import annotations

from typing import Any

import pytest

from tests import plain_http
from tests.browser.conftest import PHONE
from tests.browser.test_words import play_to_the_end
from tests.browser.ui import bots_game_finished, settled

#: A name as long as the form takes, with no space to break a line at.
LONG_NAME = "Wolfeschlegelsteinhausenbergerdorff-Wolfeschlegelsteinhausenbergerdorff"

WIDEST = """() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll("main *")]
        .filter(element => element.getBoundingClientRect().right > width + 0.5 && !element.closest(".scroll"))
        .map(element => element.outerHTML.slice(0, 80));
    return [document.documentElement.scrollWidth, wide.slice(0, 3)];
}"""


def fits(page: Any, name: str) -> None:
    page.wait_for_selector("main h1")
    width, wide = page.evaluate(WIDEST)
    assert width <= PHONE["width"], f"{name} is {width} px wide: {wide}"


@pytest.mark.parametrize("game", ["sushi-go", "sushi-go-party", "spin-some-for-dim-sum", "dim-sum-derby"])
def test_every_screen_of_the_game_fits_a_phone(kaiten: str, open_page: Any, game: str) -> None:
    most = plain_http.get(f"{kaiten}/v1/catalog/{game}").json()["max_players"]
    finished = bots_game_finished(kaiten, {"game": game, "players": most, "seats": [{"bot": "greedy"}] * most})
    running = plain_http.post(
        f"{kaiten}/v1/games",
        json={"game": game, "players": most, "seats": [{"name": LONG_NAME}] + [{"bot": "greedy"}] * (most - 1)},
    ).json()
    page = open_page(f"{kaiten}/play#/new/{game}", viewport=PHONE).page
    fits(page, f"the new {game} game form")
    page.goto(f"{kaiten}/play#/games/{running['id']}/seat/0?token={running['tokens']['0']}")
    settled(page)
    fits(page, f"a running {game} table")
    page.goto(f"{kaiten}/play#/games/{finished['id']}")
    page.wait_for_selector('.table[data-status="finished"]')
    fits(page, f"a finished {game} table")
    play_to_the_end(kaiten, running["id"], {"0": running["tokens"]["0"]})
    page.goto(f"{kaiten}/play#/games/{running['id']}")
    page.wait_for_selector('.table[data-status="finished"]')
    fits(page, f"a finished {game} table, as its person's seat")
    last = finished["version"]
    for version in (1, last // 2, last):
        page.goto(f"{kaiten}/play#/games/{finished['id']}/replay/{version}")
        page.wait_for_selector(f'.replay-board[data-version="{version}"][aria-busy="false"]')
        fits(page, f"the {game} replay at version {version} of {last}")
    for screen in (f"#/stats/{game}", f"#/history?game={game}"):
        page.goto(f"{kaiten}/play{screen}")
        fits(page, screen)
