"""Private games and their invitations, and rematches, through the API (SQLite and PostgreSQL)."""

from __future__ import annotations

import random
from typing import Any

from kaiten.api.bootstrap import Services
from tests.app_client import AppClient
from tests.e2e.play import (
    bearer,
    bots_owe_nothing,
    create,
    moved_on,
    play_randomly,
    seats_named,
    until,
)
from tests.projecting import settle_all

Client = AppClient


async def invite(client: Client, game: dict[str, Any], seat: str = "0") -> dict[str, Any]:
    response = await client.post(f"/v1/games/{game['id']}/invitations", headers=bearer(game["tokens"][seat]))
    assert response.status_code == 201, response.text
    invitation: dict[str, Any] = response.json()
    return invitation


async def test_a_private_games_seats_need_a_live_invitation(client: Client) -> None:
    game = await create(client, "sushi-go", 3, seats=[{"name": "Alice"}], visibility="private")
    assert game["visibility"] == "private"
    seats = f"/v1/games/{game['id']}/seats"
    # Without an invitation (or with a wrong one) the game is as good as missing.
    for body in ({"name": "Mallory"}, {"name": "Mallory", "invitation": "guessed"}):
        refused = await client.post(seats, json=body)
        assert (refused.status_code, refused.json()["code"]) == (404, "game-not-found"), body
    # Alice, seated, may see the game: she is told why.
    alice = bearer(game["tokens"]["0"])
    refused = await client.post(seats, json={"name": "Alice again"}, headers=alice)
    assert refused.status_code == 403 and refused.json()["code"] == "invitation-required"
    wrong = await client.post(seats, json={"name": "Alice again", "invitation": "guessed"}, headers=alice)
    assert wrong.status_code == 403 and wrong.json()["code"] == "invalid-invitation"
    invitation = await invite(client, game)
    assert invitation["code"].startswith("kaiten_inv_")
    assert invitation["url"].endswith(f"/games/{game['id']}/join?invitation={invitation['code']}")
    bob = await client.post(seats, json={"name": "Bob", "invitation": invitation["code"]})
    assert bob.status_code == 201, bob.text
    # The code is kept only as its hash: the log never shows it.
    events = (await client.get(f"/v1/games/{game['id']}/events", headers=alice)).json()["events"]
    assert invitation["code"] not in str(events)
    assert [event["type"] for event in events].count("InvitationIssued") == 1
    # Bob, seated now, may revoke it; then it seats nobody.
    revoked = await client.delete(
        f"/v1/games/{game['id']}/invitations/{invitation['id']}", headers=bearer(bob.json()["token"])
    )
    assert revoked.status_code == 204
    late = await client.post(seats, json={"name": "Carol", "invitation": invitation["code"]})
    assert late.status_code == 404 and late.json()["code"] == "game-not-found"
    # A revoked code no longer watches the game either.
    watching = await client.get(f"/v1/games/{game['id']}", headers=bearer(invitation["code"]))
    assert watching.status_code == 404
    again = await client.delete(
        f"/v1/games/{game['id']}/invitations/{invitation['id']}", headers=bearer(game["tokens"]["0"])
    )
    assert again.status_code == 422 and again.json()["code"] == "unknown-invitation"
    anonymous = await client.post(f"/v1/games/{game['id']}/invitations")
    assert anonymous.status_code == 401


async def test_an_invitation_lets_its_bearer_watch_a_private_game(client: Client) -> None:
    game = await create(client, "sushi-go", 2, seats=[{"name": "Alice"}], visibility="private")
    invitation = await invite(client, game)
    for path in ("", "/events", "/replay?at=1"):
        assert (await client.get(f"/v1/games/{game['id']}{path}")).status_code == 404, path
        watched = await client.get(f"/v1/games/{game['id']}{path}", headers=bearer(invitation["code"]))
        assert watched.status_code == 200, (path, watched.text)
    assert (await client.get(f"/v1/games/{game['id']}", headers=bearer(invitation["code"]))).json()["viewer"] == {
        "seat": None
    }


async def test_an_invitation_is_for_its_game_only(client: Client) -> None:
    first = await create(client, "sushi-go", 2, seats=[{"name": "Alice"}], visibility="private")
    second = await create(client, "sushi-go", 2, seats=[{"name": "Alice"}], visibility="private")
    invitation = await invite(client, first)
    other = await client.post(f"/v1/games/{second['id']}/seats", json={"name": "Bob", "invitation": invitation["code"]})
    assert other.status_code == 404 and other.json()["code"] == "game-not-found"


async def test_private_games_are_not_listed(client: Client, services: Services) -> None:
    public = await create(client, "sushi-go", 2, seats=[{"name": "Alice", "player_id": "alice"}, {"bot": "greedy"}])
    private = await create(
        client, "sushi-go", 2, seats=[{"name": "Alice", "player_id": "alice"}, {"bot": "greedy"}], visibility="private"
    )
    await settle_all(services.projection_runners)
    for query in ("", "?player_id=alice", "?game=sushi-go"):
        listed = {item["id"] for item in (await client.get(f"/v1/games{query}")).json()["items"]}
        assert public["id"] in listed and private["id"] not in listed, query
    # Private means private: a caller without a credential of the game finds no game at all.
    assert (await client.get(f"/v1/games/{private['id']}")).status_code == 404
    assert (await client.get(f"/v1/games/{private['id']}", headers=bearer(private["tokens"]["0"]))).status_code == 200


