"""The seed commitment and the salt (API.md, "Fair shuffles"): a chosen seed reveals nothing while the
game runs, and seed and salt together prove the shuffles after, and deal the game again."""

from __future__ import annotations

import hashlib
import random

import pytest

from tests.e2e.play import all_events, bearer, create, play_randomly

pytestmark = pytest.mark.one_store

BOTS = [{"bot": "greedy"}, {"bot": "random"}, {"bot": "greedy"}]


def commitment(seed: int, salt_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(salt_hex) + str(seed).encode("ascii")).hexdigest()


def without_the_choice(events: list[dict]) -> list[tuple]:
    """The log with what differs by design between a game and the same deal chosen again."""
    return [(e["type"], {k: v for k, v in e["data"].items() if k != "chosen_deal"}) for e in events]


async def test_while_the_game_runs_nobody_sees_the_seed_or_the_salt(client):
    created = await create(client, "sushi-go", 2, seed=99)
    for headers in (None, bearer(created["tokens"]["0"])):
        first = (await all_events(client, created["id"], headers))[0]["data"]
        assert first["seed"] is None and first["salt"] is None
        assert len(first["seed_commitment"]) == 64


async def test_a_small_chosen_seed_cannot_be_found_by_trying_seeds(client):
    """The attack that worked on the unsalted hash: try every small seed against the commitment."""
    created = await create(client, "sushi-go", 2, seed=123_456)
    shown = (await all_events(client, created["id"]))[0]["data"]["seed_commitment"]
    tried = {hashlib.sha256(str(seed).encode()).hexdigest() for seed in range(200_000)}
    assert shown not in tried


async def test_two_games_of_one_seed_show_different_commitments(client):
    commitments = set()
    for _ in range(2):
        created = await create(client, "sushi-go", 2, seed=7)
        commitments.add((await all_events(client, created["id"]))[0]["data"]["seed_commitment"])
    assert len(commitments) == 2


async def test_the_end_reveals_seed_and_salt_and_anyone_can_check_and_deal_the_game_again(client):
    finished = await create(client, "sushi-go", 3, seats=BOTS, seed=31337)
    assert finished["status"] == "finished"
    log = await all_events(client, finished["id"])
    created, last = log[0]["data"], log[-1]
    assert last["type"] == "GameFinished"
    seed, salt = last["data"]["seed"], last["data"]["salt"]
    assert (seed, salt) == (created["seed"], created["salt"]) and len(bytes.fromhex(salt)) == 16
    assert commitment(seed, salt) == created["seed_commitment"]

    # Anyone may now deal the same game again from the revealed seed and salt: the same log follows,
    # marked as a chosen deal (it counts in no statistics and no rating).
    again = await create(client, "sushi-go", 3, seats=BOTS, seed=seed, salt=salt)
    assert again["chosen_deal"] is True and "chosen_deal" not in finished
    replayed = await all_events(client, again["id"])
    assert replayed[0]["data"]["chosen_deal"] is True
    assert without_the_choice(replayed) == without_the_choice(log)


def hands(games: list[dict]) -> list:
    return [game["state"]["hand"] for game in games]


async def test_two_games_of_one_seed_deal_differently_but_seed_and_salt_deal_the_same(client):
    """The attack on the unsalted deal: a seated player deals small seeds offline and matches their
    own hand. The deal depends on the secret salt too, so the seed alone reproduces nothing."""
    games = [await create(client, "sushi-go-party", 3, seed=2024) for _ in range(2)]
    seen = [(await client.get(f"/v1/games/{g['id']}", headers=bearer(g["tokens"]["1"]))).json() for g in games]
    assert hands(seen)[0] != hands(seen)[1]
    ended = await play_randomly(client, games[0], random.Random(5))
    revealed = (await all_events(client, ended["id"]))[-1]["data"]
    chosen = [await create(client, "sushi-go-party", 3, seed=2024, salt=revealed["salt"]) for _ in range(2)]
    seen = [(await client.get(f"/v1/games/{g['id']}", headers=bearer(g["tokens"]["1"]))).json() for g in chosen]
    at = seen[0]["version"]
    first = (await client.get(f"/v1/games/{games[0]['id']}/replay?at={at}&as_seat=1")).json()
    assert hands(seen)[0] == hands(seen)[1] == first["state"]["hand"]


async def test_a_salt_without_a_seed_is_no_deal(client):
    body = {"game": "sushi-go", "players": 2, "salt": "00" * 16}
    refused = await client.post("/v1/games", json=body)
    assert (refused.status_code, refused.json()["code"]) == (422, "invalid-salt")
    malformed = await client.post("/v1/games", json={**body, "seed": 1, "salt": "zz"})
    assert malformed.status_code == 400


async def test_a_chosen_deal_counts_in_no_statistics_and_no_rating(client, services):
    from tests.projecting import settle_all

    people = [{"name": "Ann", "player_id": "chosen-ann"}, {"name": "Bo", "player_id": "chosen-bo"}]
    game = await create(client, "sushi-go", 2, seats=people, seed=3, salt="ab" * 16)
    assert game["chosen_deal"] is True
    await play_randomly(client, game, random.Random(3))
    await settle_all(services.projection_runners)
    for player in ("chosen-ann", "chosen-bo"):
        assert (await client.get(f"/v1/players/{player}/stats")).json()["games"] == []
    listed = (await client.get("/v1/games?player_id=chosen-ann")).json()["items"]
    assert [item["id"] for item in listed] == [game["id"]], "listed in the history all the same"
