"""Turns and bonus actions, card by card, on hand-made states, under each rules version.

Version 2 works out through `decide` what version 1's `evolve` worked out, so every test here runs
under both (the `rules` fixture), and the two rules that changed say what each version does.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kaiten.domain.chance import Chance
from kaiten.domain.engine import RuleViolation, seat_score
from kaiten.domain.sushi_go_party.cards import NUMBER, SLUG
from kaiten.domain.sushi_go_party.commands import Chopsticks, Copy, Flip, Give, MenuPick, Pick, Spoon
from kaiten.domain.sushi_go_party.decide import PartyRules, decide
from kaiten.domain.sushi_go_party.events import (
    CardsRevealed,
    MenuDrawn,
    MisoClashed,
    RoundDealt,
    RoundScored,
    SpecialOrderCopied,
    SpoonGiven,
    SpoonUsed,
)
from kaiten.domain.sushi_go_party.evolve import final_result
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY as GAME
from kaiten.domain.sushi_go_party.legal import legal_commands
from kaiten.domain.sushi_go_party.rules_v1 import RULES_V1
from kaiten.domain.sushi_go_party.rules_v2 import RULES_V2

from . import helpers
from .helpers import Game, check_conservation, menu, setup_game


@pytest.fixture(autouse=True, params=[RULES_V1, RULES_V2], ids=["rules-1", "rules-2"])
def rules(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> PartyRules:
    chosen: PartyRules = request.param
    monkeypatch.setattr(helpers, "DEFAULT_RULES", chosen)
    return chosen


def violation(game: Game, seat: int, command: object) -> str:
    with pytest.raises(RuleViolation) as error:
        decide(game.state, seat, command, Chance(0, 99), game.rules)
    return error.value.code


def round_scores(events: list[object]) -> list[dict[str, int]]:
    scored = [event for event in events if isinstance(event, RoundScored)]
    assert scored, "the round was not scored"
    return [dict(score.breakdown) for score in scored[0].scores]


# --- picks ----------------------------------------------------------------------------------------


def test_picks_are_hidden_until_everyone_picked_then_revealed() -> None:
    game, ids = setup_game("sushi-go", 2, [["tempura", "sashimi"], ["dumpling", "maki-1"]])
    events = game.act(0, Pick(card=ids["tempura"][0]))
    assert len(events) == 1 and game.state.awaiting == (1,)
    assert GAME.view(game.state, 0).pick == ids["tempura"][0]
    assert GAME.view(game.state, 1).pick is None
    assert game.slugs(0) == []
    events = game.act(1, Pick(card=ids["dumpling"][0]))
    assert isinstance(events[1], CardsRevealed)
    assert game.slugs(0) == ["tempura"] and game.slugs(1) == ["dumpling"]
    # Hands pass left: seat 1 now holds seat 0's hand.
    assert game.hand_slugs(1) == ["sashimi"] and game.hand_slugs(0) == ["maki-1"]


def test_pick_violations() -> None:
    game, ids = setup_game("sushi-go", 2, [["tempura", "sashimi"], ["dumpling", "maki-1"]], [["tempura"]])
    assert violation(game, 0, Pick(card=999)) == "unknown-card"
    assert violation(game, 0, Pick(card=ids["dumpling"][0])) == "card-not-in-hand"
    assert violation(game, 0, Pick(card=ids["tempura"][0], call=ids["tempura"][1])) == "not-callable"
    assert violation(game, 0, Pick(card=ids["tempura"][0], call=ids["dumpling"][0])) == "card-not-in-tableau"
    assert violation(game, 0, Copy(card=ids["tempura"][0])) == "unexpected-command"
    game.act(0, Pick(card=ids["tempura"][0]))
    assert violation(game, 0, Pick(card=ids["sashimi"][0])) == "already-picked"
    over = msgspec.structs.replace(game.state, phase="over", awaiting=())
    with pytest.raises(RuleViolation) as error:
        decide(over, 1, Pick(card=ids["dumpling"][0]), Chance(0, 1), game.rules)
    assert error.value.code == "game-finished"


def test_wasabi_triples_the_next_nigiri() -> None:
    game, ids = setup_game("sushi-go", 2, [["squid-nigiri"], ["egg-nigiri"]], [["wasabi"], []])
    events = game.turn(ids["squid-nigiri"][0], ids["egg-nigiri"][0])
    assert game.state.round == 2
    assert [score["nigiri"] for score in round_scores(events)] == [9, 1]


# --- chopsticks -----------------------------------------------------------------------------------


def test_chopsticks_second_card_after_the_reveal_and_into_the_passed_hand() -> None:
    game, ids = setup_game(
        "sushi-go", 2, [["tempura", "sashimi", "dumpling"], ["maki-1", "maki-2", "maki-3"]], [["chopsticks"], []]
    )
    chopsticks = ids["chopsticks"][0]
    assert Pick(card=ids["tempura"][0], call=chopsticks) in legal_commands(game.state, 0)
    game.turn((ids["tempura"][0], chopsticks), ids["maki-1"][0])
    # Everyone's card is revealed before the second card is chosen.
    assert game.slugs(0) == ["chopsticks", "tempura"] and game.slugs(1) == ["maki-1"]
    prompt = GAME.view(game.state, 0).prompt
    assert (
        prompt is not None and prompt.kind == "chopsticks" and prompt.options == (ids["sashimi"][0], ids["dumpling"][0])
    )
    other = GAME.view(game.state, 1).prompt
    assert other is not None and other.options is None
    assert violation(game, 0, Chopsticks(card=ids["maki-2"][0])) == "card-not-in-hand"
    assert violation(game, 0, Flip(cards=())) == "unexpected-command"
    assert violation(game, 1, Chopsticks(card=ids["maki-2"][0])) == "not-your-turn"
    game.answer(Chopsticks(card=ids["sashimi"][0]))
    assert game.slugs(0) == ["tempura", "sashimi"]
    assert sorted(game.state.hands[1]) == sorted((ids["dumpling"][0], chopsticks))
    assert game.state.phase == "pick"
    check_conservation(game.state)


def test_chopsticks_need_a_card_left_in_the_hand() -> None:
    game, ids = setup_game("sushi-go", 2, [["tempura"], ["maki-1"]], [["chopsticks"], []])
    assert violation(game, 0, Pick(card=ids["tempura"][0], call=ids["chopsticks"][0])) == "chopsticks-need-a-card"
    assert legal_commands(game.state, 0) == [Pick(card=ids["tempura"][0])]


def test_chopsticks_may_be_called_with_exactly_two_cards_in_hand() -> None:
    game, ids = setup_game("sushi-go", 2, [["tempura", "sashimi"], ["maki-1", "maki-2"]], [["chopsticks"], []])
    tempura, sashimi, chopsticks = ids["tempura"][0], ids["sashimi"][0], ids["chopsticks"][0]
    assert legal_commands(game.state, 0) == [
        Pick(card=tempura),
        Pick(card=sashimi),
        Pick(card=tempura, call=chopsticks),
        Pick(card=sashimi, call=chopsticks),
    ]


def test_a_spoon_may_be_called_with_the_last_card_in_hand() -> None:
    game, ids = spoon_game([["tempura"], ["maki-3"], ["eel"]])
    tempura = ids["tempura"][0]
    assert legal_commands(game.state, 0) == [Pick(card=tempura), Pick(card=tempura, call=ids["spoon"][0])]


def test_chopsticks_with_one_card_left_play_it_automatically() -> None:
    game, ids = setup_game("sushi-go", 2, [["tempura", "sashimi"], ["maki-1", "maki-2"]], [["chopsticks"], []])
    game.turn((ids["tempura"][0], ids["chopsticks"][0]), ids["maki-1"][0])
    assert game.slugs(0) == ["tempura", "sashimi"]
    assert game.state.hands[1] == (ids["chopsticks"][0],)


# --- spoon ----------------------------------------------------------------------------------------


def spoon_game(hands: list[list[str]], tableau: list[str] | None = None) -> tuple[Game, dict[str, list[int]]]:
    return setup_game("big-banquet", 3, hands, [tableau or ["spoon"], [], []])


def test_spoon_specific_request_goes_left_and_the_spoon_changes_hands() -> None:
    game, ids = spoon_game([["tempura", "eel"], ["maki-3", "maki-2"], ["maki-3", "eel"]])
    spoon = ids["spoon"][0]
    game.turn((ids["tempura"][0], spoon), ids["maki-2"][0], ids["eel"][1])
    prompt = game.state.prompt
    assert prompt is not None and prompt.kind == "spoon" and prompt.seat == 0
    assert Spoon(request="maki-3") in legal_commands(game.state, 0)
    assert Spoon(request="maki") in legal_commands(game.state, 0)
    events = game.answer(Spoon(request="maki-3"))
    assert isinstance(events[0], SpoonUsed) and isinstance(events[1], SpoonGiven)
    assert events[1].seat == 1  # seat 1 is the first to the left, though seat 2 holds one too
    assert game.slugs(0) == ["tempura", "maki-3"]
    # Seat 1 gave its maki-3 and took the spoon; then the hands passed left.
    assert sorted(game.hand_slugs(2)) == ["spoon"]
    assert sorted(game.hand_slugs(0)) == ["maki-3"]
    check_conservation(game.state)


def test_spoon_skips_seats_without_the_card() -> None:
    game, ids = spoon_game([["tempura", "eel"], ["maki-2", "maki-2"], ["maki-3", "eel"]])
    game.turn((ids["tempura"][0], ids["spoon"][0]), ids["maki-2"][0], ids["eel"][1])
    events = game.answer(Spoon(request="maki-3"))
    assert events[1].seat == 2
    assert game.slugs(0) == ["tempura", "maki-3"]


def test_spoon_general_request_the_giver_picks_the_variant() -> None:
    game, ids = setup_game(
        "big-banquet",
        3,
        [["tempura", "eel", "eel"], ["maki-1", "maki-3", "dumpling"], ["eel", "eel", "dumpling"]],
        [["spoon"], [], []],
    )
    game.turn((ids["tempura"][0], ids["spoon"][0]), ids["dumpling"][0], ids["dumpling"][1])
    game.answer(Spoon(request="maki"))
    prompt = game.state.prompt
    assert prompt is not None and prompt.kind == "give" and prompt.seat == 1 and prompt.owner == 0
    assert GAME.view(game.state, 1).prompt.options == (ids["maki-1"][0], ids["maki-3"][0])
    assert GAME.view(game.state, 0).prompt.options is None
    assert violation(game, 1, Give(card=ids["eel"][2])) == "card-not-in-hand"
    assert legal_commands(game.state, 1) == [Give(card=ids["maki-1"][0]), Give(card=ids["maki-3"][0])]
    game.answer(Give(card=ids["maki-1"][0]))
    assert game.slugs(0) == ["tempura", "maki-1"]
    check_conservation(game.state)


def test_give_must_match_the_request() -> None:
    game, ids = setup_game(
        "big-banquet",
        3,
        [["tempura", "eel", "eel"], ["maki-1", "maki-3", "dumpling"], ["eel", "eel", "dumpling"]],
        [["spoon"], [], []],
    )
    game.turn((ids["tempura"][0], ids["spoon"][0]), ids["maki-1"][0], ids["dumpling"][1])
    # Seat 1 kept maki-3 and dumpling: "maki" has one variant left in its hand, but it still chooses.
    game.answer(Spoon(request="maki"))
    assert violation(game, 1, Give(card=ids["dumpling"][0])) == "card-does-not-match"


def test_spoon_when_nobody_has_the_card_is_discarded() -> None:
    game, ids = spoon_game([["tempura", "eel"], ["maki-2", "maki-2"], ["maki-1", "eel"]])
    game.turn((ids["tempura"][0], ids["spoon"][0]), ids["maki-2"][0], ids["eel"][1])
    assert violation(game, 0, Spoon(request="temaki")) == "not-on-menu"
    assert violation(game, 0, Spoon(request="tamago")) == "unknown-card"
    game.answer(Spoon(request="green-tea-ice-cream"))
    assert game.slugs(0) == ["tempura"]
    assert ids["spoon"][0] in game.state.discard
    assert game.state.phase == "pick"
    check_conservation(game.state)


def test_spoon_on_the_last_turn_does_nothing() -> None:
    option = {**menu(appetizers=("tempura", "sashimi", "eel"), specials=("spoon", "tea")), "dessert": "pudding"}
    game, ids = setup_game(option, 3, [["tempura"], ["eel"], ["eel"]], [["spoon", "spoon", "tea"], [], []])
    events = game.turn((ids["tempura"][0], ids["spoon"][0]), ids["eel"][0], ids["eel"][1])
    assert not any(isinstance(event, SpoonUsed) for event in events)
    # The spoon stayed in the tableau: 2 spoons are the largest colour set for the tea.
    assert round_scores(events)[0]["tea"] == 2


# --- menu -----------------------------------------------------------------------------------------


def menu_game(players: int = 3) -> tuple[Game, dict[str, list[int]]]:
    hands = [["menu", "tofu"], ["menu", "tofu"], ["tofu", "tofu"]][:players]
    return setup_game("party-sampler", players, hands)


def test_menu_draws_4_plays_1_returns_3_and_is_discarded() -> None:
    game, ids = menu_game()
    deck_before = len(game.state.deck)
    menu_card = ids["menu"][0]
    events = game.turn(menu_card, ids["tofu"][1], ids["tofu"][2])
    drawn = next(event for event in events if isinstance(event, MenuDrawn))
    assert drawn.seat == 0 and drawn.count == 4 and drawn.cards is not None and len(drawn.cards) == 4
    hidden: Any = GAME.redact(drawn, 1)
    shown: Any = GAME.redact(drawn, 0)
    assert hidden.cards is None and shown.cards == drawn.cards
    playable = [card for card in drawn.cards if SLUG[card] != "menu"]
    prompt = GAME.view(game.state, 0).prompt
    assert prompt is not None and prompt.kind == "menu" and prompt.options == drawn.cards
    assert GAME.view(game.state, 1).prompt.options is None
    assert legal_commands(game.state, 0) == [MenuPick(card=card) for card in playable]
    assert violation(game, 0, MenuPick(card=ids["tofu"][0])) == "card-not-drawn"
    check_conservation(game.state)
    game.answer(MenuPick(card=playable[0]))
    assert [entry[0] for entry in game.state.tableaus[0]] == [playable[0]]
    assert menu_card in game.state.discard
    assert len(game.state.deck) == deck_before - 1
    check_conservation(game.state)


def test_menu_cannot_play_another_menu() -> None:
    game, ids = setup_game("party-sampler", 3, [["menu", "tofu"], ["tofu", "tofu"], ["tofu", "tofu"]])
    spare_menus = [card for card in game.state.deck if SLUG[card] == "menu"]
    dumplings = [card for card in game.state.deck if SLUG[card] == "dumpling"][: 4 - len(spare_menus)]
    deck = (*spare_menus, *dumplings)
    rest = tuple(card for card in game.state.deck if card not in deck)
    game.state = msgspec.structs.replace(game.state, deck=deck, discard=rest)
    game.turn(ids["menu"][0], ids["tofu"][1], ids["tofu"][3])
    prompt = game.state.prompt
    assert prompt is not None and prompt.kind == "menu" and sorted(prompt.options) == sorted(deck)
    assert violation(game, 0, MenuPick(card=spare_menus[0])) == "cannot-play-menu"
    assert legal_commands(game.state, 0) == [MenuPick(card=card) for card in prompt.options if card in dumplings]


def test_two_menus_in_one_turn_resolve_in_number_order() -> None:
    game, ids = menu_game()
    low, high = sorted(ids["menu"][:2], key=lambda card: NUMBER[card])
    seat_of = {ids["menu"][0]: 0, ids["menu"][1]: 1}
    events = game.turn(ids["menu"][0], ids["menu"][1], ids["tofu"][2])
    draws = [event for event in events if isinstance(event, MenuDrawn)]
    assert len(draws) == 1 and draws[0].seat == seat_of[low]
    assert game.state.prompt is not None and game.state.prompt.seat == seat_of[low]
    first = next(card for card in game.state.prompt.options if SLUG[card] != "menu")
    events = game.answer(MenuPick(card=first))
    assert isinstance(events[0], MenuDrawn) is False
    draws = [event for event in events if isinstance(event, MenuDrawn)]
    assert len(draws) == 1 and draws[0].seat == seat_of[high]
    assert game.state.prompt is not None and game.state.prompt.seat == seat_of[high]


# --- takeout box ----------------------------------------------------------------------------------


def test_takeout_box_flips_earlier_cards_face_down(rules: PartyRules) -> None:
    game, ids = setup_game(
        "master-menu",
        3,
        [["takeout-box"], ["temaki"], ["temaki"]],
        [["sashimi", "tofu", "tofu", "tofu", "fruit-ww"], [], []],
    )
    game.turn(ids["takeout-box"][0], ids["temaki"][0], ids["temaki"][1])
    prompt = game.state.prompt
    assert prompt is not None and prompt.kind == "flip"
    if rules.version == 1:
        assert prompt.options == (ids["sashimi"][0], *ids["tofu"][:3])  # not the fruit (a dessert)
        assert len(legal_commands(game.state, 0)) == 16
        assert violation(game, 0, Flip(cards=(ids["fruit-ww"][0],))) == "cannot-flip"
    else:
        assert prompt.options == (ids["sashimi"][0], *ids["tofu"][:3], ids["fruit-ww"][0])  # the fruit too
        assert len(legal_commands(game.state, 0)) == 32
    assert violation(game, 0, Flip(cards=(ids["tofu"][0], ids["tofu"][0]))) == "duplicate-card"
    assert violation(game, 0, Flip(cards=(ids["temaki"][0],))) == "card-not-in-tableau"
    events = game.answer(Flip(cards=tuple(ids["tofu"][:3])))
    scores = round_scores(events)
    assert scores[0]["takeout-box"] == 6 and scores[0]["tofu"] == 0 and scores[0]["sashimi"] == 0
    assert ids["takeout-box"][0] not in [entry[0] for entry in game.state.tableaus[0]]


def test_takeout_box_may_flip_nothing_and_with_nothing_earlier_is_discarded() -> None:
    game, ids = setup_game("master-menu", 3, [["takeout-box", "tofu"], ["temaki", "tofu"], ["temaki", "tofu"]])
    game.turn(ids["takeout-box"][0], ids["temaki"][0], ids["temaki"][1])
    assert game.state.prompt is None and game.state.phase == "pick"
    assert ids["takeout-box"][0] in game.state.discard
    game, ids = setup_game(
        "master-menu", 3, [["takeout-box", "tofu"], ["temaki", "tofu"], ["temaki", "tofu"]], [["tofu"]]
    )
    game.turn(ids["takeout-box"][0], ids["temaki"][0], ids["temaki"][1])
    game.answer(Flip(cards=()))
    assert game.slugs(0) == ["tofu"]


def test_takeout_box_cannot_flip_cards_played_after_it() -> None:
    game, ids = setup_game(
        "master-menu",
        3,
        [["takeout-box", "tofu"], ["sashimi", "temaki"], ["tofu", "temaki"]],
        [["spoon", "tofu"], [], []],
    )
    game.turn((ids["takeout-box"][0], ids["spoon"][0]), ids["temaki"][0], ids["temaki"][1])
    game.answer(Spoon(request="sashimi"))
    prompt = game.state.prompt
    assert prompt is not None and prompt.kind == "flip"
    assert prompt.options == (ids["tofu"][2],)  # the earlier tofu; not the sashimi the spoon brought
    assert violation(game, 0, Flip(cards=(ids["sashimi"][0],))) == "cannot-flip"


def test_two_takeout_boxes_in_one_turn_resolve_in_number_order() -> None:
    game, ids = setup_game(
        "master-menu",
        3,
        [["takeout-box", "tofu"], ["takeout-box", "tofu"], ["temaki", "tofu"]],
        [["sashimi"], ["sashimi"], []],
    )
    boxes = ids["takeout-box"][:2]
    low = min(boxes, key=lambda card: NUMBER[card])
    game.turn(boxes[0], boxes[1], ids["temaki"][0])
    assert game.state.prompt is not None and game.state.prompt.card == low
    first_seat = boxes.index(low)
    game.answer(Flip(cards=()))
    assert game.state.prompt is not None and game.state.prompt.seat == 1 - first_seat


# --- special order --------------------------------------------------------------------------------

ORDER_MENU = {**menu(appetizers=("tempura", "sashimi", "miso-soup"), specials=("wasabi", "special-order"))}


def order_game(tableau: list[str], players: int = 2) -> tuple[Game, dict[str, list[int]]]:
    hands = [["special-order", "tempura"]] + [["tempura", "sashimi"]] * (players - 1)
    return setup_game({**ORDER_MENU, "dessert": "pudding"}, players, hands, [tableau])


def test_special_order_copies_an_earlier_card_chosen_by_its_owner() -> None:
    game, ids = order_game(["tempura", "sashimi"])
    game.turn(ids["special-order"][0], ids["sashimi"][0])
    prompt = game.state.prompt
    assert prompt is not None and prompt.kind == "copy" and prompt.options == (ids["tempura"][2], ids["sashimi"][1])
    assert violation(game, 0, Copy(card=ids["sashimi"][0])) == "card-not-in-tableau"
    events = game.answer(Copy(card=ids["tempura"][2]))
    assert isinstance(events[0], SpecialOrderCopied) and events[0].slug == "tempura"
    assert game.slugs(0) == ["tempura", "sashimi", "tempura"]


def test_special_order_with_nothing_to_copy_is_discarded() -> None:
    game, ids = order_game([])
    game.turn(ids["special-order"][0], ids["sashimi"][0])
    assert game.slugs(0) == [] and ids["special-order"][0] in game.state.discard


def test_special_order_with_one_kind_to_copy_copies_it_at_once() -> None:
    game, ids = order_game(["sashimi", "sashimi"])
    events = game.turn(ids["special-order"][0], ids["tempura"][1])
    assert any(isinstance(event, SpecialOrderCopied) for event in events)
    assert game.slugs(0) == ["sashimi", "sashimi", "sashimi"]


def last_turn(tableau: list[str]) -> Game:
    """Seat 0 plays a special order on the last turn of the round, with this tableau."""
    game, ids = setup_game({**ORDER_MENU, "dessert": "pudding"}, 2, [["special-order"], ["tempura"]], [tableau])
    game.turn(ids["special-order"][0], ids["tempura"][0])
    assert game.state.prompt is not None and game.state.prompt.kind == "copy"
    return game


def test_special_order_copy_of_a_nigiri_on_wasabi_is_not_on_that_wasabi() -> None:
    game = last_turn(["wasabi", "squid-nigiri"])
    events = game.answer(Copy(card=game.state.tableaus[0][1][0]))
    assert round_scores(events)[0]["nigiri"] == 9 + 3


def test_special_order_copy_of_a_nigiri_takes_an_empty_wasabi() -> None:
    game = last_turn(["wasabi", "squid-nigiri", "wasabi"])
    events = game.answer(Copy(card=game.state.tableaus[0][1][0]))
    assert round_scores(events)[0]["nigiri"] == 9 + 9
    game = last_turn(["egg-nigiri", "wasabi"])
    events = game.answer(Copy(card=game.state.tableaus[0][0][0]))
    assert round_scores(events)[0]["nigiri"] == 1 + 3


def test_special_order_copies_all_icons_of_uramaki() -> None:
    game, ids = setup_game(
        "points-platter",
        3,
        [["special-order", "dumpling"], ["dumpling", "dumpling"], ["dumpling", "dumpling"]],
        [["uramaki-5", "uramaki-4"], [], []],
    )
    game.turn(ids["special-order"][0], ids["dumpling"][1], ids["dumpling"][3])
    game.answer(Copy(card=ids["uramaki-5"][0]))
    assert game.state.uramaki_points == (8, 0, 0) and game.state.uramaki_claimed == 1
    assert game.slugs(0) == [] and ids["special-order"][0] in game.state.discard


def test_special_order_copy_of_a_dessert_goes_to_the_fridge() -> None:
    game, ids = setup_game("dinner-for-two", 2, [["special-order"], ["tofu"]], [["fruit-ww", "tofu"], []])
    game.turn(ids["special-order"][0], ids["tofu"][0])
    game.answer(Copy(card=ids["fruit-ww"][0]))
    assert game.state.round == 2
    assert sorted(game.state.fridges[0]) == sorted(
        [(ids["fruit-ww"][0], "fruit-ww"), (ids["special-order"][0], "fruit-ww")]
    )
    check_conservation(game.state)


def test_special_order_cannot_copy_a_face_down_card() -> None:
    option = {**menu(specials=("takeout-box", "special-order")), "dessert": "pudding"}
    game, ids = setup_game(
        option, 2, [["special-order", "tempura"], ["tempura", "tempura"]], [["tempura", "sashimi", "egg-nigiri"], []]
    )
    tableau = game.state.tableaus[0]
    flipped = (tableau[0][0], "face-down", -1)
    game.state = msgspec.structs.replace(game.state, tableaus=((flipped, *tableau[1:]), ()))
    game.turn(ids["special-order"][0], ids["tempura"][1])
    assert game.state.prompt is not None and ids["tempura"][3] not in game.state.prompt.options
    assert violation(game, 0, Copy(card=ids["tempura"][3])) == "cannot-copy"


# --- miso soup ------------------------------------------------------------------------------------


def test_two_miso_soups_in_one_turn_are_discarded() -> None:
    game, ids = setup_game(
        "my-first-meal", 3, [["miso-soup", "tempura"], ["miso-soup", "tempura"], ["tempura", "miso-soup"]]
    )
    game.turn(ids["miso-soup"][0], ids["miso-soup"][1], ids["tempura"][2])
    assert game.slugs(0) == [] and game.slugs(1) == [] and game.slugs(2) == ["tempura"]
    assert set(ids["miso-soup"][:2]) <= set(game.state.discard)
    events = game.turn(ids["miso-soup"][2], ids["tempura"][0], ids["tempura"][1])
    assert [score["miso-soup"] for score in round_scores(events)] == [3, 0, 0]


def test_one_players_two_miso_soups_through_chopsticks(rules: PartyRules) -> None:
    option = {**menu(specials=("chopsticks", "wasabi")), "dessert": "pudding"}
    game, ids = setup_game(
        option, 2, [["miso-soup", "miso-soup", "tempura"], ["tempura", "sashimi", "sashimi"]], [["chopsticks"], []]
    )
    game.turn((ids["miso-soup"][0], ids["chopsticks"][0]), ids["tempura"][1])
    events = game.answer(Chopsticks(card=ids["miso-soup"][1]))
    if rules.version == 1:
        # Version 1 (kaiten 0.1.0): more than one miso soup in a turn clash, even one player's two.
        assert game.slugs(0) == []
        assert set(ids["miso-soup"]) <= set(game.state.discard)
    else:
        # Version 2 (seed 002: "if other players choose Miso Soup also"): nobody else played one.
        assert game.slugs(0) == ["miso-soup", "miso-soup"]
        assert not any(isinstance(event, MisoClashed) for event in events)
        while game.state.round == 1:
            events = game.turn(*(hand[0] for hand in game.state.hands))
        assert [score["miso-soup"] for score in round_scores(events)] == [6, 0]


def test_miso_soups_of_two_players_clash_with_a_third_from_chopsticks(rules: PartyRules) -> None:
    option = {**menu(specials=("chopsticks", "wasabi")), "dessert": "pudding"}
    game, ids = setup_game(
        option, 2, [["miso-soup", "miso-soup", "tempura"], ["miso-soup", "sashimi", "sashimi"]], [["chopsticks"], []]
    )
    game.turn((ids["miso-soup"][0], ids["chopsticks"][0]), ids["miso-soup"][2])
    events = game.answer(Chopsticks(card=ids["miso-soup"][1]))
    assert game.slugs(0) == [] and game.slugs(1) == []
    assert set(ids["miso-soup"]) <= set(game.state.discard)
    clashed = [event for event in events if isinstance(event, MisoClashed)]
    if rules.version == 2:
        assert [sorted(clashed[0].cards)] == [
            sorted([(0, ids["miso-soup"][0]), (0, ids["miso-soup"][1]), (1, ids["miso-soup"][2])])
        ]
    else:
        assert clashed == []  # version 1 wrote no event for it


def test_miso_soups_clash_through_special_order() -> None:
    game, ids = setup_game(
        {**ORDER_MENU, "dessert": "pudding"},
        2,
        [["special-order", "tempura"], ["miso-soup", "sashimi"]],
        [["miso-soup", "tempura"], []],
    )
    game.turn(ids["special-order"][0], ids["miso-soup"][0])
    game.answer(Copy(card=ids["miso-soup"][1]))
    # The copy and seat 1's miso soup were played this turn: both discarded; the earlier one stays.
    assert game.slugs(0) == ["miso-soup", "tempura"] and game.slugs(1) == []


# --- uramaki --------------------------------------------------------------------------------------


def uramaki_game(tableaus: list[list[str]], hands: list[list[str]]) -> tuple[Game, dict[str, list[int]]]:
    return setup_game("points-platter", 3, hands, tableaus)


def test_uramaki_race_more_icons_first_and_discarded() -> None:
    game, ids = uramaki_game(
        [["uramaki-5", "uramaki-4"], ["uramaki-5", "uramaki-4"], []],
        [["uramaki-3", "dumpling"], ["uramaki-4", "dumpling"], ["dumpling", "dumpling"]],
    )
    game.turn(ids["uramaki-3"][0], ids["uramaki-4"][0], ids["dumpling"][2])
    assert game.state.uramaki_points == (5, 8, 0) and game.state.uramaki_claimed == 2
    assert game.slugs(0) == [] and game.slugs(1) == []
    assert game.state.uramaki_icons == (0, 0, 0)
    check_conservation(game.state)


def test_uramaki_scores_at_exactly_ten_icons_and_not_at_nine() -> None:
    game, ids = uramaki_game(
        [["uramaki-3", "uramaki-3"], ["uramaki-5"], []],
        [["uramaki-4", "dumpling"], ["uramaki-4", "dumpling"], ["dumpling", "dumpling"]],
    )
    game.turn(ids["uramaki-4"][0], ids["uramaki-4"][1], ids["dumpling"][2])
    # Seat 0 has 10 icons: the race's first place, at once. Seat 1 has 9: nothing yet.
    assert game.state.uramaki_points == (8, 0, 0) and game.state.uramaki_claimed == 1
    assert game.state.uramaki_icons == (0, 9, 0)


def test_uramaki_race_tie_shares_the_place_and_skips_the_next() -> None:
    game, ids = uramaki_game(
        [["uramaki-5", "uramaki-4"], ["uramaki-5", "uramaki-4"], ["uramaki-3"]],
        [["uramaki-3"], ["uramaki-3"], ["dumpling"]],
    )
    events = game.turn(ids["uramaki-3"][0], ids["uramaki-3"][1], ids["dumpling"][0])
    scores = round_scores(events)
    # Both reached 12: 8 each, second place skipped; the last place goes to seat 2 at round end.
    assert [score["uramaki"] for score in scores] == [8, 8, 2]


# --- round and game end ---------------------------------------------------------------------------


def test_round_end_keeps_desserts_and_returns_the_rest_to_the_deck() -> None:
    game, ids = setup_game("my-first-meal", 2, [["green-tea-ice-cream"], ["tempura"]], [["tempura"], ["sashimi"]])
    events = game.turn(ids["green-tea-ice-cream"][0], ids["tempura"][0])
    assert any(isinstance(event, RoundDealt) and event.round == 2 for event in events)
    assert game.state.fridges == (((ids["green-tea-ice-cream"][0], "green-tea-ice-cream"),), ())
    dealt = {card for hand in game.state.hands for card in hand}
    assert {ids["tempura"][0], ids["tempura"][1], ids["sashimi"][0]} <= set(game.state.deck) | dealt
    check_conservation(game.state)


def test_tie_break_most_desserts_then_shared() -> None:
    result = final_result(
        [[seat_score(0, {"maki": 10}), seat_score(1, {"maki": 10}), seat_score(2, {"maki": 4})]], [1, 3, 0], ["maki"]
    )
    assert result.winners == (1,) and result.ranking == (1, 0, 2)
    result = final_result(
        [[seat_score(0, {"maki": 10}), seat_score(1, {"maki": 10}), seat_score(2, {"maki": 4})]], [2, 2, 0], ["maki"]
    )
    assert result.winners == (0, 1)


def test_special_order_through_chopsticks_copies_this_turns_first_card() -> None:
    option = {**menu(specials=("chopsticks", "special-order")), "dessert": "pudding"}
    game, ids = setup_game(
        option,
        2,
        [["sashimi", "special-order", "tempura"], ["tempura", "tempura", "tempura"]],
        [["chopsticks", "tempura"]],
    )
    game.turn((ids["sashimi"][0], ids["chopsticks"][0]), ids["tempura"][1])
    game.answer(Chopsticks(card=ids["special-order"][0]))
    prompt = game.state.prompt
    assert prompt is not None and prompt.kind == "copy" and ids["sashimi"][0] in prompt.options
    game.answer(Copy(card=ids["sashimi"][0]))
    assert game.slugs(0) == ["tempura", "sashimi", "sashimi"]


def test_special_order_copying_chopsticks_can_be_called_later() -> None:
    option = {**menu(specials=("chopsticks", "special-order")), "dessert": "pudding"}
    game, ids = setup_game(
        option,
        2,
        [["special-order", "tempura", "sashimi", "tempura"], ["tempura", "tempura", "tempura", "sashimi"]],
        [["chopsticks", "sashimi"], []],
    )
    game.turn(ids["special-order"][0], ids["tempura"][2])
    game.answer(Copy(card=ids["chopsticks"][0]))
    order = ids["special-order"][0]
    assert (order, "chopsticks", -1) in game.state.tableaus[0]
    hand = game.state.hands[0]
    game.turn((hand[0], order), game.state.hands[1][0])
    assert game.state.prompt is not None and game.state.prompt.kind == "chopsticks"
    assert game.state.queue == ()
    game.answer(Chopsticks(card=hand[1]))
    assert order in game.state.hands[1]  # the special order went into the passed hand, as a plain card


def test_flip_lists_are_bounded_beyond_8_cards_and_any_subset_is_accepted() -> None:
    tableau = ["sashimi"] * 5 + ["tofu"] * 5
    game, ids = setup_game("master-menu", 3, [["takeout-box"], ["temaki"], ["temaki"]], [tableau, [], []])
    game.turn(ids["takeout-box"][0], ids["temaki"][0], ids["temaki"][1])
    commands = legal_commands(game.state, 0)
    assert len(commands) == 2 * (1 + 10 + 45)
    unlisted = Flip(cards=tuple(ids["tofu"][:5]))
    assert unlisted not in commands
    events = game.answer(unlisted)
    assert round_scores(events)[0]["takeout-box"] == 10


def test_spoon_specific_request_of_a_single_variant_type_gives_at_once() -> None:
    game, ids = spoon_game([["tempura", "eel"], ["eel", "maki-2"], ["maki-3", "eel"]])
    game.turn((ids["tempura"][0], ids["spoon"][0]), ids["maki-2"][0], ids["maki-3"][0])
    events = game.answer(Spoon(request="eel"))
    assert isinstance(events[1], SpoonGiven) and events[1].seat == 1
    assert game.slugs(0) == ["tempura", "eel"]
