"""Clocks benchmark: what a turn clock costs when a game is loaded (its log folded into the table and
the seats' clocks) and when a command is played, beside the same game without a clock.

Both are measured side by side in one run (interleaved rounds, best round kept), on the in-memory
store, so the ratios hold on any machine even when the absolute figures move.

    .venv/bin/python -m bench.clocks [--loads 200] [--games 10] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

import msgspec

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.services.commands import Act, CreateGame, GetTable, ListLegalCommands, NewSeat
from kaiten.services.games import Games
from kaiten.services.loading import load_game

GAME = "sushi-go"
OPTIONS: dict[str, dict[str, Any] | None] = {"no clock": None, "clock": {"clock": {"turn_seconds": 3600}}}
SEATS = (NewSeat(name="Ann"), NewSeat(bot="greedy"), NewSeat(bot="greedy"), NewSeat(bot="greedy"))


async def play(games: Games, options: dict[str, Any] | None) -> tuple[str, int]:
    """A whole game, the person sending its first legal command: its id and the commands sent."""
    game = await games.create(CreateGame(GAME, len(SEATS), options, 3, SEATS))
    commands = 0
    while (await games.view(GetTable(game.id))).status == "active":
        legal = await games.legal_commands(ListLegalCommands(game.id, game.tokens["0"]))
        await games.act(Act(game.id, game.tokens["0"], msgspec.json.encode(legal.commands[0])))
        commands += 1
    return game.id, commands


async def measure(loads: int, games_per_round: int, rounds: int) -> dict[str, tuple[float, float, int]]:
    """Per option: best seconds per load of a finished game, best seconds per command, log length."""
    games = Games(InMemoryEventStore(), SystemClock(), SecureIds(), people=InMemoryPeople())
    finished = {name: (await play(games, options))[0] for name, options in OPTIONS.items()}
    best = {name: [float("inf"), float("inf")] for name in OPTIONS}
    for _ in range(rounds):
        for name, options in OPTIONS.items():
            start = time.perf_counter()
            for _ in range(loads):
                await load_game(games.store, finished[name])
            best[name][0] = min(best[name][0], (time.perf_counter() - start) / loads)
            start, commands = time.perf_counter(), 0
            for _ in range(games_per_round):
                commands += (await play(games, options))[1]
            best[name][1] = min(best[name][1], (time.perf_counter() - start) / commands)
    lengths = {name: len(await games.store.read(game_id)) for name, game_id in finished.items()}
    return {name: (load, command, lengths[name]) for name, (load, command) in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=200, help="loads of a finished game per round")
    parser.add_argument("--games", type=int, default=10, help="whole games played per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    best = asyncio.run(measure(args.loads, args.games, args.rounds))
    plain_load, plain_command, _ = best["no clock"]
    print(f"{GAME}, 1 person and 3 greedy bots, {args.rounds} rounds, best round kept")
    print(f"{'':>9} {'ms/load':>8} {'events':>7} {'load vs none':>13} {'ms/command':>11} {'command vs none':>16}")
    for name, (load, command, events) in best.items():
        print(
            f"{name:>9} {load * 1000:>8.2f} {events:>7} {load / plain_load:>13.2f}"
            f" {command * 1000:>11.2f} {command / plain_command:>16.2f}"
        )


if __name__ == "__main__":
    main()
