"""The web client's lobby: a private game's invitation links, and a rematch offered once a game is over."""

from __future__ import annotations

from typing import Any

from tests import plain_http
from tests.browser.test_words import play_to_the_end
from tests.browser.ui import create_game, settled, tokens, wait_or_explain


def test_a_private_games_links_carry_an_invitation_that_seats_the_person_who_opens_one(
    kaiten: str, open_page: Any
) -> None:
    alice = open_page(f"{kaiten}/play").page
    game = create_game(alice, "sushi-go", 3, {2: "open", 1: "open"}, private=True)
    headers = {"authorization": f"Bearer {tokens(alice, game)['0']}"}
    assert plain_http.get(f"{kaiten}/v1/games/{game}", headers=headers).json()["visibility"] == "private"
    link = alice.input_value("#share-1")
    assert f"#/games/{game}/join/1?invitation=" in link
    bob = open_page(link).page
    bob.fill("#join-name", "Bob")
    bob.click("button[type=submit]")
    bob.wait_for_selector(".table[data-version]")
    assert set(tokens(bob, game)) == {"1"}
    # A guest: the invitation seats Bob under a name, with no player_id.
    assert plain_http.get(f"{kaiten}/v1/games/{game}", headers=headers).json()["seats"][1]["player_id"] is None
    # Without the code, the game is not found: its page says so.
    watched = open_page(alice.input_value("#share-2").split("?invitation=")[0])
    watched.expected.append("404 (Not Found)")
    watched.page.wait_for_selector("main .unreadable:has-text('cannot be found')")
    assert watched.page.locator("#join-name").count() == 0


def test_a_finished_game_offers_a_rematch_with_the_same_seats(kaiten: str, open_page: Any) -> None:
    alice = open_page(f"{kaiten}/play").page
    game = create_game(alice, "sushi-go", 2, {1: "bot:greedy"})
    # The bot moves in the background: while it thinks, Alice has no legal command (CI failed on one).
    play_to_the_end(kaiten, game, {"0": tokens(alice, game)["0"]})
    alice.reload()
    settled(alice)
    alice.click("#rematch")
    wait_or_explain(alice, "game => !location.hash.includes(game)", game)
    settled(alice)
    rematch = alice.evaluate("location.hash").split("/")[2]
    table = plain_http.get(
        f"{kaiten}/v1/games/{rematch}", headers={"authorization": f"Bearer {tokens(alice, rematch)['0']}"}
    )
    assert table.json()["rematch_of"] == game and table.json()["viewer"] == {"seat": 0}
    assert [seat["bot"] for seat in table.json()["seats"]] == [None, "greedy"]


def test_a_seat_is_given_back_from_the_waiting_room(kaiten: str, open_page: Any) -> None:
    alice = open_page(f"{kaiten}/play").page
    game = create_game(alice, "sushi-go", 3, {2: "open", 1: "open"})
    token = tokens(alice, game)["0"]
    settled(alice)
    alice.click("[data-action=leave-seat]")
    wait_or_explain(alice, "game => !location.hash.includes(game)", game)
    assert alice.evaluate(f"(JSON.parse(localStorage.getItem('kaiten.games')) || {{}})['{game}']") is None
    table = plain_http.get(f"{kaiten}/v1/games/{game}").json()
    assert table["status"] == "open" and table["seats"] == []
    refused = plain_http.get(f"{kaiten}/v1/games/{game}", headers={"authorization": f"Bearer {token}"})
    assert refused.status_code == 401 and refused.json()["code"] == "invalid-token"
    # The seat is free for the next person: the waiting room of a running game offers no such button.
    bob = open_page(f"{kaiten}/play").page
    running = create_game(bob, "sushi-go", 2, {1: "bot:greedy"})
    settled(bob)
    assert plain_http.get(f"{kaiten}/v1/games/{running}").json()["status"] == "active"
    assert bob.locator("[data-action=leave-seat]").count() == 0
