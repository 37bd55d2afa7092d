"""Driving the web client as a person does: filling its forms and clicking what it offers."""

from __future__ import annotations

import time
from typing import Any

from tests import plain_http

#: How long one command may take, from the click to the redrawn table (the bots' moves after it
#: arrive through the event stream).
COMMAND_MS = 10_000
#: How long a game of bots only may take to play to its end in the background.
BOTS_SECONDS = 60


def wait_or_explain(page: Any, expression: str, arg: Any = None) -> None:
    """`page.wait_for_function`, whose timeout says where the page is and what problem it shows (a
    refused request, say), not only that the time ran out."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # where used, as conftest.py does

    try:
        page.wait_for_function(expression, arg=arg)
    except PlaywrightTimeoutError:
        problems = [text for text in page.locator('[data-zone="problem"]').all_inner_texts() if text.strip()]
        raise AssertionError(f"{expression} not true at {page.url}; problems shown: {problems}") from None


def game_id(page: Any) -> str:
    hash_ = page.evaluate("location.hash")
    return str(hash_.split("/")[2])


def tokens(page: Any, game: str) -> dict[str, str]:
    """The seat tokens this page's browser keeps for the game (seat number -> token)."""
    held: dict[str, str] = page.evaluate(f"JSON.parse(localStorage.getItem('kaiten.games'))['{game}'].seats")
    return held


def create_game(
    page: Any,
    game: str,
    players: int,
    seats: dict[int, str] | None = None,
    menu: str | None = None,
    seed: int = 7,
    private: bool = False,
    clock: int | None = None,
) -> str:
    """Fills the new-game form (seat kinds by seat: "you", "open", "bot:greedy"...; a turn clock of
    `clock` seconds), and answers the id."""
    page.goto(page.url.split("#")[0] + f"#/new/{game}")
    page.select_option("#players", str(players))
    page.fill("#your-name", "Alice")
    for seat, kind in (seats or {}).items():
        page.select_option(f"#seat-{seat}", kind)
    if menu is not None:
        page.select_option("#menu", menu)
    if private:
        page.check("#private")
    if clock is not None:
        page.select_option("#clock", str(clock))
    page.click("summary:text('Seed')")
    page.fill("#seed", str(seed))
    page.click("button[type=submit]")
    page.wait_for_selector(".table[data-version]")
    return game_id(page)


def settled(page: Any) -> int:
    """Waits until the table is drawn, follows the game live (or shows it over) and has no command in
    flight; answers its version. Once its stream opens, the page reads the table again and redraws it
    all: a click on a control as it is replaced is lost (a pick sent nowhere, which failed a test)."""
    page.wait_for_selector('[data-zone="connection"]:is([data-state="live"], [data-state="over"])')
    page.wait_for_selector('.table[data-version][aria-busy="false"]')
    return int(page.get_attribute(".table", "data-version"))


def send(page: Any, control: Any) -> None:
    """Clicks a control that sends a command, and waits for the table after it."""
    before = settled(page)
    control.click()
    page.wait_for_function(
        """before => {
            const table = document.querySelector(".table");
            return table && table.getAttribute("aria-busy") === "false" && Number(table.dataset.version) > before;
        }""",
        arg=before,
        timeout=COMMAND_MS,
    )


def finished(page: Any) -> bool:
    return page.locator('.table[data-status="finished"]').count() > 0


def first_enabled(page: Any, selectors: list[str]) -> Any | None:
    for selector in selectors:
        found = page.locator(f".table {selector}:not([disabled])")
        if found.count():
            return found.first
    return None


def play_to_the_end(page: Any, prefer: list[str], choose: tuple[str, ...] = (), most: int = 400) -> int:
    """Plays the seat's turns by clicking, each time, the first control found in `prefer` order (each
    one sends a command), until the game is over; answers the number of commands sent. When none is
    there, the first of `choose` is clicked first (a choice that offers the controls, like a basket
    reached in several ways)."""
    for sent in range(most):
        settled(page)
        if finished(page):
            return sent
        page.wait_for_function(
            """() => document.querySelector('.table[data-status="finished"]')
                || document.querySelector(".table button:is([data-command], [data-choose]):not([disabled])")""",
            timeout=COMMAND_MS,
        )
        if finished(page):
            return sent
        control = first_enabled(page, prefer)
        if control is None and (opener := first_enabled(page, list(choose))) is not None:
            opener.click()
            control = first_enabled(page, prefer)
        assert control is not None, f"nothing to click among {prefer}: {page.inner_text('.turn')}"
        send(page, control)
    raise AssertionError(f"the game was not over after {most} commands")


def shown_result(page: Any) -> dict[int, int]:
    """Each seat's total as the result panel shows it."""
    rows = page.locator('[data-zone="result"] li[data-seat]').evaluate_all(
        "rows => rows.map(row => [Number(row.dataset.seat), Number(row.dataset.total)])"
    )
    return {seat: total for seat, total in rows}


def api_result(kaiten: str, game: str) -> dict[int, int]:
    table = plain_http.get(f"{kaiten}/v1/games/{game}").json()
    assert table["status"] == "finished"
    return {score["seat"]: score["total"] for score in table["result"]["scores"]}


def card_ids(page: Any, selector: str) -> list[int]:
    """The ids of the cards drawn inside `selector`, in order."""
    ids: list[int] = page.locator(f"{selector} [data-card-id]").evaluate_all(
        "cards => cards.map(card => Number(card.dataset.cardId))"
    )
    return ids


def bots_game_finished(kaiten: str, body: dict[str, Any]) -> dict[str, Any]:
    """A game of bots only, created and played to its end in the background: its finished table."""
    response = plain_http.post(f"{kaiten}/v1/games", json=body)
    assert response.status_code == 201, response.text
    game_id = response.json()["id"]
    deadline = time.monotonic() + BOTS_SECONDS
    while time.monotonic() < deadline:
        table: dict[str, Any] = plain_http.get(f"{kaiten}/v1/games/{game_id}").json()
        if table["status"] == "finished":
            return table
        time.sleep(0.05)
    raise AssertionError(f"the bots of game {game_id} did not finish it within {BOTS_SECONDS}s")
