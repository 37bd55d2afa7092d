"""The seed commitment (API.md, "Fair shuffles"): it hides a chosen seed, and proves the shuffles after."""

from __future__ import annotations

import hashlib
import random

from tests.e2e.play import all_events, bearer, create, play_randomly

BOTS = [{"bot": "greedy"}, {"bot": "random"}, {"bot": "greedy"}]


def commitment(seed: int, salt_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(salt_hex) + str(seed).encode("ascii")).hexdigest()


def without_commitment(events: list[dict]) -> list[tuple]:
    """The log with what differs between two games of one seed by design: the salt and its commitment."""
    hidden = {"seed_commitment", "salt"}
    return [(e["type"], {k: v for k, v in e["data"].items() if k not in hidden}) for e in events]


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

    # Anyone may now deal the same game again from the revealed seed: the same log follows.
    again = await create(client, "sushi-go", 3, seats=BOTS, seed=seed)
    assert without_commitment(await all_events(client, again["id"])) == without_commitment(log)


async def test_a_chosen_seed_deals_the_same_hands_whatever_the_salt(client):
    games = [await create(client, "sushi-go-party", 3, seed=2024) for _ in range(2)]
    hands = [
        (await client.get(f"/v1/games/{game['id']}", headers=bearer(game["tokens"]["1"]))).json()["state"]["hand"]
        for game in games
    ]
    assert hands[0] == hands[1]
    ended = [await play_randomly(client, game, random.Random(5)) for game in games]
    logs = [without_commitment(await all_events(client, game["id"])) for game in ended]
    assert logs[0] == logs[1]
