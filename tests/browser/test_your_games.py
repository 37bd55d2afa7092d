"""The web client's "your games" screen (issue 29 §1 and §4): the games this browser holds seats in,
with whose turn it is in words, most urgent first; it follows the player's stream (a player token the
browser mints on an open server) and changes when another player's move makes it the player's turn,
without a reload. A seat that leads nowhere is explained and can be forgotten. It fits a phone and
passes axe-core."""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests import plain_http
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_accessibility import audit, axe_script
from tests.browser.test_phone_widths import fits
from tests.browser.ui import BOTS_SECONDS

__all__ = ["axe_script"]  # the fixture, used here too

#: How long the screen may take to show a move made elsewhere: well under its 20 s reads, so only the
#: player's stream makes it in time.
PUSHED_MS = 5_000


def new_game(kaiten: str, player_id: str) -> tuple[str, dict[str, str]]:
    seats = [{"name": "Alice", "player_id": player_id}, {"name": "Ben", "player_id": f"ben-{uuid.uuid4().hex[:8]}"}]
    created = plain_http.post(f"{kaiten}/v1/games", json={"game": "sushi-go", "players": 2, "seats": seats}).json()
    return created["id"], created["tokens"]


def finished_game(kaiten: str, player_id: str) -> tuple[str, str]:
    """A game Alice played to its end against the greedy bot, her first legal move each turn."""
    seats = [{"name": "Alice", "player_id": player_id}, {"bot": "greedy"}]
    created = plain_http.post(f"{kaiten}/v1/games", json={"game": "sushi-go", "players": 2, "seats": seats}).json()
    game, token = created["id"], created["tokens"]["0"]
    seat = {"authorization": f"Bearer {token}"}
    deadline = time.monotonic() + BOTS_SECONDS
    while plain_http.get(f"{kaiten}/v1/games/{game}").json()["status"] != "finished":
        assert time.monotonic() < deadline, f"game {game} was not over in {BOTS_SECONDS}s"
        commands = plain_http.get(f"{kaiten}/v1/games/{game}/legal-commands", headers=seat).json()["commands"]
        if commands:
            plain_http.post(f"{kaiten}/v1/games/{game}/commands", json=commands[0], headers=seat)
        else:
            time.sleep(0.02)
    return game, token


def pick(kaiten: str, game: str, token: str) -> None:
    seat = {"authorization": f"Bearer {token}"}
    command = plain_http.get(f"{kaiten}/v1/games/{game}/legal-commands", headers=seat).json()["commands"][0]
    assert plain_http.post(f"{kaiten}/v1/games/{game}/commands", json=command, headers=seat).status_code == 200


def row(page: Any, game: str) -> Any:
    return page.locator(f'[data-zone="your-games"] li[data-game="{game}"]')


@pytest.fixture(scope="module")
def player(kaiten: str) -> Iterator[tuple[str, Future[tuple[str, str]]]]:
    """The browser's player id, and a game of theirs played to its end in the background meanwhile
    (while axe-core installs and Chromium starts): its id and the player's seat token."""
    player_id = f"web-{uuid.uuid4().hex[:8]}"
    with ThreadPoolExecutor(1) as pool:
        yield player_id, pool.submit(finished_game, kaiten, player_id)


