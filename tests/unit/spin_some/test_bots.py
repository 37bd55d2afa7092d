"""Bots pick legal commands from their own view; greedy weighs tokens against cards and beats random."""

from __future__ import annotations

import random

from kaiten.domain.chance import Chance
from kaiten.domain.spin_some.commands import Rotate, Take
from kaiten.domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM as GAME
from tests.unit.spin_some.helpers import make_state, play


def test_bots_choose_among_the_legal_commands() -> None:
    state = make_state([["egg-tart"], ["shumai-dumpling"], ["turnip-cake"]], bun=0)
    commands = GAME.legal_commands(state, 0)
    for name in ("random", "greedy"):
        bot = GAME.bots[name]()
        for i in range(10):
            assert bot.choose(GAME.view(state, 0), commands, Chance(i)) in commands


def test_greedy_pays_for_a_much_better_card_but_not_for_a_marginal_one() -> None:
    menu = ["shumai-dumpling"] * 3 + ["egg-tart"]
    # the fourth shumai (+12) is worth two tokens
    state = make_state([["small-sesame-ball"], [], ["shumai-dumpling"]], menus=[menu, []], tokens=(2, 4))
    greedy = GAME.bots["greedy"]()
    assert greedy.choose(GAME.view(state, 0), GAME.legal_commands(state, 0), Chance(0)) == Rotate(2)
    # a large sesame ball (+2) is not worth spending three tokens over a small one (+1)
    state = make_state([["small-sesame-ball"], [], [], ["large-sesame-ball"]], menus=[menu, []], tokens=(5, 4))
    commands = GAME.legal_commands(state, 0)
    assert Rotate(3) in commands
    assert greedy.choose(GAME.view(state, 0), commands, Chance(0)) == Take()


def test_greedy_collects_tokens_lying_in_a_basket() -> None:
    state = make_state(
        [["small-sesame-ball"], ["small-sesame-ball"]], menus=[["egg-tart"], []], basket_tokens=(0, 4, 0, 0, 0, 0)
    )
    assert GAME.bots["greedy"]().choose(GAME.view(state, 0), GAME.legal_commands(state, 0), Chance(0)) == Rotate(1)


def test_greedy_beats_random() -> None:
    wins = 0.0
    games = 16
    for i in range(games):
        seat = i % 2
        bots = ["random", "random"]
        bots[seat] = "greedy"
        table, _ = play(500 + i, bots)
        assert table.result is not None
        winners = table.result.winners
        wins += (seat in winners) / len(winners)
    assert wins / games >= 0.75


def test_random_bot_uses_the_chance_it_is_handed() -> None:
    state = make_state([["egg-tart"], ["shumai-dumpling"], ["turnip-cake"]])
    commands = GAME.legal_commands(state, 0)
    bot = GAME.bots["random"]()
    picks = {bot.choose(GAME.view(state, 0), commands, Chance.from_rng(random.Random(i))) for i in range(40)}
    assert len(picks) > 1
