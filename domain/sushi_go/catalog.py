"""What the catalog shows of Sushi Go!: its cards and the rules at a glance (`Details`)."""

from __future__ import annotations

import msgspec

from kaiten.domain.sushi_go.cards import CARD_TYPES, DEAL, ROUNDS, card_ids


class CardKind(msgspec.Struct, frozen=True):
    slug: str
    name: str
    #: Copies in the deck.
    count: int
    scoring: str
    #: The ids of its copies.
    ids: list[int]


class Details(msgspec.Struct, frozen=True, rename={"pass_to": "pass"}):
    cards: list[CardKind]
    rounds: int
    #: Cards dealt to each hand, by player count.
    deal: dict[str, int]
    #: Where hands pass after each reveal.
    pass_to: str
    last_card: str
    picks: str


def details(max_players: int) -> Details:
    return Details(
        cards=[
            CardKind(
                slug=card.slug, name=card.name, count=card.count, scoring=card.scoring, ids=list(card_ids(card.kind))
            )
            for card in CARD_TYPES
        ],
        rounds=ROUNDS,
        deal={str(players): size for players, size in DEAL.items() if players <= max_players},
        pass_to="left",
        last_card="placed automatically",
        picks="final once sent; revealed together when every seat has picked",
    )