async def test_a_rematch_has_the_same_seats_and_is_found_from_both_games(client: Client) -> None:
    seats = [{"name": "Alice", "player_id": "alice"}, {"bot": "greedy"}, {"name": "Bob"}]
    game = await create(client, "sushi-go", 3, seats=seats, options={}, visibility="private")
    early = await client.post(f"/v1/games/{game['id']}/rematch", headers=bearer(game["tokens"]["0"]))
    assert early.status_code == 409 and early.json()["code"] == "game-not-finished"
    await play_randomly(client, game, random.Random(1))
    first = await client.post(f"/v1/games/{game['id']}/rematch", headers=bearer(game["tokens"]["2"]))
    assert first.status_code == 201, first.text
    rematch = first.json()
    assert rematch["rematch_of"] == game["id"] and rematch["visibility"] == "private"
    assert [(s["name"], s["player_id"], s["bot"]) for s in rematch["seats"]] == [
        ("Alice", "alice", None),
        (None, None, "greedy"),
        ("Bob", None, None),
    ]
    assert list(rematch["tokens"]) == ["2"] and rematch["viewer"] == {"seat": 2}
    # Alice asks through her old token: the same rematch, with a token for her seat.
    second = await client.post(f"/v1/games/{game['id']}/rematch", headers=bearer(game["tokens"]["0"]))
    assert second.status_code == 200 and second.json()["id"] == rematch["id"]
    alice = second.json()["tokens"]["0"]
    assert alice not in (game["tokens"]["0"], rematch["tokens"]["2"])
    mine = await client.get(f"/v1/games/{rematch['id']}/legal-commands", headers=bearer(alice))
    assert mine.status_code == 200 and mine.json()["seat"] == 0
    # Old tokens hold no seat in the rematch; the finished game links to its rematch.
    stale = await client.get(f"/v1/games/{rematch['id']}", headers=bearer(game["tokens"]["0"]))
    assert stale.status_code == 404, "a private game, to a caller holding nothing of it"
    finished = await client.get(f"/v1/games/{game['id']}", headers=bearer(game["tokens"]["0"]))
    assert finished.json()["rematch"] == rematch["id"]
    # Both people hold their seats now and play: each answer holds that person's events only, and the
    # bot's seat plays along in moves of its own that follow.
    played = 0
    for seat, token in ((0, alice), (2, rematch["tokens"]["2"])):
        legal = (await client.get(f"/v1/games/{rematch['id']}/legal-commands", headers=bearer(token))).json()
        sent = await client.post(
            f"/v1/games/{rematch['id']}/commands", json=legal["commands"][0], headers=bearer(token)
        )
        assert sent.status_code == 200, sent.text
        assert seats_named(sent.json()["events"]) == {seat}, sent.json()
        played = sent.json()["version"]
    seen = bearer(alice)
    moved = await until(client, rematch["id"], lambda table: moved_on(played)(table) and bots_owe_nothing(table), seen)
    assert moved["awaiting"] == [0, 2], "the bot picked for the next turn: the people are awaited again"
    after = (await client.get(f"/v1/games/{rematch['id']}/events?after={played}", headers=seen)).json()["events"]
    assert 1 in seats_named(after), "the bot's move follows the people's"


async def test_a_game_everyone_left_offers_a_rematch_too(client: Client) -> None:
    game = await create(client, "sushi-go", 2, seats=[{"name": "Alice"}, {"bot": "greedy"}], seed=2)
    left = await client.post(f"/v1/games/{game['id']}/resign", headers=bearer(game["tokens"]["0"]))
    assert left.json()["events"][-1]["type"] == "GameAbandoned"
    rematch = await client.post(f"/v1/games/{game['id']}/rematch", headers=bearer(game["tokens"]["0"]))
    assert rematch.status_code == 201, rematch.text
    assert rematch.json()["rematch_of"] == game["id"] and rematch.json()["status"] == "active"
    assert (await client.get(f"/v1/games/{game['id']}")).json()["rematch"] == rematch.json()["id"]


async def test_a_private_games_log_with_its_invitations_is_exported_and_imported(client: Client) -> None:
    game = await create(
        client, "sushi-go", 3, seats=[{"name": "Alice"}, {"bot": "greedy"}], seed=3, visibility="private"
    )
    invitation = await invite(client, game)
    bob = await client.post(f"/v1/games/{game['id']}/seats", json={"name": "Bob", "invitation": invitation["code"]})
    assert bob.status_code == 201, bob.text
    await invite(client, game)  # while the game runs
    tokens = {**game["tokens"], "2": bob.json()["token"]}
    await play_randomly(client, {**game, "tokens": tokens, "awaiting": [0, 2], "status": "active"}, random.Random(4))
    assert (await client.get(f"/v1/games/{game['id']}/export")).status_code == 404
    exported = (await client.get(f"/v1/games/{game['id']}/export", headers=bearer(tokens["0"]))).json()
    assert [event["type"] for event in exported["events"]].count("InvitationIssued") == 2
    imported = await client.post("/v1/games/import", json=exported)
    assert imported.status_code == 201, imported.text
    assert imported.json()["visibility"] == "private"
