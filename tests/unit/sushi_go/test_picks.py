"""`picks`: the cards each reveal puts into the tableaus, for the pick-rate statistics."""

from __future__ import annotations

from kaiten.domain.sushi_go.events import CardPicked, CardsRevealed, HandsDealt
from kaiten.domain.sushi_go.game import SUSHI_GO
from tests.unit.bot_games import bot_game, catalog_slugs
from tests.unit.sushi_go.helpers import Cards


def test_a_reveal_picks_every_seats_cards_in_order():
    cards = Cards()
    tempura, wasabi, squid, chopsticks = cards("tempura", "wasabi", "squid-nigiri", "chopsticks")
    reveal = CardsRevealed(round=1, turn=3, picks=((tempura,), (wasabi, squid)), chopsticks=(None, chopsticks))
    assert SUSHI_GO.picks(reveal) == ((0, "tempura"), (1, "wasabi"), (1, "squid-nigiri"))


def test_hidden_picks_and_deals_are_not_picks():
    assert SUSHI_GO.picks(CardPicked(seat=0, cards=(3,))) == ()
    assert SUSHI_GO.picks(HandsDealt(round=1, hand_size=1, hands=((1,), (2,)))) == ()


def test_a_game_picks_every_dealt_card_once_and_each_chopsticks_again_once_used():
    _, log = bot_game(SUSHI_GO, 4, seed=3)
    picks = [pick for event in log for pick in SUSHI_GO.picks(event)]
    dealt = sum(len(hand or ()) for event in log if isinstance(event, HandsDealt) for hand in event.hands)
    reused = sum(c is not None for event in log if isinstance(event, CardsRevealed) for c in event.chopsticks)
    assert len(picks) == dealt + reused
    assert {slug for _, slug in picks} <= catalog_slugs(SUSHI_GO)
    assert {seat for seat, _ in picks} == set(range(4))
