"""Match history, a page at a time: "Older games" shows only while older games remain, and each click
appends the next page, never one already shown."""

from __future__ import annotations

import time
import uuid
from typing import Any

from tests import plain_http

#: The history's page size (api/web/js/screens/history.js PAGE).
PAGE = 20


def test_older_games_appends_the_next_page_and_hides_on_the_last(kaiten: str, open_page: Any) -> None:
    player = f"history-{uuid.uuid4().hex[:8]}"
    created = [
        plain_http.post(
            f"{kaiten}/v1/games",
            json={"game": "dim-sum-derby", "players": 3, "seats": [{"name": "Hana", "player_id": player}]},
        ).json()["id"]
        for _ in range(PAGE + 3)
    ]
    # The history is a read model that trails the log by a moment. The page is opened once every game
    # is listed: opened earlier, a first page of exactly PAGE games may be the whole history so far,
    # and then rightly offers no older games.
    for _ in range(100):
        listed = plain_http.get(f"{kaiten}/v1/games", params={"player_id": player, "limit": 100}).json()
        if len(listed["items"]) == len(created):
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"the history lists {len(listed['items'])} of the {len(created)} games after 10 s")
    page = open_page(f"{kaiten}/play#/history?player_id={player}").page
    page.wait_for_function(f"() => document.querySelectorAll('.matches li[data-game]').length === {PAGE}")
    more = page.get_by_role("button", name="Older games")
    assert more.is_visible()
    more.click()
    page.wait_for_function(f"() => document.querySelectorAll('.matches li[data-game]').length > {PAGE}")
    shown = page.locator(".matches li[data-game]").evaluate_all("rows => rows.map(row => row.dataset.game)")
    assert sorted(shown) == sorted(created), "a game is missing or listed twice"
    assert not more.is_visible(), "'Older games' shows on the last page"
    # A history that fits one page never offers older games.
    page.goto(f"{kaiten}/play#/history?player_id={player}-nobody")
    page.wait_for_selector(".matches li:text('No game matches.')")
    assert not page.get_by_role("button", name="Older games").is_visible()
