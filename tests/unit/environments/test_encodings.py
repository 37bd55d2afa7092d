"""Observations are the documented encodings of each seat's view, whatever the environment caches."""

from __future__ import annotations

import random

import msgspec
import numpy as np
import pytest

from adapters.environments.games import get_spec
from adapters.environments.games import sushi_go_party as party
from adapters.environments.pettingzoo_env import env
from domain.catalog import GAMES
from domain.sushi_go.cards import KIND, NIGIRI_POINTS, WASABI
from domain.sushi_go.view import SushiGoView
from tests.unit.environments.cases import CASES

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


def fresh_observation(game: str, view: object, seat: int, players: int) -> np.ndarray:
    """The observation of a copy of the view made of new objects, which no cache has seen."""
    copy = msgspec.json.decode(msgspec.json.encode(view), type=type(view))
    assert copy == view
    return get_spec(game).observe(copy, seat, players)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_observations_read_off_the_state_are_the_encodings_of_the_views(game: str, players: int) -> None:
    """At every decision of whole games, every seat's observation (read straight off the state, from
    parts cached by identity or by value) is the documented encoding of a fresh copy of its view: so
    it shows no more than the view, and no cached part is stale. Two games of other player counts
    run alongside, so caches shared by every environment of a game see them interleaved."""
    other_players = sorted({GAMES[game].min_players, GAMES[game].max_players} - {players}) or [players]
    tables = [env(game, count) for count in (players, *other_players)]
    rngs = [random.Random(seed) for seed in range(len(tables))]
    for seed, table in enumerate(tables):
        table.reset(seed=seed)
    playing = list(range(len(tables)))
    while playing:
        for index in list(playing):
            table, rng = tables[index], rngs[index]
            count = table.players
            match = table.match
            assert match is not None
            # Seats in a random order, some twice: a cache must not hand one seat's parts to another.
            for seat in rng.choices(range(count), k=count + 1):
                expected = fresh_observation(game, match.view(seat), seat, count)
                assert np.array_equal(table.observe(f"player_{seat}")["observation"], expected)
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                if not table.agents:
                    playing.remove(index)
                continue
            table.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


@pytest.mark.parametrize(("game", "players"), [("sushi-go", 3), ("sushi-go-party", 2), ("sushi-go-party", 8)])
def test_cached_seat_blocks_give_what_a_fresh_encoding_gives(game: str, players: int) -> None:
    table = env(game, players)
    choice = random.Random(players).choice
    table.reset(seed=players)
    for _agent in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        match = table.match
        assert match is not None
        for other in range(players):
            cached = table.observe(f"player_{other}")["observation"]
            assert np.array_equal(cached, fresh_observation(game, match.view(other), other, players))
        if game == "sushi-go-party":
            view = match.view(0)
            for offset in range(players):
                other = offset % players
                scalars = party.SEATS_AT + offset * party.SEAT_FEATURES + party.SEAT_FEATURES - 3
                expected = [view.totals[other], view.uramaki_icons[other], view.uramaki_points[other]]
                assert list(observation_of(table, 0)[scalars : scalars + 3]) == expected
                cards = observation_of(table, 0)[scalars - party.SEAT_FEATURES + 3 : scalars]
                assert cards.sum() == len(view.tableaus[other]) + len(view.fridges[other])
        if terminated or truncated:
            table.step(None)
            continue
        table.step(int(choice(observation["action_mask"].nonzero()[0])))


def observation_of(table: object, seat: int) -> np.ndarray:
    observation: np.ndarray = table.observe(f"player_{seat}")["observation"]  # type: ignore[attr-defined]
    return observation
