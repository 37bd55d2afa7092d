"""Builders for hand-made Spin Some states and table-driven games."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from domain import table as lobby
from domain.chance import Chance
from domain.spin_some.cards import CARD_KIND, FIRST_ID, KIND_BY_SLUG, SLUGS
from domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM as GAME
from domain.spin_some.state import BASKETS, STARTING_TOKENS, SpinState


class Ids:
    """Hands out distinct card ids of the asked kinds (one physical card each)."""

    def __init__(self) -> None:
        self.used: dict[int, int] = {}

    def __call__(self, slug: str) -> int:
        kind = KIND_BY_SLUG[slug]
        n = self.used.get(kind, 0)
        self.used[kind] = n + 1
        card = FIRST_ID[kind] + n
        assert CARD_KIND[card] == kind, f"not enough {slug} cards"
        return card

    def many(self, slugs: Iterable[str]) -> tuple[int, ...]:
        return tuple(self(slug) for slug in slugs)


def slugs(cards: Iterable[int]) -> list[str]:
    return [SLUGS[CARD_KIND[card]] for card in cards]


def make_state(
    piles: Sequence[Sequence[str]],
    *,
    players: int = 2,
    current: int = 0,
    rotation: int = 0,
    tokens: Sequence[int] | None = None,
    basket_tokens: Sequence[int] | None = None,
    menus: Sequence[Sequence[str]] | None = None,
    bun: int | None = None,
) -> SpinState:
    """A state with the given piles (top first, as slugs; missing baskets are empty) and menus."""
    ids = Ids()
    all_piles = [ids.many(pile) for pile in piles] + [()] * (BASKETS - len(piles))
    all_menus = [ids.many(menu) for menu in (menus or [[] for _ in range(players)])]
    taken = sum(len(menu) for menu in all_menus)
    return SpinState(
        players=players,
        current=current,
        rotation=rotation,
        piles=tuple(all_piles),
        depth=(0,) * BASKETS,
        basket_tokens=tuple(basket_tokens or (0,) * BASKETS),
        tokens=tuple(tokens if tokens is not None else (STARTING_TOKENS,) * players),
        menus=tuple(all_menus),
        bun=bun,
        taken=taken,
        left=sum(len(pile) for pile in all_piles),
    )


def new_table(seed: int, bots: Sequence[str], options: dict[str, Any] | None = None) -> tuple[lobby.Table, list[Any]]:
    """Create a table, seat the bots, and return it with its log so far."""
    events: list[Any] = lobby.create_game(GAME, len(bots), options, seed)
    table = lobby.replay(GAME, events)
    for bot in bots:
        decision = lobby.take_seat(GAME, table, Chance(seed, len(events) + 1), bot=bot)
        events.extend(decision.events)
        table = decision.table
    return table, events


def step(table: lobby.Table, events: list[Any], seed: int, rng: random.Random) -> lobby.Decision:
    """Let the awaited bot act once; append the events to the log."""
    seat = lobby.next_bot_seat(GAME, table)
    assert seat is not None
    command = lobby.bot_command(GAME, table, seat, Chance.from_rng(rng))
    decision = lobby.act(GAME, table, seat, command, Chance(seed, len(events) + 1))
    events.extend(decision.events)
    return decision


def play(seed: int, bots: Sequence[str], options: dict[str, Any] | None = None) -> tuple[lobby.Table, list[Any]]:
    table, events = new_table(seed, bots, options)
    rng = random.Random(seed)
    while table.status == "active":
        table = step(table, events, seed, rng).table
    return table, events
