"""What the page says, in words a player reads: bots by their catalog names, bot descriptions without
code, players by their names on the leaderboard, "1 point", a finished game's tableaus, and checkboxes
on their labels' line."""

from __future__ import annotations

import random
import re
import time
import uuid
from typing import Any

from tests import plain_http
from tests.browser.ui import BOTS_SECONDS, settled

#: Each checkbox's middle, and whether it lies within the first line of its label's words.
CHECKBOXES_ON_THEIR_LINE = """() => [...document.querySelectorAll("main input[type=checkbox]")]
    .filter(box => box.getClientRects().length)
    .map(box => {
        const label = box.labels[0];
        const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
        let text = walker.nextNode();
        while (text && !text.textContent.trim()) text = walker.nextNode();
        const range = document.createRange();
        range.selectNodeContents(text);
        const line = range.getClientRects()[0];
        const box_ = box.getBoundingClientRect();
        const middle = (box_.top + box_.bottom) / 2;
        return [box.id, middle >= line.top && middle <= line.bottom];
    })"""


def play_to_the_end(kaiten: str, game: str, tokens: dict[str, str]) -> None:
    """Every person's seat sends a random legal command until the game is over; while only bots are
    awaited (they move in the background, as slowly as the machine's load makes them), it waits."""
    rng = random.Random(3)
    deadline = time.monotonic() + BOTS_SECONDS
    while plain_http.get(f"{kaiten}/v1/games/{game}").json()["status"] != "finished":
        assert time.monotonic() < deadline, f"game {game} was not over in {BOTS_SECONDS}s"
        sent = False
        for token in tokens.values():
            headers = {"authorization": f"Bearer {token}"}
            commands = plain_http.get(f"{kaiten}/v1/games/{game}/legal-commands", headers=headers).json()["commands"]
            if commands:
                plain_http.post(f"{kaiten}/v1/games/{game}/commands", json=rng.choice(commands), headers=headers)
                sent = True
        if not sent:
            time.sleep(0.02)


def test_bots_are_named_as_the_catalog_names_them(kaiten: str, open_page: Any) -> None:
    seats = [{"name": "Aiko"}, {"bot": "mcts:strong"}, {"bot": "greedy"}]
    created = plain_http.post(f"{kaiten}/v1/games", json={"game": "sushi-go", "players": 3, "seats": seats}).json()
    page = open_page(f"{kaiten}/play#/games/{created['id']}/seat/0?token={created['tokens']['0']}").page
    settled(page)
    assert page.text_content('[data-zone="tableau"][data-seat="1"] h2').startswith("MCTS (strong) bot 2")
    assert page.text_content('[data-zone="tableau"][data-seat="2"] h2').startswith("Greedy bot 3")
    assert "Mcts" not in page.inner_text("main")
    # The new-game form describes each bot in words, never by a name from the code.
    for game in ["sushi-go", "sushi-go-party", "spin-some-for-dim-sum", "dim-sum-derby"]:
        page.goto(f"{kaiten}/play#/new/{game}")
        page.wait_for_selector("main h1")
        described = page.inner_text("fieldset ul.quiet")
        assert not re.search(r"`|\b_\w|\w\.\w+\(", described), f"{game}: {described}"


def test_a_finished_game_reads_as_one(kaiten: str, open_page: Any) -> None:
    suffix = uuid.uuid4().hex[:8]
    seats = [{"name": "Aiko", "player_id": f"web-{suffix}a"}, {"name": "Ben", "player_id": f"web-{suffix}b"}]
    created = plain_http.post(f"{kaiten}/v1/games", json={"game": "sushi-go", "players": 2, "seats": seats}).json()
    play_to_the_end(kaiten, created["id"], created["tokens"])
    page = open_page(f"{kaiten}/play#/games/{created['id']}/seat/0?token={created['tokens']['0']}").page
    page.wait_for_selector('.table[data-status="finished"]')
    text = page.inner_text("main")
    assert "yet this round" not in text
    tableau = page.locator('[data-zone="tableau"]').first.inner_text()
    assert "No cards on the table: the last round is scored." in tableau
    assert not re.search(r"\b1 points\b", text)
    assert page.evaluate("async () => (await import('/play/js/names.js')).points(1)") == "1 point"
    # The leaderboard names the players it ranks (a catch-up projection: it trails the log a moment).
    for _ in range(50):
        page.goto(f"{kaiten}/play#/stats/sushi-go")
        page.wait_for_selector("#leaderboard")
        if page.locator(f"main a[href='#/players/web-{suffix}a']").count():
            break
        page.wait_for_timeout(200)
    assert page.text_content(f"main a[href='#/players/web-{suffix}a']") == "Aiko"
    assert f"web-{suffix}" not in page.inner_text("main")


def test_checkboxes_sit_on_their_labels_line(kaiten: str, open_page: Any) -> None:
    page = open_page(f"{kaiten}/play#/new/sushi-go-party").page
    page.wait_for_selector("#menu")
    page.select_option("#menu", "custom")
    placed = page.evaluate(CHECKBOXES_ON_THEIR_LINE)
    assert len(placed) > 3 and {"private", "pass-both-ways"} <= {name for name, _ in placed}
    assert [name for name, on_the_line in placed if not on_the_line] == []
