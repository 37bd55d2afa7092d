"""Played from the keyboard (issue 29 D5): the first Tab lands on "Skip to content", which moves to the
screen without leaving it, and after each move the focus stays in the hand, never thrown to <body>."""

from __future__ import annotations

from typing import Any

from tests.browser.ui import COMMAND_MS, create_game, settled

FOCUSED = """() => {
    const active = document.activeElement;
    return [active.tagName, active.className, active.closest('[data-zone]')?.dataset.zone ?? null];
}"""


def test_the_first_tab_finds_skip_to_content_and_it_moves_to_the_screen(kaiten: str, open_page: Any) -> None:
    page = open_page(f"{kaiten}/play#/history").page
    page.wait_for_selector("main h1")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#/history"
    assert page.evaluate("document.getElementById('main').contains(document.activeElement)")
    # Another screen, reached by a link: its heading takes the focus (read out first).
    page.click("nav >> text=Statistics")
    page.wait_for_function("() => document.activeElement.tagName === 'H1'")


def test_the_focus_stays_in_the_hand_move_after_move(kaiten: str, open_page: Any) -> None:
    page = open_page(f"{kaiten}/play").page
    create_game(page, "sushi-go", 2, {1: "bot:greedy"})
    for _ in range(3):
        before = settled(page)
        page.locator('[data-zone="hand"] button[data-command="pick"]').first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            """before => {
                const table = document.querySelector(".table");
                return table.getAttribute("aria-busy") === "false" && Number(table.dataset.version) > before
                    && document.querySelector('[data-zone="hand"] button[data-command="pick"]');
            }""",
            arg=before,
            timeout=COMMAND_MS,
        )
        assert page.evaluate(FOCUSED) == ["BUTTON", "card", "hand"]
