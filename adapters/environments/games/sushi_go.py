"""Sushi Go! (`sushi-go`, 2-5 players) for the environments.

**Actions** (12 + 144 = 156 for every player count), over the 12 card kinds in catalog order
(tempura, sashimi, dumpling, maki-1, maki-2, maki-3, salmon-nigiri, squid-nigiri, egg-nigiri, pudding,
wasabi, chopsticks):

- `k` (0..11): pick one card of kind `k`;
- `12 + 12 * a + b`: with chopsticks, pick a card of kind `a` then one of kind `b` (played in that
  order, which matters for wasabi).

Two copies of a kind are the same action: the rules never tell them apart.

**Observation** (`3 + 12 + 15 * players` numbers, seats in turn from the observer: itself, then the
seat it passes to, and so on):

- round (1-3), turn within the round, cards in each hand;
- the observer's hand: cards per kind (12);
- per seat: this round's tableau, cards per kind (12); uncovered wasabi; puddings kept; total score.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from adapters.environments.features import SeatBlocks, Vector
from adapters.environments.render import card_list, scores_line
from adapters.environments.spec import ActionTable
from domain.sushi_go.cards import CARD_TYPES, DEAL, KIND, NIGIRI_POINTS, ROUNDS, WASABI
from domain.sushi_go.commands import Pick
from domain.sushi_go.game import SUSHI_GO
from domain.sushi_go.state import SushiGoState
from domain.sushi_go.view import SushiGoView

KINDS = len(CARD_TYPES)
#: Per seat: its tableau per kind, uncovered wasabi, puddings kept, total score.
SEAT_FEATURES = KINDS + 3
SLUGS = tuple(card.slug for card in CARD_TYPES)


def _name(key: Hashable) -> str:
    assert isinstance(key, tuple)
    return "pick " + "+".join(SLUGS[kind] for kind in key)


_ACTIONS = ActionTable([(kind,) for kind in range(KINDS)] + [(a, b) for a in range(KINDS) for b in range(KINDS)], _name)


def uncovered_wasabi(tableau: tuple[int, ...]) -> int:
    uncovered = 0
    for card in tableau:
        kind = KIND[card]
        if kind == WASABI:
            uncovered += 1
        elif NIGIRI_POINTS[kind] and uncovered:
            uncovered -= 1
    return uncovered


#: A pick's action depends on its cards only, and picks are interned: look each up once.
_ACTION_OF: dict[Pick, int] = {}


class SushiGoSpec:
    game = SUSHI_GO
    simultaneous = True
    utility_bound = 400.0

    def actions(self, players: int) -> ActionTable:
        return _ACTIONS

    def action(self, state: Any, seat: int, command: Any) -> int:
        action = _ACTION_OF.get(command)
        if action is None:
            assert type(command) is Pick
            action = _ACTION_OF[command] = _ACTIONS.index[tuple([KIND[card] for card in command.cards])]
        return action

    def observation_size(self, players: int) -> int:
        return 3 + KINDS + SEAT_FEATURES * players

    def observe(self, view: Any, seat: int, players: int) -> Vector:
        assert isinstance(view, SushiGoView)
        head = [0.0] * (3 + KINDS)
        head[0] = view.round
        head[1] = view.turn
        head[2] = view.hand_size
        for card in view.hand:
            head[3 + KIND[card]] += 1.0
        return _SEATS.after(np.array(head, dtype=np.float32), view, seat, players)

    def simultaneous_now(self, state: Any) -> bool:
        return True

    def max_moves(self, players: int) -> int:
        # Every turn of every round, plus a chance step per deal.
        return ROUNDS * (DEAL[players] + 1)

    def render(self, state: Any) -> str:
        assert isinstance(state, SushiGoState)
        lines = [f"Sushi Go! round {state.round}, turn {state.turn}; awaiting {list(state.awaiting)}"]
        for seat in range(state.players):
            hand = state.hands[seat] if state.hands else ()
            lines.append(
                f"seat {seat}: hand [{card_list(hand, _slug)}] tableau [{card_list(state.tableaus[seat], _slug)}]"
                f" puddings {len(state.puddings[seat])} total {state.totals[seat]}"
            )
        lines.append(scores_line(SUSHI_GO.result(state)))
        return "\n".join(line for line in lines if line)


def _seat_block(view: SushiGoView, seat: int) -> list[float]:
    block = [0.0] * SEAT_FEATURES
    if not view.tableaus:
        return block
    tableau = view.tableaus[seat]
    for card in tableau:
        block[KIND[card]] += 1.0
    block[KINDS] = uncovered_wasabi(tableau)
    block[KINDS + 1] = len(view.puddings[seat])
    block[KINDS + 2] = view.totals[seat]
    return block


#: Seat blocks change only at a reveal: encoded once for every observer (see `SeatBlocks`).
_SEATS = SeatBlocks(SEAT_FEATURES, ("tableaus", "puddings", "totals"), _seat_block)


def _slug(card: int) -> str:
    return SLUGS[KIND[card]]


SPEC = SushiGoSpec()
