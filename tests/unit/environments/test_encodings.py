"""Observations are the documented layouts of each seat's view (`layouts.py`), whatever each game's
one encoder keeps from one state to the next."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import numpy as np
import pytest
from msgspec.structs import replace

from kaiten.domain.catalog import GAMES
from kaiten.domain.dim_sum_derby.cards import DERBY_CARDS, DISHES_PER_CART
from kaiten.domain.sushi_go.cards import DECK_SIZE
from kaiten.domain.sushi_go_party.cards import SLUG as PARTY_SLUG
from kaiten.environments.games import get_spec
from kaiten.environments.games import sushi_go_party as party
from kaiten.environments.pettingzoo_env import env
from tests.unit.environments import layouts
from tests.unit.environments.cases import CASES
from tests.unit.environments.layouts import LAYOUTS

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


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
                expected = layouts.sushi_go(match.view(other), other, players)
                assert np.array_equal(table.observe(f"player_{other}")["observation"], expected)
            if terminated or truncated:
                table.step(None)
                continue
            table.step(int(choice(observation["action_mask"].nonzero()[0])))


def fresh_observation(game: str, view: object, seat: int, players: int) -> np.ndarray:
    """The documented layout of a copy of the view made of new objects, which no encoder has seen."""
    copy = msgspec.json.decode(msgspec.json.encode(view), type=type(view))
    assert copy == view
    return np.array(LAYOUTS[game](copy, seat, players), np.float32)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_observations_read_off_the_state_are_the_layouts_of_the_views(game: str, players: int) -> None:
    """At every decision of whole games, every seat's observation (read straight off the state, from
    numbers kept while what they were read from is the same) is the documented layout of a fresh copy
    of its view: so it shows no more than the view, and no kept number is stale. Two games of other
    player counts run alongside, each with its own encoder."""
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


def played_states(game: str, players: int, seed: int) -> Iterator[Any]:
    """The state at every turn of an agent in a game the environment plays under random legal actions."""
    table = env(game, players)
    table.reset(seed=seed)
    rng = random.Random(seed)
    for _agent in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        yield table.match.state  # type: ignore[union-attr]
        if terminated or truncated:
            table.step(None)
            continue
        table.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


@pytest.mark.parametrize(("game", "players"), CASES)
def test_an_observer_given_states_in_any_order_observes_each_as_its_view_shows_it(game: str, players: int) -> None:
    """An environment's observer keeps what it read of the last state, and reads again only what is
    not the very object it last read (`KeptNumbers`). Fed the states of several games in a
    shuffled order (as a search visits a match and its copies), and copied by pickling midway (as
    OpenSpiel serializes states), it still gives every seat the layout of its view, the state
    before the deal included."""
    spec = get_spec(game)
    # Environments deal before they observe; Party's state before its setup has no phase to encode.
    states = [] if game == "sushi-go-party" else [spec.game.initial_state(env(game, players).game_options, players)]
    for seed in range(3):
        states += played_states(game, players, seed)
    random.Random(players).shuffle(states)
    observer = spec.observer(players)
    for number, state in enumerate(states):
        if number == len(states) // 2:
            observer = pickle.loads(pickle.dumps(observer))
        seat = number % players
        expected = fresh_observation(game, spec.game.view(state, seat), seat, players)
        assert np.array_equal(observer(state, seat), expected)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_public_observations_are_the_layouts_of_the_spectators_view(game: str, players: int) -> None:
    """`public(state, seat)` (OpenSpiel's observation without private information) is the layout of
    the spectator's view from the seat, whatever the encoder observed before (the seat's own
    observations included, which show more)."""
    spec = get_spec(game)
    states = [state for seed in range(2) for state in played_states(game, players, seed)]
    random.Random(players).shuffle(states)
    observer = spec.observer(players)
    for number, state in enumerate(states):
        seat = number % players
        expected = fresh_observation(game, spec.game.view(state, None), seat, players)
        assert np.array_equal(observer.public(state, seat), expected)
        own = fresh_observation(game, spec.game.view(state, seat), seat, players)
        assert np.array_equal(observer(state, seat), own)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_an_environment_dealt_again_observes_the_new_game_as_its_views_show_it(game: str, players: int) -> None:
    """An environment keeps one observer for every game it deals: what it kept of the last game's
    end must not leak into the next game's observations."""
    table = env(game, players)
    rng = random.Random(players)
    for seed in (5, 6, 5):
        table.reset(seed=seed)
        for agent in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            seat = table.seat_of[agent]
            view = table.match.view(seat)  # type: ignore[union-attr]
            assert np.array_equal(observation["observation"], fresh_observation(game, view, seat, players))
            if terminated or truncated:
                table.step(None)
                continue
            table.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


