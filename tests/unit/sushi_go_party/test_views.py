"""Views, redaction and the catalog."""

from __future__ import annotations

from typing import Any

import msgspec

from kaiten.domain.sushi_go_party.cards import CARD_COUNT, SLUG, TYPES
from kaiten.domain.sushi_go_party.commands import Pick
from kaiten.domain.sushi_go_party.events import CardChosen, CardsDrawn, MenuDrawn, RoundDealt
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY as GAME
from kaiten.domain.sushi_go_party.options import SUGGESTED

from .helpers import new_table, setup_game


def test_a_seat_sees_its_hand_and_pick_a_spectator_nothing_hidden() -> None:
    game, ids = setup_game("sushi-go", 3, [["tempura", "sashimi"], ["dumpling", "maki-1"], ["maki-2", "maki-3"]])
    game.act(0, Pick(card=ids["tempura"][0]))
    own = GAME.view(game.state, 0)
    assert own.hand == game.state.hands[0] and own.pick == ids["tempura"][0]
    other = GAME.view(game.state, 1)
    assert other.hand == game.state.hands[1] and other.pick is None
    spectator = GAME.view(game.state, None)
    assert spectator.hand is None and spectator.pick is None and spectator.call is None
    assert spectator.awaiting == (1, 2) and spectator.hand_size == 2
    assert spectator.deck_size == len(game.state.deck) and spectator.dessert_pile_size == 15
    assert spectator.menu is not None and spectator.menu.id == "sushi-go"
    encoded = msgspec.json.encode(spectator)
    assert b'"uramaki_icons"' in encoded and b'"fridges"' in encoded
    # A spectator's view is what it always was: a seat's memory is left out.
    for memory in (b"known_hands", b"pass_both_ways", b"two_player_variant", b"misos", b"special_orders"):
        assert memory not in encoded
    assert own.known_hands == (game.state.hands[0], None, None) and own.discard == ()


def test_redacted_events_hide_hands_picks_draws_and_desserts() -> None:
    hands = ((1, 2), (3, 4))
    dealt = RoundDealt(round=1, hand_size=2, hands=hands, dessert_count=1, desserts=(170,))
    assert GAME.redact(dealt, 0) == RoundDealt(
        round=1, hand_size=2, hands=((1, 2), None), dessert_count=1, desserts=None
    )
    assert GAME.redact(dealt, None) == RoundDealt(
        round=1, hand_size=2, hands=(None, None), dessert_count=1, desserts=None
    )
    chosen = CardChosen(seat=1, card=3, call=7)
    assert GAME.redact(chosen, 1) == chosen
    assert GAME.redact(chosen, 0) == CardChosen(seat=1, card=None, call=None)
    assert GAME.redact(chosen, None) == CardChosen(seat=1, card=None, call=None)
    drawn = CardsDrawn(turn=2, cards=(5, 6))
    assert GAME.redact(drawn, 1) == CardsDrawn(turn=2, cards=(None, 6))
    menu = MenuDrawn(seat=0, menu=80, count=4, cards=(1, 2, 3, 4))
    assert GAME.redact(menu, 0) == menu
    assert GAME.redact(menu, 1) == MenuDrawn(seat=0, menu=80, count=4, cards=None)


def test_first_deal_is_redacted_through_the_table() -> None:
    from kaiten.domain import lobby

    table, events = new_table(4, ["random"] * 4)
    dealt = next(event for event in events if isinstance(event, RoundDealt))
    for viewer in (0, 1, 2, 3, None):
        seen: Any = lobby.redact(GAME, table, dealt, viewer)
        assert [hand is not None for hand in seen.hands] == [seat == viewer for seat in range(4)]
        assert seen.desserts is None


def test_catalog_lists_every_card_menu_and_restriction() -> None:
    catalog = msgspec.to_builtins(GAME.catalog())
    msgspec.json.encode(catalog)
    cards = {card["slug"]: card for card in catalog["cards"]}
    assert len({card["type"] for card in catalog["cards"]}) == len(TYPES) == 23
    assert sum(card["count"] for card in catalog["cards"]) == CARD_COUNT
    for card in catalog["cards"]:
        assert card["scoring"] and card["colour"] and card["name"]
        assert all(SLUG[card_id] == card["slug"] for card_id in card["ids"])
    assert cards["chopsticks"]["order"] == [1, 2, 3]
    assert cards["spoon"]["order"] == [4, 5, 6]
    assert cards["menu"]["order"] == [7, 8, 9]
    assert cards["takeout-box"]["order"] == [10, 11, 12]
    assert cards["wasabi"]["colour"] == cards["egg-nigiri"]["colour"]
    assert cards["uramaki-5"]["count"] == 4 and cards["fruit-wp"]["count"] == 3
    assert [menu["id"] for menu in catalog["menus"]] == [menu.id for menu in SUGGESTED]
    assert catalog["menus"][3]["players"] == {"min": 3, "max": 8}
    assert catalog["restrictions"]["spoon"] == [3, 4, 5, 6, 7, 8]
    assert catalog["deal"]["8"] == 7 and catalog["desserts_per_round"]["6"] == [7, 5, 3]
