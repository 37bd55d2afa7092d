"""Bots choose among the legal commands from their own seat's view; greedy beats random clearly."""

from __future__ import annotations

import random

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.sushi_go.bots import GreedyBot, RandomBot
from kaiten.domain.sushi_go.cards import DEAL, DECK_SIZE
from kaiten.domain.sushi_go.commands import Pick
from kaiten.domain.sushi_go.game import SUSHI_GO as GAME
from kaiten.services.simulation import simulate
from tests.unit.sushi_go.helpers import Cards, make_state, new_table, random_game


def greedy_pick(state: object, seat: int) -> Pick:
    choice = GreedyBot().choose(GAME.view(state, seat), GAME.legal_commands(state, seat), Chance(0))
    assert isinstance(choice, Pick)
    return choice


@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_both_bots_choose_a_legal_command_from_the_view(seed: int, players: int) -> None:
    rng = random.Random(seed)
    for before, _after, seat, _command, _events, _log in random_game(players, seed):
        commands = GAME.legal_commands(before.state, seat)
        view = GAME.view(before.state, seat)
        for bot in (RandomBot(), GreedyBot()):
            assert bot.choose(view, commands, Chance.from_rng(rng)) in commands
        if rng.random() < 0.05:
            break


def test_random_bot_is_uniform_over_the_legal_commands() -> None:
    c = Cards()
    hands = [c("tempura", "sashimi", "dumpling"), c("maki-1", "maki-2", "maki-3")]
    state = make_state(c, hands, tableaus=[c("chopsticks"), ()])
    commands = GAME.legal_commands(state, 0)
    rng = random.Random(3)
    counts = {command: 0 for command in commands}
    for _ in range(900):
        counts[RandomBot().choose(GAME.view(state, 0), commands, Chance.from_rng(rng))] += 1
    assert len(commands) == 9 and min(counts.values()) > 60


def test_greedy_completes_sets_and_uses_wasabi() -> None:
    c = Cards()
    two_sashimi = make_state(
        c,
        [c("sashimi", "tempura", "egg-nigiri"), c("maki-1", "maki-2", "maki-3")],
        tableaus=[c("sashimi", "sashimi"), ()],
    )
    assert greedy_pick(two_sashimi, 0) == Pick(cards=(two_sashimi.hands[0][0],))
    wasabi = make_state(
        c, [c("egg-nigiri", "squid-nigiri", "maki-1"), c("dumpling", "maki-2", "maki-3")], tableaus=[c("wasabi"), ()]
    )
    assert greedy_pick(wasabi, 0) == Pick(cards=(wasabi.hands[0][1],))


def test_greedy_takes_two_good_cards_with_chopsticks() -> None:
    c = Cards()
    state = make_state(
        c,
        [c("tempura", "squid-nigiri", "egg-nigiri", "dumpling"), c("dumpling", "maki-2", "maki-3", "pudding")],
        tableaus=[(*c("chopsticks"), *c("tempura"), *c("wasabi")), ()],
    )
    choice = greedy_pick(state, 0)
    assert set(choice.cards) == {state.hands[0][0], state.hands[0][1]}


def test_bots_see_only_their_own_view() -> None:
    table, _log = new_table(4, seed=5, bots=["greedy", "random", "greedy", "random"])
    for seat in range(4):
        view = GAME.view(table.state, seat)
        encoded = msgspec.json.decode(msgspec.json.encode(view))
        assert encoded["hand"] == list(table.state.hands[seat])
        assert "hands" not in encoded and "deck" not in encoded
        command = lobby.bot_command(GAME, table, seat, Chance(1))
        assert command in GAME.legal_commands(table.state, seat)


def test_greedy_beats_random_clearly() -> None:
    report = simulate("sushi-go", 4, 40, ["greedy", "random", "random", "random"], seed=7)
    assert report.per_bot["greedy"].seats == 40
    assert report.win_rate["greedy"] > 0.5  # an even share would be 0.25
    assert report.mean_score["greedy"] > report.mean_score["random"] + 5


def test_catalog() -> None:
    catalog = msgspec.to_builtins(GAME.catalog())
    msgspec.json.encode(catalog)
    assert sum(card["count"] for card in catalog["cards"]) == DECK_SIZE
    assert sorted(i for card in catalog["cards"] for i in card["ids"]) == list(range(DECK_SIZE))
    assert catalog["rounds"] == 3 and catalog["deal"] == {str(p): n for p, n in DEAL.items()}
    slugs = {card["slug"] for card in catalog["cards"]}
    assert {"tempura", "maki-3", "squid-nigiri", "pudding", "wasabi", "chopsticks"} <= slugs
    assert msgspec.json.decode(b'{"type": "pick", "cards": [17]}', type=GAME.command_type) == Pick(cards=(17,))
    assert GAME.bots.keys() == {"random", "greedy", "mcts", "mcts:strong"}
    assert msgspec.convert({}, GAME.options_type) == GAME.options_type()


def test_greedy_copes_with_many_uncovered_wasabi() -> None:
    c = Cards()
    state = make_state(
        c,
        [c("wasabi", "wasabi", "squid-nigiri"), c("dumpling", "maki-2", "maki-3")],
        tableaus=[c("wasabi", "wasabi", "wasabi", "wasabi"), ()],
    )
    assert greedy_pick(state, 0) == Pick(cards=(state.hands[0][2],))
