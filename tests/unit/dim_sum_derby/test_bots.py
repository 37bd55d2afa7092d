"""Bots choose among the legal commands from their own view; greedy beats random clearly."""

from __future__ import annotations

import random

from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby.commands import Eat, PlayDerby, Serve
from tests.unit.dim_sum_derby.helpers import GAME, derby, dish, make_state, play


def choose(bot: str, state: object, seat: int = 0) -> object:
    commands = GAME.legal_commands(state, seat)
    command = GAME.bots[bot]().choose(GAME.view(state, seat), commands, Chance.from_rng(random.Random(1)))
    assert command in commands
    return command


def test_greedy_eats_what_it_is_hungry_for_and_finishes_dishes_it_will_score() -> None:
    har_gow, egg_tarts, congee = dish("har-gow"), dish("egg-tarts"), dish("congee")
    state = make_state(table=[(congee, ()), (egg_tarts, (1,)), (har_gow, (0, 2))])
    assert choose("greedy", state) == Eat(dish=har_gow)


def test_greedy_serves_a_dish_it_wants_and_not_one_it_does_not() -> None:
    assert choose("greedy", make_state(tops=[(dish("har-gow"),), (), (), ()])) == Serve()
    assert choose("greedy", make_state(tops=[(dish("congee"),), (), (), ()])) != Serve()


def test_greedy_uses_a_double_helping_on_its_own_dish() -> None:
    card = derby("double-helping")
    state = make_state(table=[(dish("cheung-fun"), ()), (dish("congee"), ())], hands=[(card,), (), ()])
    assert choose("greedy", state) == PlayDerby(card=card, dish=dish("cheung-fun"))


def test_random_picks_a_legal_command_and_each_of_them_in_time() -> None:
    state = make_state(table=[(dish("congee"), (1,))], hands=[(derby("sharp-elbows"),), (), ()])
    legal = GAME.legal_commands(state, 0)
    chosen = {GAME.bots["random"]().choose(GAME.view(state, 0), legal, Chance(seed)) for seed in range(200)}
    assert chosen <= set(legal) and len(legal) > 1
    assert chosen == set(legal), "a uniform choice reaches every command in 200 tries"


def test_greedy_beats_random_clearly() -> None:
    games, wins = 40, 0
    for index in range(games):
        players = 3 + index % 2
        seat = index % players
        bots = ["random"] * players
        bots[seat] = "greedy"
        table, _ = play(500 + index, bots)
        assert table.result is not None
        wins += seat in table.result.winners
    assert wins / games >= 0.75, wins
