"""Many writers on the same games at once, duplicates included, on PostgreSQL."""

from __future__ import annotations

import asyncio
import random

import msgspec
import pytest

from kaiten.api.bootstrap import bootstrap
from kaiten.domain.engine import RuleViolation
from kaiten.services.commands import Act, CreateGame, GetTable, ListLegalCommands, NewSeat
from kaiten.services.errors import ServiceError

pytestmark = pytest.mark.postgres

# A duplicate sent without a key may arrive after the turn moved on: then the card has left the hand.
EXPECTED_REFUSALS = {"not-your-turn", "version-conflict", "game-finished", "card-not-in-hand"}


async def test_concurrent_duplicated_commands_apply_once_and_keep_logs_contiguous(postgres_url):
    services = bootstrap(postgres_url)
    games = services.games
    rng = random.Random(7)
    try:
        created = [
            await games.create(CreateGame("sushi-go", 4, None, seed, [NewSeat(name=f"p{i}") for i in range(4)]))
            for seed in range(3)
        ]
        for turn in range(200):
            tasks = []
            for game in created:
                table = await games.view(GetTable(game.id))
                for seat in table.awaiting:
                    token = game.tokens[str(seat)]
                    legal = await games.legal_commands(ListLegalCommands(game.id, token))
                    body = msgspec.json.encode(rng.choice(legal.commands))
                    key = f"{game.id}-{turn}-{seat}"
                    tasks += [games.act(Act(game.id, token, body, idempotency_key=key)) for _ in range(3)]
                    tasks.append(games.act(Act(game.id, token, body)))
            if not tasks:
                break
            rng.shuffle(tasks)
            outcomes = await asyncio.gather(*tasks, return_exceptions=True)
            for outcome in outcomes:
                if isinstance(outcome, (RuleViolation, ServiceError)):
                    assert outcome.code in EXPECTED_REFUSALS, outcome
                else:
                    assert not isinstance(outcome, BaseException), outcome
        for game in created:
            stored = await games.store.read(game.id)
            assert [event.version for event in stored] == list(range(1, len(stored) + 1))
            picks = [(e.metadata["seat"], e.metadata.get("command_id")) for e in stored if e.type == "CardPicked"]
            # Each seat picks once per turn: 3 rounds of 8 turns, the last card of a round automatic.
            assert sorted(seat for seat, _ in picks) == sorted(list(range(4)) * 3 * 7)
            assert (await games.view(GetTable(game.id))).status == "finished"
    finally:
        await services.close()
