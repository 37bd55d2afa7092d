"""Property tests over whole games played through domain/lobby/."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
from hypothesis import assume, given
from hypothesis import strategies as st

from kaiten.domain import lobby
from kaiten.domain.spin_some.cards import CARD_KIND, DECK, STEAMED_BUN
from kaiten.domain.spin_some.events import BasketsFilled
from kaiten.domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM as GAME
from kaiten.domain.spin_some.state import BASKETS, MENU_SIZE, SpinState, top
from tests.unit.spin_some.helpers import new_table, step

seeds = st.integers(min_value=0, max_value=2**32)
lineups = st.integers(min_value=2, max_value=6).flatmap(
    lambda n: st.lists(st.sampled_from(["random", "greedy"]), min_size=n, max_size=n)
)


def hidden_cards(state: SpinState) -> set[int]:
    return {card for b in range(BASKETS) for card in state.piles[b][state.depth[b] + 1 :]}


def check_invariants(state: SpinState) -> None:
    players = state.players
    # conservation of cards: every card is in exactly one basket or on exactly one menu
    in_baskets = [card for b in range(BASKETS) for card in state.piles[b][state.depth[b] :]]
    on_menus = [card for menu in state.menus for card in menu]
    assert Counter(in_baskets + on_menus) == Counter(DECK)
    assert state.left == len(in_baskets) and state.taken == len(on_menus)
    # conservation of tokens: 4 per player in play (8, 12, 16, 20, 24 for 2..6 players; 24 in the box)
    assert sum(state.tokens) + sum(state.basket_tokens) == 4 * players
    assert min(state.tokens) >= 0 and min(state.basket_tokens) >= 0
    # strictly one at a time: menus differ by at most one card, in turn order
    assert max(len(m) for m in state.menus) - min(len(m) for m in state.menus) <= 1
    assert max(len(m) for m in state.menus) <= MENU_SIZE
    # the squishy bun is held only by someone who took a steamed bun
    if state.bun is not None:
        assert any(CARD_KIND[card] == STEAMED_BUN for card in state.menus[state.bun])


def check_no_hidden_card_visible(table: lobby.Table, events: list[Any]) -> None:
    state = table.state
    hidden = hidden_cards(state)
    for viewer in (*range(state.players), None):
        seen = msgspec.json.decode(msgspec.json.encode(GAME.view(state, viewer)))
        visible = {b["top"] for b in seen["baskets"]} | {c for p in seen["players"] for c in p["menu"]}
        assert not visible & hidden
        assert [b["top"] for b in seen["baskets"]] == [top(state, b) for b in range(BASKETS)]
        for event in events:
            redacted = lobby.redact(GAME, table, event, viewer)
            if isinstance(redacted, BasketsFilled) and table.status != "finished":
                assert redacted.piles is None


@given(seed=seeds, bots=lineups, first=st.integers(min_value=0, max_value=5))
def test_random_games_terminate_with_invariants_at_every_step(seed: int, bots: list[str], first: int) -> None:
    players = len(bots)
    table, events = new_table(seed, bots, {"first_player": first % players})
    rng = random.Random(seed)
    check_invariants(table.state)
    check_no_hidden_card_visible(table, events)
    turns = 0
    while table.status == "active":
        assert GAME.awaiting(table.state) == ((first % players + turns) % players,)
        decision = step(table, events, seed, rng)
        new_events = list(decision.events)
        table = decision.table
        turns += 1
        assert turns <= MENU_SIZE * players
        check_invariants(table.state)
        if table.status == "active":
            check_no_hidden_card_visible(table, new_events)
    assert turns == MENU_SIZE * players
    assert all(len(menu) == MENU_SIZE for menu in table.state.menus)
    # replay equals the live table
    assert lobby.replay(GAME, events) == table
    # totals are the sum of their breakdowns, and the result ranks every seat
    assert table.result is not None
    for score in table.result.scores:
        assert score.total == sum(score.breakdown.values())
    assert sorted(table.result.ranking) == list(range(players))
    # the calculator agrees with the game
    body = {
        "players": [
            {
                "cards": [msgspec.to_builtins(GAME.catalog())["cards"][CARD_KIND[c]]["slug"] for c in menu],
                "chopsticks_tokens": tokens,
            }
            for menu, tokens in zip(table.state.menus, table.state.tokens, strict=True)
        ],
        "squishy_bun": table.state.bun,
    }
    assert GAME.score(msgspec.convert(body, GAME.score_request_type)) == table.result.scores


def _permute_hidden(filled: BasketsFilled, keep: int, rng: random.Random) -> BasketsFilled:
    """Shuffle the cards lying below the first `keep` cards of every pile (keep >= 1: tops stay)."""
    assert filled.piles is not None
    below = [card for pile in filled.piles for card in pile[keep:]]
    rng.shuffle(below)
    piles, at = [], 0
    for pile in filled.piles:
        piles.append((*pile[:keep], *below[at : at + len(pile) - keep]))
        at += len(pile) - keep
    return msgspec.structs.replace(filled, piles=tuple(piles))


def _seen(table: lobby.Table, events: list[Any], viewer: int | None) -> bytes:
    redacted = [lobby.redact(GAME, table, event, viewer) for event in events]
    return msgspec.json.encode([GAME.view(table.state, viewer), redacted])


@given(
    seed=seeds,
    bots=lineups,
    keep=st.integers(min_value=1, max_value=8),
    shuffle=st.integers(min_value=0, max_value=2**32),
)
def test_non_interference_of_the_hidden_pile_orders(seed: int, bots: list[str], keep: int, shuffle: int) -> None:
    """Two games whose piles differ only below the top cards look byte-identical to every seat and to
    spectators, step after step, until a differing card surfaces."""
    table_a, log_a = new_table(seed, bots)
    log_b = [_permute_hidden(e, keep, random.Random(shuffle)) if isinstance(e, BasketsFilled) else e for e in log_a]
    # Piles no deeper than `keep`, or a shuffle that left them as they were, would compare a game with itself.
    assume(log_b != log_a)
    table_b = lobby.replay(GAME, log_b)
    viewers = (*range(len(bots)), None)
    for viewer in viewers:
        assert _seen(table_a, log_a, viewer) == _seen(table_b, log_b, viewer)
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    while table_a.status == "active":
        decision_a = step(table_a, log_a, seed, rng_a)
        decision_b = step(table_b, log_b, seed, rng_b)
        table_a, table_b = decision_a.table, decision_b.table
        if [top(table_a.state, b) for b in range(BASKETS)] != [top(table_b.state, b) for b in range(BASKETS)]:
            # a different card surfaced: the reveal is the only difference in this step's events
            stripped = [
                msgspec.structs.replace(e, revealed=None) if hasattr(e, "revealed") else e
                for e in (*decision_a.events, *decision_b.events)
            ]
            n = len(decision_a.events)
            assert stripped[:n] == stripped[n:]
            return
        for viewer in viewers:
            assert _seen(table_a, list(decision_a.events), viewer) == _seen(table_b, list(decision_b.events), viewer)
