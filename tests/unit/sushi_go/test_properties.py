"""Properties over random seeds and player counts: games end, cards are conserved, replay equals the
live table, legal commands are exactly the accepted ones, and totals are sums of their breakdowns."""

from __future__ import annotations

import random
from typing import Any, Union

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.engine import RuleViolation
from kaiten.domain.sushi_go.cards import DEAL
from kaiten.domain.sushi_go.commands import Pick
from kaiten.domain.sushi_go.events import PuddingsScored, RoundScored
from kaiten.domain.sushi_go.game import SUSHI_GO as GAME
from kaiten.domain.sushi_go.scoring import CATEGORIES
from tests.unit.sushi_go.helpers import assert_conserved, random_game

seeds = st.integers(0, 2**32)
player_counts = st.integers(2, 5)


@given(seed=seeds, players=player_counts)
def test_random_games_end_conserve_cards_and_replay(seed: int, players: int) -> None:
    steps = 0
    log: list[Any] = []
    after: Any = None
    for _before, after, _seat, _command, _events, log in random_game(players, seed):
        assert_conserved(after.state)
        if steps % 10 == 0:
            assert lobby.replay(GAME, log) == after
        steps += 1
    assert after is not None and after.status == "finished"
    # One command per seat and turn, the last card of each round excepted.
    assert steps == 3 * players * (DEAL[players] - 1)
    assert lobby.replay(GAME, log) == after
    result = after.result
    assert result is not None and len(result.scores) == players
    for score in result.scores:
        assert score.total == sum(score.breakdown.values())
        assert set(score.breakdown) == set(CATEGORIES)
    # The result adds up the three rounds and the puddings, category by category.
    stages = [e for e in log if isinstance(e, RoundScored | PuddingsScored)]
    assert len(stages) == 4
    for seat in range(players):
        for category in CATEGORIES:
            assert result.scores[seat].breakdown[category] == sum(s.scores[seat].breakdown[category] for s in stages)
    assert sorted(result.ranking) == list(range(players))
    assert result.winners and set(result.winners) <= set(range(players))


def wrong_commands(state: Any, seat: int, rng: random.Random) -> list[Any]:
    hand = state.hands[seat]
    cards = [rng.randrange(-2, 112) for _ in range(3)]
    return [
        Pick(cards=()),
        Pick(cards=(cards[0],)),
        Pick(cards=(cards[0], cards[1])),
        Pick(cards=(hand[0], cards[1])),
        Pick(cards=(hand[0], hand[-1])),
        Pick(cards=(hand[0], hand[0])),
        Pick(cards=tuple(hand[:3])),
        Pick(cards=(cards[2], hand[0])),
    ]


@given(seed=seeds, players=player_counts)
def test_legal_commands_are_exactly_the_accepted_ones(seed: int, players: int) -> None:
    rng = random.Random(seed)
    for before, _after, seat, _command, _events, log in random_game(players, seed):
        state = before.state
        legal = GAME.legal_commands(state, seat)
        version = len(log) - 1
        for command in legal:
            lobby.act(GAME, before, seat, command, Chance(seed, version))
        for command in wrong_commands(state, seat, rng):
            if command in legal:
                continue
            try:
                lobby.act(GAME, before, seat, command, Chance(seed, version))
            except RuleViolation as violation:
                assert violation.code in {"unknown-card", "card-not-in-hand", "no-chopsticks", "invalid-command"}
            else:
                raise AssertionError(f"{command} was accepted but is not legal")
        for other in range(players):
            if other not in lobby.awaiting(GAME, before):
                assert GAME.legal_commands(state, other) == []


@given(seed=seeds, players=player_counts)
def test_events_round_trip_through_json(seed: int, players: int) -> None:
    event_union: Any = Union[(*lobby.LOBBY_EVENTS, *GAME.event_types)]
    decode = msgspec.json.Decoder(event_union).decode
    steps = list(random_game(players, seed))
    log = steps[-1][-1]
    for event in log:
        assert decode(msgspec.json.encode(event)) == event
