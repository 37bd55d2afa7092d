"""Builders for hand-made Sushi Go! states, and table-driven games."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from msgspec.structs import replace

from kaiten.domain import engine, lobby
from kaiten.domain.chance import Chance
from kaiten.domain.sushi_go.cards import ALL_CARDS, IS_PUDDING, SLUG_TO_KIND, card_ids
from kaiten.domain.sushi_go.commands import Pick
from kaiten.domain.sushi_go.game import SUSHI_GO as GAME
from kaiten.domain.sushi_go.state import SushiGoState, initial_state


class Cards:
    """Hands out distinct card ids by slug, like drawing from a sorted deck."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(self, *slugs: str) -> tuple[int, ...]:
        out = []
        for slug in slugs:
            card = next(card for card in card_ids(SLUG_TO_KIND[slug]) if card not in self.used)
            self.used.add(card)
            out.append(card)
        return tuple(out)


def make_state(
    cards: Cards,
    hands: Sequence[Sequence[int]],
    *,
    tableaus: Sequence[Sequence[int]] | None = None,
    puddings: Sequence[Sequence[int]] | None = None,
    discards: Sequence[int] = (),
    deck: Sequence[int] | None = None,
    round_: int = 1,
    turn: int = 1,
    totals: Sequence[int] | None = None,
) -> SushiGoState:
    """A state whose every card is somewhere: what is not placed stays in the deck (or `deck`)."""
    players = len(hands)
    placed = {card for group in (*hands, *(tableaus or ()), *(puddings or ()), discards) for card in group}
    assert placed <= cards.used | set(discards)
    if deck is None:
        deck = tuple(card for card in ALL_CARDS if card not in placed)
    return replace(
        initial_state(players),
        round=round_,
        turn=turn,
        deck=tuple(deck),
        hands=tuple(tuple(hand) for hand in hands),
        tableaus=tuple(tuple(t) for t in (tableaus or [()] * players)),
        puddings=tuple(tuple(p) for p in (puddings or [()] * players)),
        discards=tuple(discards),
        awaiting=tuple(range(players)),
        totals=tuple(totals or [0] * players),
    )


def play(state: SushiGoState, seat: int, *cards: int, seed: int = 0) -> tuple[SushiGoState, list[Any]]:
    """Decide and fold one pick; returns the new state and its events."""
    events, state = engine.play(GAME, state, seat, Pick(cards=tuple(cards)), Chance(seed, 1))
    return state, list(events)


def play_turn(state: SushiGoState, picks: Sequence[Sequence[int]]) -> tuple[SushiGoState, list[Any]]:
    events: list[Any] = []
    for seat, cards in enumerate(picks):
        state, new = play(state, seat, *cards)
        events.extend(new)
    return state, events


def all_cards(state: SushiGoState) -> list[int]:
    """Every card of the state, wherever it is (a pending pick is still in its hand)."""
    out = list(state.deck) + list(state.discards)
    for group in (*state.hands, *state.tableaus, *state.puddings):
        out.extend(group)
    return out


def assert_conserved(state: SushiGoState) -> None:
    cards = all_cards(state)
    assert sorted(cards) == list(ALL_CARDS)
    for seat, pick in enumerate(state.picks):
        assert set(pick) <= set(state.hands[seat])
    assert not any(IS_PUDDING[card] for card in state.discards)


def new_table(players: int, seed: int, bots: Sequence[str | None] = ()) -> tuple[lobby.Table, list[Any]]:
    """A started table; seats without a bot are human seats."""
    log: list[Any] = lobby.create_game(GAME, players, None, seed, salt=bytes(16))
    table = lobby.replay(GAME, log)
    for seat in range(players):
        bot = bots[seat] if seat < len(bots) else None
        person = None if bot else f"person {seat}"
        decision = lobby.take_seat(GAME, table, Chance(seed, len(log)), person=person, bot=bot)
        log.extend(decision.events)
        table = decision.table
    return table, log


def act(table: lobby.Table, log: list[Any], seat: int, command: Any) -> lobby.Table:
    decision = lobby.act(GAME, table, seat, command, Chance(table.seed, len(log)))
    log.extend(decision.events)
    return decision.table


def random_game(
    players: int, seed: int, *, choose: Any = None
) -> Iterable[tuple[lobby.Table, lobby.Table, int, Any, tuple[Any, ...], list[Any]]]:
    """Play a whole game with uniformly random legal commands, yielding every step:
    (table before, table after, seat, command, events, log so far)."""
    table, log = new_table(players, seed)
    rng = random.Random(seed)
    steps = 0
    while table.status == "active":
        seat = lobby.awaiting(GAME, table)[0]
        commands = GAME.legal_commands(table.state, seat)
        command = choose(table, seat, commands, rng) if choose else rng.choice(commands)
        decision = lobby.act(GAME, table, seat, command, Chance(table.seed, len(log)))
        log.extend(decision.events)
        yield table, decision.table, seat, command, decision.events, log
        table = decision.table
        steps += 1
        assert steps < 500
