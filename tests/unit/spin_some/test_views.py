"""Views and redaction: everything is public but the cards below the top of each basket."""

from __future__ import annotations

import msgspec

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.spin_some.commands import Rotate, Take
from kaiten.domain.spin_some.events import BasketsFilled, DimSumTaken
from kaiten.domain.spin_some.game import SPIN_SOME_FOR_DIM_SUM as GAME
from kaiten.domain.spin_some.view import SpinView
from tests.unit.spin_some.helpers import make_state, new_table

PILES = [["egg-tart", "chive-dumpling", "turnip-cake"], ["shumai-dumpling"], [], ["steamed-bun"]]


def test_view_shows_tops_tokens_menus_and_the_bun_holder() -> None:
    state = make_state(PILES, players=3, rotation=1, tokens=(1, 2, 3), basket_tokens=(0, 2, 0, 1, 0, 0), bun=2)
    view = GAME.view(state, 1)
    assert isinstance(view, SpinView)
    assert view.seat == 1 and view.current == 0 and view.squishy_bun == 2
    tops = [(b.top_slug, b.cards, b.tokens, b.facing) for b in view.baskets]
    assert tops == [
        ("egg-tart", 3, 0, None),
        ("shumai-dumpling", 1, 2, 0),
        (None, 0, 0, 1),
        ("steamed-bun", 1, 1, 2),
        (None, 0, 0, None),
        (None, 0, 0, None),
    ]
    assert [(p.seat, p.basket, p.tokens, p.squishy_bun) for p in view.players] == [
        (0, 1, 1, False),
        (1, 2, 2, False),
        (2, 3, 3, True),
    ]


def test_no_view_shows_a_card_below_the_top() -> None:
    state = make_state(PILES)
    hidden = {state.piles[0][1], state.piles[0][2]}
    for seat in (0, 1, None):
        encoded = msgspec.json.encode(GAME.view(state, seat))
        seen = msgspec.json.decode(encoded)
        visible = {b["top"] for b in seen["baskets"]} | {c for p in seen["players"] for c in p["menu"]}
        assert not visible & hidden
    _, after = _play(state, Take())
    assert GAME.view(after, None).baskets[0].top == state.piles[0][1]


def _play(state: object, command: object) -> tuple[list[object], object]:
    events = list(GAME.decide(state, 0, command, Chance(0)))
    for event in events:
        state = GAME.evolve(state, event)
    return events, state


def test_spectator_and_seats_see_the_same_state() -> None:
    state = make_state(PILES, bun=1)
    views = [msgspec.structs.replace(GAME.view(state, seat), seat=None) for seat in (0, 1)]
    assert views == [GAME.view(state, None)] * 2


def test_the_setup_event_is_stripped_of_pile_orders_for_everyone() -> None:
    table, events = new_table(1, ["random", "random"])
    (filled,) = [e for e in events if isinstance(e, BasketsFilled)]
    assert filled.piles is not None
    for seat in (0, 1, None):
        redacted = lobby.redact(GAME, table, filled, seat)
        assert isinstance(redacted, BasketsFilled)
        assert redacted.piles is None
        assert redacted.tops == filled.tops and redacted.sizes == filled.sizes


def test_taking_reveals_only_the_card_that_surfaces() -> None:
    state = make_state(PILES, tokens=(4, 4))
    events, _ = _play(state, Rotate(steps=-3))
    taken = events[1]
    assert isinstance(taken, DimSumTaken) and taken.revealed is None
    events, _ = _play(state, Take())
    taken = events[-1]
    assert isinstance(taken, DimSumTaken) and taken.revealed == state.piles[0][1]
    for seat in (0, 1, None):
        assert GAME.redact(taken, seat) == taken
        assert state.piles[0][2] not in msgspec.json.decode(msgspec.json.encode(taken)).values()


def test_everything_is_published_once_finished() -> None:
    from tests.unit.spin_some.helpers import play

    table, events = play(2, ["random", "random"])
    assert table.status == "finished"
    (filled,) = [e for e in events if isinstance(e, BasketsFilled)]
    assert lobby.redact(GAME, table, filled, None) == filled
