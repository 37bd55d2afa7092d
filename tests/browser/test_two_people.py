"""Two people at one table, each in a browser context of their own: neither page ever holds the other's
hand while the game runs, and each page follows the other's moves live (no reload, no click). They
play the first round and the start of the second: deals, picks, reveals, passed hands and scoring."""

from __future__ import annotations

from typing import Any

from tests import plain_http
from tests.browser.ui import card_ids, create_game, send, settled, tokens


def table_for(kaiten: str, game: str, token: str) -> dict[str, Any]:
    answer: dict[str, Any] = plain_http.get(
        f"{kaiten}/v1/games/{game}", headers={"authorization": f"Bearer {token}"}
    ).json()
    return answer


def at_version(page: Any, version: int) -> None:
    page.wait_for_function(
        """version => {
            const table = document.querySelector(".table");
            return table && table.getAttribute("aria-busy") === "false" && Number(table.dataset.version) === version;
        }""",
        arg=version,
    )


def test_two_people_see_their_own_hands_and_each_others_moves_live(kaiten: str, open_page: Any) -> None:
    alice = open_page(f"{kaiten}/play").page
    game = create_game(alice, "sushi-go", 2, {1: "open"})
    link = alice.input_value("#share-1")
    assert link.endswith(f"#/games/{game}/join/1")

    bob = open_page(link).page
    bob.fill("#join-name", "Bob")
    bob.click("button[type=submit]")
    bob.wait_for_selector(".table[data-version]")
    pages = {"0": alice, "1": bob}
    seat_tokens = {**tokens(alice, game), **tokens(bob, game)}
    assert set(seat_tokens) == {"0", "1"} and tokens(alice, game).keys() == {"0"}

    while True:  # until the second round is under way (checked at the top)
        for seat, page in pages.items():
            other = "1" if seat == "0" else "0"
            # Both pages at the server's version, then: no card of the other's hand (or hidden pick) here.
            theirs = table_for(kaiten, game, seat_tokens[other])
            at_version(alice, theirs["version"])
            at_version(bob, theirs["version"])
            if theirs["state"]["round"] == 2 and theirs["state"]["turn"] == 2:
                assert theirs["state"]["scored"], "the first round was not scored"
                return
            hidden = {card["id"] for card in theirs["state"]["hand"] + theirs["state"]["pick"]}
            shown = set(card_ids(page, "main"))
            assert shown, "the page shows no card"
            assert not shown & hidden, f"seat {seat}'s page shows cards of the other hand: {shown & hidden}"
            # What was revealed is on both pages: each seat's tableau as the API shows it.
            for tableau_seat, tableau in enumerate(theirs["state"]["tableaus"]):
                zone = f'[data-zone="tableau"][data-seat="{tableau_seat}"]'
                assert card_ids(page, zone) == [card["id"] for card in tableau]

            # This seat plays; the other page moves on by itself, through its event stream.
            before = settled(pages[other])
            send(page, page.locator('.table [data-zone="hand"] button[data-command="pick"]').first)
            pages[other].wait_for_function(
                "before => Number(document.querySelector('.table').dataset.version) > before", arg=before
            )
