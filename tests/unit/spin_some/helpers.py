"""Builders for hand-made Spin Some states and table-driven games."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial

from kaiten.domain.spin_some.cards import CARD_KIND, FIRST_ID, KIND_BY_SLUG, SLUGS
from kaiten.domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM as GAME
from kaiten.domain.spin_some.state import BASKETS, STARTING_TOKENS, SpinState
from tests.unit import bot_games


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


new_table = partial(bot_games.new_table, GAME)
step = partial(bot_games.step, GAME)
play = partial(bot_games.play, GAME)
