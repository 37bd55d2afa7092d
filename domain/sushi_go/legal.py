"""`legal_commands`: every command a seat may send now."""

from __future__ import annotations

from operator import itemgetter

from kaiten.domain.sushi_go.cards import CHOPSTICKS_IDS
from kaiten.domain.sushi_go.commands import SINGLE_PICKS, Pick, pair_picks
from kaiten.domain.sushi_go.state import Cards, SushiGoState


def has_chopsticks(tableau: Cards) -> bool:
    return not CHOPSTICKS_IDS.isdisjoint(tableau)


def legal_commands(state: SushiGoState, seat: int) -> list[Pick]:
    """One pick per card of the hand; with chopsticks, also every ordered pair of different cards."""
    if seat not in state.awaiting:
        return []
    hand = state.hands[seat]
    # An itemgetter of the hand picks every single at C speed (it answers a bare item for one card).
    commands = list(itemgetter(*hand)(SINGLE_PICKS)) if len(hand) > 1 else [SINGLE_PICKS[card] for card in hand]
    if len(hand) >= 2 and not CHOPSTICKS_IDS.isdisjoint(state.tableaus[seat]):
        for first in hand:
            row = pair_picks(first)
            commands.extend([row[second] for second in hand if second != first])
    return commands
