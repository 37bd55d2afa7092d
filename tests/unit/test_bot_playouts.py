"""A game's fast path for its bots (`Game.play_bots`, which `domain.lobby.run_bots` takes where a game
has one) writes the same log and reaches the same table as the bots playing one decision at a time
through the protocol (`decide`, `follow`, `evolve`), for every game of the catalog, from any point of a
game, with the simulator's one generator or the service's chance per seat."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaiten.domain import lobby
from kaiten.domain.catalog import GAMES
from kaiten.domain.chance import Chance
from kaiten.domain.engine import Game
from kaiten.domain.sushi_go.bots import RandomBot, play_bots
from kaiten.domain.sushi_go.game import SUSHI_GO
from tests.unit.bot_games import new_table, step


def one_decision_at_a_time(game: Game, table: lobby.Table, seat: int, chance: Chance) -> Any:
    """`lobby.bot_command` as a caller's own `ask`: `run_bots` then plays each decision through the
    protocol, never the game's fast path."""
    return lobby.bot_command(game, table, seat, chance)


def simulator_chance(seed: int) -> Any:
    chance = Chance.from_rng(random.Random(f"{seed}:bots"))
    return lambda _version, _seat: chance


@pytest.mark.parametrize("game_id", sorted(GAMES))
@given(data=st.data())
@settings(max_examples=15)
def test_the_fast_path_plays_as_the_protocol_does(game_id: str, data: Any) -> None:
    game = GAMES[game_id]
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    bots = data.draw(st.sampled_from([["random"], ["random"], ["greedy"], ["random", "greedy"]]), label="bots")
    table, log = new_table(game, seed, [bots[seat % len(bots)] for seat in range(players)])
    # From the first decision or from a later one (mid-turn, a later round).
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 40), label="decisions stepped first")):
        if table.status != "active":
            break
        table = step(game, table, log, seed, rng).table
    chosen = data.draw(st.booleans(), label="the simulator's one generator")
    fast = lobby.run_bots(game, table, len(log), simulator_chance(seed) if chosen else None)
    slow = lobby.run_bots(game, table, len(log), simulator_chance(seed) if chosen else None, ask=one_decision_at_a_time)
    assert msgspec.json.encode(fast.events) == msgspec.json.encode(slow.events)
    assert msgspec.json.encode(fast.table) == msgspec.json.encode(slow.table)
    assert table.status != "active" or fast.table.status == "finished"


def test_sushi_go_has_a_fast_path_for_random_and_greedy_bots_in_every_seat_only() -> None:
    """The fast path is taken (so the property above compares two paths) for random and greedy bots,
    and refused when any seat is another bot or a person."""
    bots = SUSHI_GO.bots
    table, log = new_table(SUSHI_GO, 7, ["random", "greedy", "random", "greedy"])
    state = lobby.state_of(table)
    for seats in ([RandomBot()] * 4, [bots["greedy"]()] * 4, [RandomBot(), bots["greedy"]()] * 2):
        played = play_bots(state, seats, simulator_chance(7), lambda at: Chance(7, at), len(log))
        assert played is not None
        events, end, decisions = played
        assert end.result is not None
        assert decisions == sum(type(event).__name__ == "CardPicked" for event in events) > 0
    assert play_bots(state, [RandomBot()] * 3 + [bots["mcts"]()], simulator_chance(7), Chance, len(log)) is None
    assert play_bots(state, [RandomBot()] * 3 + [None], simulator_chance(7), Chance, len(log)) is None


def test_a_rekeyed_chance_draws_as_a_new_one_of_its_key() -> None:
    """`run_bots` keys one rules' Chance anew for each decision: it must draw what a Chance made for
    that decision draws, whether or not the one before drew."""
    unused = Chance("key", 1)
    rekeyed = unused.rekeyed(2)
    assert rekeyed is unused
    assert rekeyed.rng.random() == Chance("key", 2).rng.random()
    after_a_draw = rekeyed.rekeyed(3)
    assert after_a_draw is not rekeyed
    assert after_a_draw.rng.random() == Chance("key", 3).rng.random()
    assert Chance.from_rng(random.Random(0)).rekeyed(4).rng.random() == Chance("0", 4).rng.random()
