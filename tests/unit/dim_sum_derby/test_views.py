"""Views and redacted events: what each seat and a spectator may see; non-interference; catalog."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby.cards import HIDDEN
from kaiten.domain.dim_sum_derby.commands import Arrange, DrawDerby, PlayDerby, Rotate
from kaiten.domain.dim_sum_derby.events import (
    CartArranged,
    CartRefilled,
    DerbyDealt,
    DerbyDeckReshuffled,
    DerbyDrawn,
    KitchenPeeked,
    YenSwapped,
)
from kaiten.domain.dim_sum_derby.options import DerbyOptions
from kaiten.domain.engine import Game
from tests.unit.dim_sum_derby.helpers import DEFAULT_YEN, GAME, derby, dish, make_state, run

ENCODE = msgspec.json.encode


def test_a_seat_sees_its_yen_cards_and_derby_hand_only() -> None:
    state = make_state(hands=[(derby("lazy-susan"),), (derby("sharp-elbows"), derby("extra-hungry")), ()])
    view = GAME.view(state, 1)
    assert view.seats[1].yen == DEFAULT_YEN[1]
    assert view.seats[0].yen == (None,) * 4 and view.seats[2].yen == (None,) * 4
    assert view.hand == (derby("sharp-elbows"), derby("extra-hungry"))
    assert [s.derby for s in view.seats] == [1, 2, 0]  # how many, not which


def test_a_spectator_sees_no_unflipped_yen_card_and_no_hand() -> None:
    state = make_state(hands=[(derby("lazy-susan"),), (), ()], portions=[(0, 2, 0, 0), (0,) * 4, (0,) * 4])
    view = GAME.view(state, None)
    assert view.hand == () and view.peek == ()
    assert view.seats[0].yen == (None, DEFAULT_YEN[0][1], None, None)  # flipped: it holds portions
    assert view.seats[1].yen == (None,) * 4


def test_everyone_sees_cart_tops_the_table_markers_left_and_scored_portions() -> None:
    state = make_state(
        table=[(dish("congee"), (1, 2))],
        tops=[(dish("har-gow"),), (), (), ()],
        portions=[(1, 0, 0, 0), (0,) * 4, (0,) * 4],
    )
    view = GAME.view(state, None)
    assert view.carts[0].top == dish("har-gow") and view.carts[0].size == 15
    assert [(d.card, d.dish, d.portions, d.markers) for d in view.table] == [(dish("congee"), "congee", 4, (1, 2))]
    assert [s.markers for s in view.seats] == [9, 9, 9]
    assert [s.portions for s in view.seats] == [(1, 0, 0, 0), (0,) * 4, (0,) * 4]
    assert view.turn_seat == 0 and view.actions_left == 3 and view.derby_deck == 16


def test_every_yen_card_is_shown_once_the_game_is_over() -> None:
    state = replace(make_state(), over=True)
    assert [s.yen for s in GAME.view(state, None).seats] == list(DEFAULT_YEN[:3])


def test_views_are_json_encodable() -> None:
    for seat in (0, 1, 2, None):
        assert msgspec.json.decode(ENCODE(GAME.view(make_state(), seat)))["players"] == 3


def test_the_deal_shows_each_seat_its_own_yen_cards_and_every_cart_top() -> None:
    (event,) = GAME.setup(DerbyOptions(), 3, Chance(4, 2))
    assert isinstance(event, DerbyDealt)
    mine = GAME.redact(event, 1)
    assert mine.yen[1] == event.yen[1]
    assert mine.yen[0] == (HIDDEN,) * 4 and mine.yen[2] == (HIDDEN,) * 4
    assert [cart[0] for cart in mine.carts] == [cart[0] for cart in event.carts]
    assert all(set(cart[1:]) == {HIDDEN} for cart in mine.carts)
    assert set(mine.derby_deck) == {HIDDEN} and all(set(deck) == {HIDDEN} for deck in mine.yen_decks)
    spectator = GAME.redact(event, None)
    assert all(set(yen) == {HIDDEN} for yen in spectator.yen)


def test_redacted_private_events() -> None:
    drawn = DerbyDrawn(seat=0, card=5)
    assert GAME.redact(drawn, 0) == drawn and GAME.redact(drawn, 1).card == HIDDEN
    assert GAME.redact(drawn, None).card == HIDDEN
    swapped = YenSwapped(seat=2, cart=1, old=5, new=9)
    assert GAME.redact(swapped, 2) == swapped
    assert GAME.redact(swapped, 0) == YenSwapped(seat=2, cart=1, old=HIDDEN, new=HIDDEN)
    peeked = KitchenPeeked(seat=1, cart=0, cards=(3, 4, 5))
    assert GAME.redact(peeked, 1) == peeked and GAME.redact(peeked, 0).cards == (3, HIDDEN, HIDDEN)
    arranged = CartArranged(seat=1, cart=0, cards=(5, 3, 4))
    assert GAME.redact(arranged, None).cards == (5, HIDDEN, HIDDEN)
    refill = CartRefilled(cart=2, cards=(30, 31), flipped=30)
    assert GAME.redact(refill, 2) == CartRefilled(cart=2, cards=(HIDDEN, HIDDEN), flipped=30)
    reshuffled = DerbyDeckReshuffled(cards=(1, 2))
    assert GAME.redact(reshuffled, 0).cards == (HIDDEN, HIDDEN)


def test_non_interference_of_the_peeked_order_below_the_top() -> None:
    """Two games where seat 0 puts the peeked cards back in different orders (same top card) look
    byte-identical to the other seats and to spectators, until a hidden card is flipped."""
    game: Game = GAME
    top = (dish("har-gow"), dish("siu-mai"), dish("lo-mai-gai"))
    card = derby("peek-in-the-kitchen")
    state = make_state(tops=[top, (), (), ()], hands=[(card,), (), ()])
    peek_events, peeking = run(state, 0, PlayDerby(card=card))
    branches = []
    for order in ((top[0], top[1], top[2]), (top[0], top[2], top[1])):
        events, after = run(peeking, 0, Arrange(cards=order))
        more, after = run(after, 0, Rotate())
        branches.append((peek_events + events + more, after))
    (log_a, a), (log_b, b) = branches
    for viewer in (1, 2, None):
        assert ENCODE(game.view(a, viewer)) == ENCODE(game.view(b, viewer))
        assert [ENCODE(game.redact(e, viewer)) for e in log_a] == [ENCODE(game.redact(e, viewer)) for e in log_b]
    assert ENCODE(game.view(a, 0)) == ENCODE(game.view(b, 0))  # nothing differs in view once arranged
    assert [ENCODE(game.redact(e, 0)) for e in log_a] != [ENCODE(game.redact(e, 0)) for e in log_b]


def test_non_interference_of_a_drawn_derby_card() -> None:
    """Which Derby card seat 0 draws is invisible to the others."""
    base = make_state(derby_deck=(derby("lazy-susan"), derby("sharp-elbows")))
    other = replace(base, derby_deck=(derby("sharp-elbows"), derby("lazy-susan")))
    (events_a, a), (events_b, b) = run(base, 0, DrawDerby()), run(other, 0, DrawDerby())
    assert a.hands[0] != b.hands[0]
    for viewer in (1, 2, None):
        assert ENCODE(GAME.view(a, viewer)) == ENCODE(GAME.view(b, viewer))
        assert [ENCODE(GAME.redact(e, viewer)) for e in events_a] == [ENCODE(GAME.redact(e, viewer)) for e in events_b]


def test_catalog_lists_dishes_with_portions_per_cart_yen_decks_and_derby_cards_as_house_content() -> None:
    catalog = msgspec.to_builtins(GAME.catalog())
    assert catalog["house_content"] is True and "house content" in catalog["note"].lower()
    assert len(catalog["cards"]) == 20
    for card in catalog["cards"]:
        assert {"slug", "name", "count", "scoring", "portions", "cart"} <= card.keys() and card["count"] == 3
    assert [c["slug"] for c in catalog["carts"]] == ["steam-cart", "side-dish", "main-dish", "dessert"]
    steam = {d["slug"]: d["portions"] for d in catalog["carts"][0]["dishes"]}
    assert steam == {"har-gow": 3, "siu-mai": 3, "char-siu-bao": 4, "chicken-feet": 2, "lo-mai-gai": 3}
    assert [len(deck["cards"]) for deck in catalog["yen_decks"]] == [5, 5, 5, 5]
    assert [d["slug"] for d in catalog["derby_cards"]] == [
        "lazy-susan",
        "double-helping",
        "send-it-back",
        "switch-plates",
        "peek-in-the-kitchen",
        "extra-hungry",
        "change-of-heart",
        "sharp-elbows",
    ]
    assert sum(d["count"] for d in catalog["derby_cards"]) == 16
    msgspec.json.encode(catalog)


def test_game_metadata() -> None:
    assert (GAME.id, GAME.name, GAME.min_players, GAME.max_players) == ("dim-sum-derby", "Dim Sum Derby", 3, 4)
    assert set(GAME.bots) >= {"random", "greedy"}
    names = {t.__name__ for t in GAME.event_types}
    assert not names & {"GameCreated", "SeatTaken", "GameStarted", "GameFinished"}
    decoded = msgspec.json.decode(b'{"type": "play-derby", "card": 3, "dish": 7}', type=GAME.command_type)
    assert decoded == PlayDerby(card=3, dish=7)
    assert ENCODE(PlayDerby(card=3)) == b'{"type":"play-derby","card":3}'
