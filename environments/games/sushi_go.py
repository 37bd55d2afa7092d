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

from collections.abc import Hashable, Sequence
from typing import Any

from kaiten.domain.sushi_go.cards import CARD_TYPES, DEAL, KIND, ROUNDS
from kaiten.domain.sushi_go.commands import Pick
from kaiten.domain.sushi_go.game import SUSHI_GO
from kaiten.domain.sushi_go.state import SushiGoState
from kaiten.environments.games.sushi_go_observer import KINDS, SEAT_FEATURES, SushiGoObserver
from kaiten.environments.render import card_list, scores_line
from kaiten.environments.spec import ActionTable, Observer

SLUGS = tuple(card.slug for card in CARD_TYPES)


def _name(key: Hashable) -> str:
    assert isinstance(key, tuple)
    return "pick " + "+".join(SLUGS[kind] for kind in key)


_ACTIONS = ActionTable([(kind,) for kind in range(KINDS)] + [(a, b) for a in range(KINDS) for b in range(KINDS)], _name)


class _ActionOf(dict[Pick, int]):
    """A pick's action, which depends on its cards only; picks are interned, so each is looked up once."""

    def __missing__(self, pick: Pick) -> int:
        action = self[pick] = _ACTIONS.index[tuple([KIND[card] for card in pick.cards])]
        return action


_ACTION_OF = _ActionOf()


class SushiGoSpec:
    game = SUSHI_GO
    simultaneous = True
    utility_bound = 400.0

    def actions(self, players: int) -> ActionTable:
        return _ACTIONS

    def actions_of(self, state: Any, seat: int, commands: Sequence[Any]) -> list[int]:
        return list(map(_ACTION_OF.__getitem__, commands))

    def observation_size(self, players: int) -> int:
        return 3 + KINDS + SEAT_FEATURES * players

    def observer(self, players: int) -> Observer:
        return SushiGoObserver(players)

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


def _slug(card: int) -> str:
    return SLUGS[KIND[card]]


SPEC = SushiGoSpec()
