"""The web client on a server that needs app keys (KAITEN_AUTH=keys), where a browser holds no key: an
app creates the games with its key and hands out seat links (the token in the address's fragment, which
the page keeps in local storage and takes out of the address), and invitation links to private games;
the page creates nothing, says why, and a private game it holds no credential of is not found."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests import plain_http
from tests.browser.conftest import KeysServer, screenshot
from tests.browser.ui import COMMAND_MS, api_result, finished, first_enabled, send, settled, shown_result, tokens

PICK = ['button[data-command="pick"]']
#: Sushi Go! for three: 3 rounds of 9 cards, whose last card is placed by itself (and people here never
#: play chopsticks): 8 picks a round each.
PICKS = 24


def app_creates(server: KeysServer, **body: Any) -> dict[str, Any]:
    """A game of Sushi Go! created by the app, with its key."""
    answer = plain_http.post(f"{server.url}/v1/games", json={"game": "sushi-go", **body}, headers=server.app)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def seat_link(server: KeysServer, game: str, seat: int, token: str) -> str:
    return f"{server.url}/play#/games/{game}/seat/{seat}?token={token}"


def seat_tokens(created: dict[str, Any]) -> dict[int, str]:
    return {entry["seat"]: entry["token"] for entry in created["seat_tokens"]}


def opened_seat_link(page: Any, game: str, seat: int, token: str) -> None:
    """The page shows the table as the link's seat, keeps the token, and the address no longer holds it."""
    page.wait_for_selector(".table[data-version]")
    assert token not in page.url and "token=" not in page.url
    assert page.evaluate("location.hash") == f"#/games/{game}/seat/{seat}"
    assert tokens(page, game) == {str(seat): token}
    assert page.evaluate("document.querySelector('.table').dataset.game") == "sushi-go"


def test_two_people_play_a_whole_game_from_the_seat_links_an_app_hands_out(
    keys_kaiten: KeysServer, open_page: Any
) -> None:
    people = [{"name": "Alice", "player_id": "shop-alice"}, {"name": "Bob", "player_id": "shop-bob"}]
    created = app_creates(keys_kaiten, players=3, seed=5, seats=[*people, {"bot": "greedy"}])
    game, held = created["id"], seat_tokens(created)
    assert sorted(held) == [0, 1]

    pages = []
    for seat, token in held.items():
        page = open_page(seat_link(keys_kaiten, game, seat, token)).page
        opened_seat_link(page, game, seat, token)
        pages.append(page)
    alice, bob = pages
    assert alice.locator('[data-zone="hand"] [data-card-id]').count() == 9
    # A reload keeps the seat: the token is in local storage, no longer in the address.
    bob.reload()
    settled(bob)
    assert bob.evaluate("document.querySelector('.table').dataset.status") == "active"

    # Each picks whenever the page offers a pick; the other page follows live.
    picks = {0: 0, 1: 0}
    idle = 0
    while not all(finished(page) for page in pages):
        moved = False
        for seat, page in enumerate(pages):
            settled(page)
            control = None if finished(page) else first_enabled(page, PICK)
            if control is not None:
                send(page, control)
                picks[seat] += 1
                moved = True
        idle = 0 if moved else idle + 1
        assert idle * 100 < COMMAND_MS, (
            f"neither page offers a pick: {alice.inner_text('.turn')} / {bob.inner_text('.turn')}"
        )
        if not moved:
            alice.wait_for_timeout(100)
    # Every pick the log holds was sent from a page (a click on a pick the game had just moved past is
    # refused, and the page offers the seat's next one).
    events = plain_http.get(f"{keys_kaiten.url}/v1/games/{game}/events?limit=1000", headers=keys_kaiten.app).json()
    logged = Counter(event["data"]["seat"] for event in events["events"] if event["type"] == "CardPicked")
    assert {seat: logged[seat] for seat in (0, 1)} == {0: PICKS, 1: PICKS}
    assert picks[0] >= PICKS and picks[1] >= PICKS

    for page in pages:
        page.wait_for_selector('[data-zone="result"]')
        assert shown_result(page) == api_result(keys_kaiten.url, game)
    screenshot(alice, "keys-seat-link-result-desktop")
    table = plain_http.get(f"{keys_kaiten.url}/v1/games/{game}", headers=keys_kaiten.app).json()
    assert [seat["player_id"] for seat in table["seats"]] == ["shop-alice", "shop-bob", None]


