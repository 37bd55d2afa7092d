"""`picks`: every card a seat plays, however it was played, for the pick-rate statistics."""

from __future__ import annotations

from kaiten.domain.sushi_go_party.cards import SLUG_IDS
from kaiten.domain.sushi_go_party.events import (
    CardChosen,
    CardsRevealed,
    ChopsticksUsed,
    MenuOrdered,
    SpoonGiven,
    SpoonUsed,
)
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY
from tests.unit.bot_games import bot_game, catalog_slugs


def card(slug: str) -> int:
    return SLUG_IDS[slug][0]


def test_revealed_cards_are_each_seats_pick():
    reveal = CardsRevealed(round=1, turn=1, cards=(card("tempura"), card("miso-soup")), calls=(None, None))
    assert SUSHI_GO_PARTY.picks(reveal) == ((0, "tempura"), (1, "miso-soup"))


def test_chopsticks_menus_and_spoons_play_one_more_card():
    assert SUSHI_GO_PARTY.picks(ChopsticksUsed(seat=1, chopsticks=card("chopsticks"), card=card("edamame"))) == (
        (1, "edamame"),
    )
    assert SUSHI_GO_PARTY.picks(MenuOrdered(seat=2, menu=card("menu"), card=card("eel"))) == ((2, "eel"),)
    # The spoon's owner plays the card it asked for; the giver picked nothing.
    given = SpoonGiven(seat=0, owner=3, spoon=card("spoon"), card=card("tofu"))
    assert SUSHI_GO_PARTY.picks(given) == ((3, "tofu"),)


def test_hidden_choices_and_requests_are_not_picks():
    assert SUSHI_GO_PARTY.picks(CardChosen(seat=0, card=card("tempura"), call=None)) == ()
    assert SUSHI_GO_PARTY.picks(SpoonUsed(seat=0, spoon=card("spoon"), request="tofu")) == ()


def test_a_game_picks_one_card_per_seat_and_reveal_and_one_per_extra_card_played():
    _, log = bot_game(SUSHI_GO_PARTY, 5, seed=4)
    picks = [pick for event in log for pick in SUSHI_GO_PARTY.picks(event)]
    reveals = sum(isinstance(event, CardsRevealed) for event in log)
    extra = sum(isinstance(event, ChopsticksUsed | MenuOrdered | SpoonGiven) for event in log)
    assert len(picks) == 5 * reveals + extra
    assert {slug for _, slug in picks} <= catalog_slugs(SUSHI_GO_PARTY)
