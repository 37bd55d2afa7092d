"""An import accepts no forgery: random mutations of real exports of every game are refused, or are
the very same game (a field the log never held, a time, the order of an object's keys).

The acceptance of a log is `check_log`'s (services/logs.py: its checks, then deciding the log again);
each mutation goes through it, and an accepted one must decode to exactly the events of the export it
was made from, but for who sat where: a seat's name, player_id or bot is what the log says, which no
rule can check (which is why an imported game counts in no statistics and no rating); and choices
made at the same time (each seat's pick of a round) may come in any order. The exports are games
played through the services by people choosing at random.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.api.contract.presenting import log_document
from kaiten.domain.catalog import GAMES
from kaiten.domain.lobby import SeatTaken
from kaiten.services.commands import CreateGame, NewSeat
from kaiten.services.errors import ServiceError
from kaiten.services.games import Games
from kaiten.services.logs import InvalidLog, check_log, export_log
from tests.bots import play_to_the_end

MUTATIONS_PER_GAME = 1000
#: Per game: people, then bots, then the seed.
TABLES = {
    "sushi-go": (2, ["greedy"], 4),
    "sushi-go-party": (2, ["random"], 5),
    "spin-some-for-dim-sum": (2, ["greedy"], 6),
    "dim-sum-derby": (1, ["greedy", "random"], 7),
}


async def exported(game: str) -> dict[str, Any]:
    people, bots, seed = TABLES[game]
    games = Games(InMemoryEventStore(), SystemClock(), SecureIds(), people=InMemoryPeople())
    seats = [NewSeat(name=f"P{i}", player_id=f"p{i}") for i in range(people)] + [NewSeat(bot=b) for b in bots]
    created = await games.create(CreateGame(game, len(seats), None, seed, tuple(seats)))
    await play_to_the_end(games, created.id, created.tokens, random.Random(seed))
    document: dict[str, Any] = msgspec.to_builtins(log_document(await export_log(games, created.id, None)))
    return document


def mutate(document: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    """One random change anywhere in the log (a value, a list's order or length, an event dropped or
    two swapped), and where it was made."""
    # A JSON document: a round trip through msgspec copies it as deepcopy would, at a tenth of the cost.
    mutated: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(document))
    events = mutated["events"]
    kind = rng.randrange(6)
    if kind == 0 and len(events) > 2:
        at = rng.randrange(1, len(events))
        del events[at]
        return mutated, f"event {at + 1} dropped"
    if kind == 1 and len(events) > 2:
        i, j = rng.sample(range(1, len(events)), 2)
        events[i]["data"], events[j]["data"] = events[j]["data"], events[i]["data"]
        events[i]["type"], events[j]["type"] = events[j]["type"], events[i]["type"]
        return mutated, f"events {i + 1} and {j + 1} swapped"
    at = rng.randrange(len(events))
    return mutated, f"event {at + 1}: {_mutate_value(events[at], rng)}"


def _mutate_value(container: Any, rng: random.Random) -> str:
    """Change one value somewhere inside `container` (an object or a list), at random depth; its path."""
    path = []
    for _ in range(10):
        keys = list(container) if isinstance(container, dict) else list(range(len(container)))
        if not keys:
            break
        key = rng.choice(keys)
        path.append(str(key))
        value = container[key]
        if isinstance(value, dict | list) and value and rng.random() < 0.7:
            container = value
            continue
        container[key] = _other(value, rng)
        return f"{'.'.join(path)}: {value!r} -> {container[key]!r}"
    return "nothing changed"


def as_played(events: list[Any]) -> Counter[bytes]:
    """The events, but for who sat where (a log's word, which no rule checks) and their order (which
    the rules, deciding the log again, have allowed)."""
    return Counter(
        msgspec.json.encode(
            msgspec.structs.replace(event, name=None, player_id=None, bot=None)
            if isinstance(event, SeatTaken)
            else event
        )
        for event in events
    )


def _other(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, -value - 1, 0, rng.randrange(200), None])
    if isinstance(value, str):
        return rng.choice(["", value + "x", value[::-1], "tempura", "0" * len(value), 7])
    if isinstance(value, list):
        shuffled = value[:]
        rng.shuffle(shuffled)
        return rng.choice([shuffled, value[:-1], [*value, *value[:1]], []])
    if value is None:
        return rng.choice([0, "", [], {}])
    return None


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_no_mutation_of_a_real_export_imports_as_another_log(game: str) -> None:
    document = await exported(game)
    original = as_played(check_log(document).events)
    rng = random.Random(game)
    accepted = refused = 0
    for _ in range(MUTATIONS_PER_GAME):
        mutated, change = mutate(document, rng)
        try:
            checked = check_log(mutated)
        except (InvalidLog, ServiceError):
            refused += 1
            continue
        accepted += 1
        assert as_played(checked.events) == original, f"a forged log was accepted ({change})"
    assert refused > MUTATIONS_PER_GAME / 2, (accepted, refused)