def test_your_games_say_whose_turn_it_is_and_follow_the_players_stream(
    kaiten: str, player: tuple[str, Future[tuple[str, str]]], axe_script: Path, open_page: Any
) -> None:
    player_id, playing = player
    yours, yours_tokens = new_game(kaiten, player_id)
    theirs, theirs_tokens = new_game(kaiten, player_id)
    pick(kaiten, theirs, theirs_tokens["0"])  # Alice picked there: Ben's pick is awaited.
    stale = str(uuid.uuid4())  # a seat kept for a game this server does not know
    held = {
        yours: {"game": "sushi-go", "seats": {"0": yours_tokens["0"]}, "added": "2026-01-01T00:00:00Z"},
        theirs: {"game": "sushi-go", "seats": {"0": theirs_tokens["0"]}, "added": "2026-01-02T00:00:00Z"},
        stale: {"game": "sushi-go", "seats": {"1": "kaiten_seat_forgotten"}, "added": "2026-01-03T00:00:00Z"},
    }
    watched = open_page(f"{kaiten}/play#/", viewport=PHONE)
    watched.expected.append("404 (Not Found)")  # the stale seat's game
    page = watched.page
    page.evaluate(
        """([games, profile]) => {
            localStorage.setItem("kaiten.games", JSON.stringify(games));
            localStorage.setItem("kaiten.profile", JSON.stringify(profile));
        }""",
        [held, {"name": "Alice", "player_id": player_id}],
    )
    page.reload()
    page.click("#your-games-link")
    page.wait_for_selector('#games-live[data-state="live"]')
    read = """() => !document.querySelector('[data-zone="your-games"] li[data-state="reading"]')"""
    page.wait_for_function(read)

    # Most urgent first: the turn to play, the seat that leads nowhere, then the game waiting on Ben.
    order = page.locator('[data-zone="your-games"] li').evaluate_all("rows => rows.map(row => row.dataset.game)")
    assert order == [yours, stale, theirs], json.dumps(order)
    assert row(page, yours).locator(".state").inner_text() == "Your turn"
    assert row(page, theirs).locator(".state").inner_text() == "Waiting for 1 player (Ben)"
    assert row(page, yours).locator("a").first.inner_text() == "Sushi Go! with Ben"
    assert row(page, yours).locator("a").first.get_attribute("href") == f"#/games/{yours}"
    problem = row(page, stale).locator('[data-zone="problem"]').inner_text()
    assert "not on this server" in problem and "Failed to fetch" not in problem, problem

    problems: list[str] = []
    fits(page, "your games")
    screenshot(page, "your-games-phone")
    audit(page, axe_script, "your games", problems)
    assert problems == [], "\n".join(problems)

    # Ben picks in the other game: the cards are revealed and it is Alice's turn there too, pushed.
    pick(kaiten, theirs, theirs_tokens["1"])
    page.wait_for_function(
        """game => document.querySelector(`li[data-game="${game}"]`)?.dataset.state === "your-turn" """,
        arg=theirs,
        timeout=PUSHED_MS,
    )
    assert row(page, theirs).locator(".state").inner_text() == "Your turn"

    # The stale seat is forgotten on request, here and in the browser's storage.
    row(page, stale).locator("button.forget").click()
    assert row(page, stale).count() == 0
    kept = page.evaluate("Object.keys(JSON.parse(localStorage.getItem('kaiten.games')))")
    assert sorted(kept) == sorted([yours, theirs])

    # A game that is over comes last, with how the player placed.
    over, over_token = playing.result(timeout=BOTS_SECONDS)
    page.evaluate(
        """([id, token]) => {
            const games = JSON.parse(localStorage.getItem("kaiten.games"));
            games[id] = { game: "sushi-go", seats: { "0": token }, added: new Date().toISOString() };
            localStorage.setItem("kaiten.games", JSON.stringify(games));
        }""",
        [over, over_token],
    )
    page.click('a[href="#/"]')
    page.click("#your-games-link")
    page.wait_for_selector(f'li[data-game="{over}"]')
    page.wait_for_function(read)
    # Two turns to play, the newer game first; then the game over.
    order = page.locator('[data-zone="your-games"] li').evaluate_all("rows => rows.map(row => row.dataset.game)")
    assert order == [theirs, yours, over], json.dumps(order)
    placed = row(page, over).locator(".state").inner_text()
    assert re.fullmatch(r"Finished: you (won|shared the win|placed 2nd)", placed), placed
    page.click(f'li[data-game="{theirs}"] a')
    page.wait_for_selector('.table[data-version][aria-busy="false"]')
