"""One complete game of each of the four games, played through the web client against bots, to the
result; screenshots of each table at desktop and phone widths on the way."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, screenshot
from tests.browser.ui import api_result, create_game, play_to_the_end, send, settled, shown_result

#: What the person clicks, first found first: cards and prompts in the card games; in Dim Sum Derby
#: eating whenever a dish has room, else serving, else turning the carts.
GAMES = [
    pytest.param("sushi-go", 2, None, ['button[data-command="pick"]'], (), id="sushi-go"),
    # Dinner for Two brings menu and special-order prompts, Big Banquet chopsticks and spoons.
    pytest.param(
        "sushi-go-party",
        2,
        "dinner-for-two",
        ["button[data-command]:not([data-command='take-basket'])"],
        (),
        id="sushi-go-party",
    ),
    pytest.param(
        "spin-some-for-dim-sum",
        2,
        None,
        [
            'button[data-command="take-basket"]',
            '.choices button[data-command="take"]',
            '.choices button[data-command="return-bun"]',
            '.choices button[data-command="rotate"]',
        ],
        ('button[data-choose="basket"]',),
        id="spin-some-for-dim-sum",
    ),
    pytest.param(
        "dim-sum-derby",
        3,
        None,
        [
            'button[data-command="eat"]',
            'button[data-command="serve"]',
            'button[data-command="rotate"]',
            'button[data-command="cycle"]',
        ],
        (),
        id="dim-sum-derby",
    ),
]


@pytest.mark.parametrize(("game", "players", "menu", "prefer", "choose"), GAMES)
def test_a_whole_game_against_bots_through_the_page(
    kaiten: str, open_page: Any, game: str, players: int, menu: str | None, prefer: list[str], choose: tuple[str, ...]
) -> None:
    watched = open_page(f"{kaiten}/play")
    page = watched.page
    seats = {seat: "bot:greedy" for seat in range(1, players)}
    game_id = create_game(page, game, players, seats, menu=menu)

    # A few commands in, the table at both widths (the phone's is the same page, narrower).
    for _ in range(3):
        send(page, page.locator(f".table :is({', '.join(prefer)}):not([disabled])").first)
    settled(page)
    screenshot(page, f"{game}-table-desktop")
    page.set_viewport_size(PHONE)
    settled(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "the phone page scrolls sideways"
    screenshot(page, f"{game}-table-phone")
    page.set_viewport_size(DESKTOP)

    play_to_the_end(page, prefer, choose)

    assert shown_result(page) == api_result(kaiten, game_id)
    assert page.locator('[data-zone="result"] .breakdown dt').count() > 0, "no score breakdown"
    screenshot(page, f"{game}-result-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, f"{game}-result-phone")
