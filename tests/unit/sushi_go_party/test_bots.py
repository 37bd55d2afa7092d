"""Bots: legal answers to every kind of decision, and greedy beats random."""

from __future__ import annotations

import random

from kaiten.domain.chance import Chance
from kaiten.domain.sushi_go_party import commands
from kaiten.domain.sushi_go_party.bots import GreedyBot, RandomBot
from kaiten.domain.sushi_go_party.commands import Chopsticks, Copy, Flip, Give, MenuPick, Pick, Spoon
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY as GAME
from kaiten.domain.sushi_go_party.legal import legal_commands

from .helpers import Game, new_table, play_table, setup_game


def choices(game: Game) -> list[object]:
    """What each bot answers to the seat the game waits for (checked legal)."""
    seat = game.state.awaiting[0]
    legal = legal_commands(game.state, seat)
    view = GAME.view(game.state, seat)
    answers = []
    for bot in (GreedyBot(), RandomBot()):
        answer = bot.choose(view, legal, Chance.from_rng(random.Random(1)))
        assert answer in legal
        answers.append(answer)
    return answers


def test_greedy_picks_the_best_card() -> None:
    game, ids = setup_game("sushi-go", 2, [["egg-nigiri", "squid-nigiri", "maki-1"], ["tempura"] * 3], [["wasabi"], []])
    assert choices(game)[0] == Pick(card=ids["squid-nigiri"][0])


def test_greedy_finishes_sets() -> None:
    game, ids = setup_game(
        "sushi-go", 2, [["sashimi", "tempura", "dumpling"], ["maki-1"] * 3], [["sashimi", "sashimi"], []]
    )
    assert choices(game)[0] == Pick(card=ids["sashimi"][0])


def test_bots_answer_chopsticks_copy_menu_spoon_give_and_flip() -> None:
    game, ids = setup_game(
        "sushi-go", 2, [["tempura", "squid-nigiri", "egg-nigiri"], ["maki-1"] * 3], [["chopsticks", "wasabi"], []]
    )
    game.turn((ids["tempura"][0], ids["chopsticks"][0]), ids["maki-1"][0])
    assert choices(game)[0] == Chopsticks(card=ids["squid-nigiri"][0])

    option = {"roll": "maki", "appetizers": ["tempura", "sashimi", "eel"], "specials": ["special-order", "wasabi"]}
    game, ids = setup_game(
        {**option, "dessert": "pudding"}, 2, [["special-order", "eel"], ["tempura"] * 2], [["eel", "tempura"], []]
    )
    game.turn(ids["special-order"][0], ids["tempura"][0])
    assert choices(game)[0] == Copy(card=ids["eel"][1])

    game, ids = setup_game("party-sampler", 3, [["menu", "tofu"], ["tofu", "tofu"], ["tofu", "tofu"]])
    game.turn(ids["menu"][0], ids["tofu"][1], ids["tofu"][3])
    assert isinstance(choices(game)[0], MenuPick)

    game, ids = setup_game(
        "big-banquet",
        3,
        [["tempura", "eel", "eel"], ["maki-1", "maki-3", "eel"], ["eel"] * 3],
        [["spoon", "eel"], [], []],
    )
    game.turn((ids["tempura"][0], ids["spoon"][0]), ids["eel"][2], ids["eel"][3])
    request = choices(game)[0]
    assert request == Spoon(request="eel")
    game.answer(Spoon(request="maki"))
    assert choices(game)[0] == Give(card=ids["maki-1"][0])

    game, ids = setup_game(
        "master-menu",
        3,
        [["takeout-box"], ["temaki"], ["temaki"]],
        [["sashimi", "sashimi", "sashimi", "tofu", "tofu", "tofu"]],
    )
    game.turn(ids["takeout-box"][0], ids["temaki"][0], ids["temaki"][1])
    assert choices(game)[0] == Flip(cards=tuple(ids["tofu"][:3]))


def test_bots_choose_and_vote_on_menus() -> None:
    for mode, kind in (
        ("first-player", commands.ChooseMenu),
        ("build", commands.ChooseMenu),
        ("vote", commands.ProposeMenu),
    ):
        table, _ = new_table(1, ["greedy", "random", "greedy"], {"menu": mode})
        game = Game(table.state)
        assert game.state.phase == "select"
        assert all(isinstance(answer, kind) for answer in choices(game)), mode
    # The proposer's menu is then put to the others' vote, and both bots answer it.
    game.act(game.state.awaiting[0], choices(game)[0])
    assert game.state.phase == "select"
    assert {type(answer) for answer in choices(game)} == {commands.Vote}


def test_greedy_beats_random() -> None:
    wins = 0
    games = 40
    for seed in range(games):
        table, _, _ = play_table(seed, ["random", "greedy", "random", "random"])
        assert table.result is not None
        wins += 1 in table.result.winners
    assert wins / games > 0.6  # an even share is 0.25
