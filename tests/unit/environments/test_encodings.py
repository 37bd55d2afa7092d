"""Observations are the documented encodings of each seat's view, whatever the environment caches."""

from __future__ import annotations

import random

import numpy as np
import pytest

from adapters.environments.pettingzoo_env import env
from domain.sushi_go.cards import KIND, NIGIRI_POINTS, WASABI
from domain.sushi_go.view import SushiGoView

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def sushi_go_encoding(view: SushiGoView, seat: int, players: int) -> list[float]:
    """adapters/environments/games/sushi_go.py's layout, written out plainly."""
    kinds = 12
    out = [float(view.round), float(view.turn), float(view.hand_size)] + [0.0] * kinds
    for card in view.hand:
        out[3 + KIND[card]] += 1
    for offset in range(players):
        other = (seat + offset) % players
        block = [0.0] * (kinds + 3)
        uncovered = 0
        for card in view.tableaus[other] if view.tableaus else ():
            block[KIND[card]] += 1
            if KIND[card] == WASABI:
                uncovered += 1
            elif NIGIRI_POINTS[KIND[card]] and uncovered:
                uncovered -= 1
        if view.tableaus:
            block[kinds:] = [uncovered, len(view.puddings[other]), view.totals[other]]
        out += block
    return out


@pytest.mark.parametrize("players", [2, 5])
def test_sushi_go_observations_encode_each_seats_view(players: int) -> None:
    table = env("sushi-go", players)
    choice = random.Random(players).choice
    for seed in range(3):
        table.reset(seed=seed)
        for _agent in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            match = table.match
            assert match is not None
            # Every seat, not only the one to act: observers share the cached blocks of a turn.
            for other in reversed(range(players)):
                expected = sushi_go_encoding(match.view(other), other, players)
                assert np.array_equal(table.observe(f"player_{other}")["observation"], expected)
            if terminated or truncated:
                table.step(None)
                continue
            table.step(int(choice(observation["action_mask"].nonzero()[0])))
