"""Two games with the same seed where one seat picks differently look the same to everyone else."""

from __future__ import annotations

from tests.e2e.play import all_events, bearer, create


def comparable_table(table: dict) -> dict:
    return {key: table[key] for key in ("status", "version", "awaiting", "state", "seats", "viewer")}


def comparable_events(events: list[dict]) -> list[tuple]:
    # Each game commits to its seed with a salt of its own: the commitments differ by design.
    return [(e["version"], e["type"], {**e["data"], "seed_commitment": None}) for e in events]


async def observe(client, game: dict, seat: int | None) -> tuple[dict, list[tuple]]:
    headers = None if seat is None else bearer(game["tokens"][str(seat)])
    table = (await client.get(f"/v1/games/{game['id']}", headers=headers)).json()
    return comparable_table(table), comparable_events(await all_events(client, game["id"], headers))


async def test_a_hidden_pick_is_invisible_to_other_seats_and_spectators_until_the_reveal(client):
    # One deal, chosen: the same seed and salt.
    games = [await create(client, "sushi-go", 3, seed=2024, salt="5a" * 16) for _ in range(2)]
    table = (await client.get(f"/v1/games/{games[0]['id']}", headers=bearer(games[0]["tokens"]["0"]))).json()
    hand = [card["id"] for card in table["state"]["hand"]]
    for game, card in zip(games, (hand[0], hand[-1]), strict=True):
        response = await client.post(
            f"/v1/games/{game['id']}/commands",
            json={"type": "pick", "cards": [card]},
            headers=bearer(game["tokens"]["0"]),
        )
        assert response.status_code == 200

    for viewer in (1, 2, None):
        assert await observe(client, games[0], viewer) == await observe(client, games[1], viewer)
    # The picking seat itself does see the difference.
    assert await observe(client, games[0], 0) != await observe(client, games[1], 0)
