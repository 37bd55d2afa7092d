"""A chosen seed never reveals the deal (API.md, "Fair shuffles").

The attack that worked when the seed alone fed chance: a seated player (or a spectator of Spin Some,
who sees every basket's top card) deals every small seed offline with kaiten's own domain code and
matches what they see; the one that matches gives every hand and the deck. Since the secret salt feeds
chance too, no seed does, over the 4,000 seeds around the chosen one: the scan covers the chosen seed,
which is all the attack needs to find, so it would find it were the salt left out. (A wider scan finds
no more: a seed other than the chosen one matches by chance alone, salt or no salt.) The same attack
on a log dealt before (the seed alone) finds the seed at once: the test of the attack itself.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kaiten.domain import lobby
from kaiten.domain.catalog import get_game
from kaiten.domain.chance import Chance
from kaiten.domain.engine import AnyGame

#: Small, as a player would choose one: well inside the range the attack scans.
CHOSEN_SEED = 424_242
SEEDS = range(CHOSEN_SEED - 2_000, CHOSEN_SEED + 2_000)


def dealt(game: AnyGame, players: int, chance_from: lobby.ChanceFrom) -> tuple[lobby.Table[Any], int]:
    """A started table of bots dealt by `chance_from`, and the log's length when the deal was made."""
    events = lobby.create_game(game, players, None, CHOSEN_SEED, bytes(range(16)))
    events[0] = msgspec.structs.replace(events[0], chance_from=chance_from)
    table = lobby.replay(game, events)
    for _ in range(players):
        decision = lobby.take_seat(game, table, lobby.rules_chance(table, len(events)), bot="random")
        events.extend(decision.events)
        table = decision.table
    return table, len(events) - len(decision.events)


def sushi_go_hand(state: Any) -> tuple[int, ...]:
    """What seat 0 sees of the deal: its own hand."""
    return tuple(state.hands[0])


def spin_some_tops(state: Any) -> tuple[int | None, ...]:
    """What anybody sees of the deal: each basket's top card."""
    return tuple(pile[0] if pile else None for pile in state.piles)


SEEN = {"sushi-go": sushi_go_hand, "spin-some-for-dim-sum": spin_some_tops}


def attack(game: AnyGame, players: int, version: int, seen: Any, seeds: range) -> list[int]:
    """Every seed whose deal, as kaiten dealt from the seed alone, shows what was seen."""
    options = game.options_type()
    initial = game.initial_state(options, players)
    found = []
    for seed in seeds:
        state = initial
        for event in game.setup(options, players, Chance(seed, version)):
            state = game.evolve(state, event)
        if SEEN[game.id](state) == seen:
            found.append(seed)
    return found


@pytest.mark.parametrize("game_id", sorted(SEEN))
def test_the_attack_finds_a_seed_that_dealt_alone(game_id: str) -> None:
    game = get_game(game_id)
    table, version = dealt(game, 2, "seed")
    around = range(CHOSEN_SEED - 50, CHOSEN_SEED + 50)
    assert attack(game, 2, version, SEEN[game_id](table.state), around) == [CHOSEN_SEED]


@pytest.mark.parametrize("game_id", sorted(SEEN))
def test_no_seed_alone_deals_what_a_player_or_a_spectator_sees(game_id: str) -> None:
    game = get_game(game_id)
    table, version = dealt(game, 2, "seed+salt")
    assert attack(game, 2, version, SEEN[game_id](table.state), SEEDS) == []