@pytest.mark.parametrize(("game", "players"), [("sushi-go", 3), ("sushi-go-party", 2), ("sushi-go-party", 8)])
def test_every_seat_observed_at_every_step_gets_its_views_layout(game: str, players: int) -> None:
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


def _others(state: Any, seat: int) -> list[int]:
    return [other for other in range(state.players) if other != seat]


def _other_cards(hands: tuple[tuple[int, ...], ...], seats: list[int], cards: int) -> tuple[tuple[int, ...], ...]:
    """The hands with other cards (of `cards` card ids) in those of `seats`."""
    return tuple(
        tuple((card + cards // 2) % cards for card in hand) if seat in seats else hand
        for seat, hand in enumerate(hands)
    )


def hide_sushi_go(state: Any, seat: int) -> Any:
    others = _others(state, seat)
    picks = tuple(() if other in others else pick for other, pick in enumerate(state.picks))
    return replace(state, hands=_other_cards(state.hands, others, DECK_SIZE), picks=picks, deck=state.deck[::-1])


def hide_party(state: Any, seat: int) -> Any:
    others = _others(state, seat)
    prompt = state.prompt
    if prompt is not None and prompt.seat != seat:
        prompt = replace(prompt, options=())
    return replace(
        state,
        hands=_other_cards(state.hands, others, len(PARTY_SLUG)),
        picks=tuple(-1 if other in others else pick for other, pick in enumerate(state.picks)),
        calls=tuple(-1 if other in others else call for other, call in enumerate(state.calls)),
        deck=state.deck[::-1],
        dessert_pile=state.dessert_pile[::-1],
        drawn=state.drawn if prompt is None or prompt.seat == seat else (),
        prompt=prompt,
    )


def hide_spin_some(state: Any, seat: int) -> Any:
    # Below each basket's top card.
    piles = tuple(
        pile[: depth + 1] + pile[depth + 1 :][::-1] for pile, depth in zip(state.piles, state.depth, strict=True)
    )
    return replace(state, piles=piles)


def hide_derby(state: Any, seat: int) -> Any:
    others = _others(state, seat)
    hands = _other_cards(state.hands, others, DERBY_CARDS)
    # Another dish of the same cart on each yen card nobody else has seen flipped.
    yen = tuple(
        tuple(
            card - card % DISHES_PER_CART + (card % DISHES_PER_CART + 1) % DISHES_PER_CART
            if other in others and not state.over and not portions[cart]
            else card
            for cart, card in enumerate(cards)
        )
        for other, (cards, portions) in enumerate(zip(state.yen, state.portions, strict=True))
    )
    return replace(
        state,
        hands=hands,
        yen=yen,
        carts=tuple(cards[:1] + cards[1:][::-1] for cards in state.carts),
        yen_decks=tuple(deck[::-1] for deck in state.yen_decks),
        derby_deck=state.derby_deck[::-1],
        peek=state.peek if seat == state.turn_seat else state.peek[::-1],
    )


HIDE = {
    "sushi-go": hide_sushi_go,
    "sushi-go-party": hide_party,
    "spin-some-for-dim-sum": hide_spin_some,
    "dim-sum-derby": hide_derby,
}


@pytest.mark.parametrize(("game", "players"), CASES)
def test_what_a_seat_may_not_see_changes_nothing_it_observes(game: str, players: int) -> None:
    """Observations are read straight off the full state: other seats' hands and hidden picks, the
    decks and the cards below a pile's top may change without any change to a seat's observation."""
    spec = get_spec(game)
    hidden_changes = 0
    for seed in range(2):
        for state in played_states(game, players, seed):
            for seat in range(players):
                hidden = HIDE[game](state, seat)
                hidden_changes += hidden != state
                assert np.array_equal(spec.observer(players)(hidden, seat), spec.observer(players)(state, seat))
    assert hidden_changes > 0