def test_the_page_creates_no_game_on_a_keys_server_and_says_why(keys_kaiten: KeysServer, open_page: Any) -> None:
    watched = open_page(f"{keys_kaiten.url}/play#/new/sushi-go")
    page = watched.page
    page.wait_for_selector('[data-zone="closed"]')
    assert "needs an app key to create games" in page.inner_text('[data-zone="closed"]')
    assert "seat link" in page.inner_text('[data-zone="closed"]')
    assert page.locator("form.create, button[type=submit]").count() == 0
    screenshot(page, "keys-new-game-desktop")

    # The lobby says it too, and offers no new game.
    page.goto(f"{keys_kaiten.url}/play#/")
    page.wait_for_selector('main [data-zone="closed"]')
    assert page.locator('a[href^="#/new/"]').count() == 0

    # A public game's open seat is the app's to hand out: the join page says so, and takes no seat.
    created = app_creates(keys_kaiten, players=2, seats=[{"bot": "greedy"}])
    page.goto(f"{keys_kaiten.url}/play#/games/{created['id']}/join/1")
    page.wait_for_selector("main .closed:has-text('seat links')")
    assert page.locator("#join-name").count() == 0
    page.click("text=Watch the game without a seat")
    page.wait_for_selector('.table[data-status="open"]')


def test_a_private_games_invitation_link_lets_a_browser_watch_and_take_a_seat(
    keys_kaiten: KeysServer, open_page: Any
) -> None:
    created = app_creates(
        keys_kaiten,
        players=3,
        seed=9,
        visibility="private",
        seats=[{"name": "Alice", "player_id": "shop-alice"}, {"bot": "greedy"}],
    )
    game, alice = created["id"], seat_tokens(created)[0]
    as_alice = {"authorization": f"Bearer {alice}"}
    invited = plain_http.post(f"{keys_kaiten.url}/v1/games/{game}/invitations", headers=as_alice)
    assert invited.status_code == 201, invited.text
    link = keys_kaiten.url + invited.json()["url"]
    assert f"#/games/{game}/join?invitation=kaiten_inv_" in link

    # Without the code, the game's pages say it cannot be found (the API answers 404).
    stranger = open_page(f"{keys_kaiten.url}/play#/games/{game}")
    stranger.expected.append("404 (Not Found)")
    stranger.page.wait_for_selector("main .unreadable:has-text('cannot be found')")
    for screen in (f"#/games/{game}/join/2", f"#/games/{game}/replay", f"#/games/{game}/seat/0?token=kaiten_seat_x"):
        stranger.page.goto(f"{keys_kaiten.url}/play{screen}")
        stranger.page.wait_for_selector("main .unreadable:has-text('cannot be found')")
    # A wrong seat link loses its token from the address all the same.
    assert stranger.page.evaluate("location.hash") == f"#/games/{game}/seat/0"

    # The link's code reads the private game: one person watches, another takes the open seat.
    dave = open_page(link).page
    dave.wait_for_selector("#join-name")
    assert "2 of 3 seats are taken" in dave.inner_text("main")
    dave.click("text=Watch the game without a seat")
    dave.wait_for_selector('.table[data-status="open"]')
    assert "Waiting for players" in dave.inner_text(".turn")

    carol = open_page(link).page
    carol.fill("#join-name", "Carol")
    carol.click("button[type=submit]")
    carol.wait_for_selector('.table[data-status="active"]')
    assert set(tokens(carol, game)) == {"2"}
    seated = plain_http.get(f"{keys_kaiten.url}/v1/games/{game}", headers=as_alice).json()["seats"][2]
    assert seated["name"] == "Carol" and seated["player_id"] is None

    # The watcher follows the game (no stream opens for it: it reads the events in turns).
    dave.wait_for_selector('.table[data-status="active"]', timeout=COMMAND_MS)
    send(carol, carol.locator('.table [data-zone="hand"] button[data-command="pick"]').first)
    command = plain_http.get(f"{keys_kaiten.url}/v1/games/{game}/legal-commands", headers=as_alice).json()["commands"][
        0
    ]
    moved = plain_http.post(f"{keys_kaiten.url}/v1/games/{game}/commands", json=command, headers=as_alice)
    assert moved.status_code == 200, moved.text
    version = plain_http.get(f"{keys_kaiten.url}/v1/games/{game}", headers=as_alice).json()["version"]
    dave.wait_for_function(
        "version => Number(document.querySelector('.table').dataset.version) >= version",
        arg=version,
        timeout=COMMAND_MS,
    )
    assert dave.locator(".table button[data-command]").count() == 0, "a spectator is offered commands"
    assert dave.locator('[data-zone="hand"] [data-card-id]').count() == 0, "a spectator sees a hand"
    assert "Watching" in dave.inner_text(".turn")
    screenshot(dave, "keys-private-watcher-desktop")
