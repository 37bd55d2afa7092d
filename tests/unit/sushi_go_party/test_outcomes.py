"""Rules version 2: the outcomes of a turn are events written by its `follow` (rules_v2.py), and its
`evolve` only applies them; a takeout box may flip desserts. (test_turns.py runs the shared behaviour
under both versions.)"""

from __future__ import annotations

from typing import Any

from kaiten.domain.chance import Chance
from kaiten.domain.engine import play
from kaiten.domain.sushi_go_party.commands import Flip, ProposeMenu, Spoon, Vote
from kaiten.domain.sushi_go_party.events import (
    BonusDropped,
    CardsRevealed,
    ChoiceAsked,
    HandsPassed,
    MenuChosen,
    RoundScored,
    UramakiPlaced,
    VotesCounted,
)
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY as GAME
from kaiten.domain.sushi_go_party.rules_v1 import RULES_V1
from kaiten.domain.sushi_go_party.rules_v2 import RULES_V2
from kaiten.domain.sushi_go_party.view import redact

from .helpers import check_conservation, setup_game


def of_type(events: list[Any], kind: type) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


def test_the_newest_party_rules_are_version_2_and_version_1_keeps_its_events() -> None:
    assert GAME.rules_version == 2 and GAME.rules is RULES_V2
    v1 = GAME.at_rules_version(1)
    assert v1.rules is RULES_V1 and HandsPassed not in v1.event_types and HandsPassed in GAME.event_types


def test_a_reveal_alone_resolves_nothing_in_version_2() -> None:
    game, ids = setup_game("master-menu", 3, [["takeout-box"], ["temaki"], ["temaki"]], [["tofu"], [], []])
    state = game.state
    reveal = CardsRevealed(round=1, turn=1, cards=(ids["takeout-box"][0], *ids["temaki"][:2]), calls=(None,) * 3)
    applied = RULES_V2.evolve(state, reveal)
    # The box is played and queued; what it does is the next event's to say.
    assert applied.phase == "resolve" and applied.prompt is None and applied.awaiting == ()
    assert [action[2] for action in applied.queue] == [ids["takeout-box"][0]]
    # Version 1 ran the machine while folding: it asks the box's owner at once.
    folded = RULES_V1.evolve(state, reveal)
    assert folded.prompt is not None and folded.prompt.kind == "flip" and folded.queue == ()


def test_each_turn_ends_with_the_hands_passed() -> None:
    game, ids = setup_game(
        "sushi-go", 3, [["tempura", "sashimi"], ["maki-1", "maki-2"], ["dumpling", "pudding"]], rules=RULES_V2
    )
    before = game.state.hands
    events = game.turn(ids["tempura"][0], ids["maki-1"][0], ids["dumpling"][0])
    assert of_type(events, HandsPassed) == [HandsPassed(direction="left", turn=2)]
    assert game.state.hands[1] == tuple(card for card in before[0] if card != ids["tempura"][0])
    events = game.turn(*(hand[0] for hand in game.state.hands))
    assert of_type(events, HandsPassed) == [] and len(of_type(events, RoundScored)) == 1


def test_a_takeout_box_asks_for_its_flips_and_may_flip_a_dessert() -> None:
    game, ids = setup_game(
        "master-menu",
        3,
        [["takeout-box", "tofu"], ["temaki", "tofu"], ["temaki", "tofu"]],
        [["fruit-ww", "sashimi"], [], []],
        rules=RULES_V2,
    )
    events = game.turn(ids["takeout-box"][0], ids["temaki"][0], ids["temaki"][1])
    (asked,) = of_type(events, ChoiceAsked)
    assert (asked.kind, asked.seat, asked.options) == ("flip", 0, (ids["fruit-ww"][0], ids["sashimi"][0]))
    assert redact(asked, 1) == ChoiceAsked(kind="flip", seat=0, card=asked.card, options=None)
    game.answer(Flip(cards=(ids["fruit-ww"][0],)))
    assert game.slugs(0) == ["face-down", "sashimi"]
    events = game.turn(*(hand[0] for hand in game.state.hands))
    (scored,) = of_type(events, RoundScored)
    # A flipped dessert is a 2-point card, not a dessert: it is not kept in the fridge.
    assert scored.scores[0].breakdown["takeout-box"] == 2
    assert game.state.fridges[0] == ()
    check_conservation(game.state)


def test_a_takeout_box_with_nothing_to_flip_is_dropped() -> None:
    game, ids = setup_game(
        "master-menu", 3, [["takeout-box", "tofu"], ["temaki", "tofu"], ["temaki", "tofu"]], rules=RULES_V2
    )
    events = game.turn(ids["takeout-box"][0], ids["temaki"][0], ids["temaki"][1])
    box = ids["takeout-box"][0]
    assert of_type(events, BonusDropped) == [BonusDropped(seat=0, card=box, reason="nothing-to-flip", discarded=True)]
    assert box in game.state.discard


def test_a_spoon_nobody_answers_is_dropped() -> None:
    game, ids = setup_game(
        "big-banquet",
        3,
        [["tempura", "eel"], ["maki-2", "maki-2"], ["maki-1", "eel"]],
        [["spoon"], [], []],
        rules=RULES_V2,
    )
    events = game.turn((ids["tempura"][0], ids["spoon"][0]), ids["maki-2"][0], ids["eel"][1])
    assert [(event.kind, event.seat) for event in of_type(events, ChoiceAsked)] == [("spoon", 0)]
    events = game.answer(Spoon(request="green-tea-ice-cream"))
    spoon = ids["spoon"][0]
    assert of_type(events, BonusDropped) == [BonusDropped(seat=0, card=spoon, reason="no-match", discarded=True)]
    assert spoon in game.state.discard and game.state.phase == "pick"


def test_each_uramaki_place_is_an_event() -> None:
    game, ids = setup_game(
        "points-platter",
        3,
        [["uramaki-3", "dumpling"], ["uramaki-4", "dumpling"], ["dumpling", "dumpling"]],
        [["uramaki-5", "uramaki-4"], ["uramaki-5", "uramaki-4"], []],
        rules=RULES_V2,
    )
    events = game.turn(ids["uramaki-3"][0], ids["uramaki-4"][0], ids["dumpling"][2])
    placed = of_type(events, UramakiPlaced)
    assert [(event.points, event.seats, event.claimed) for event in placed] == [(8, (1,), 1), (5, (0,), 2)]
    assert sorted(card for _, card in placed[1].cards) == sorted(
        [ids["uramaki-5"][0], ids["uramaki-4"][1], ids["uramaki-3"][0]]  # its tableau's, and the one it played
    )
    assert game.state.uramaki_points == (5, 8, 0) and game.state.uramaki_claimed == 2


def test_a_vote_is_counted_by_an_event() -> None:
    events: list[Any] = []
    state = GAME.initial_state(GAME.options_type(menu="vote"), 3)
    commands = [(0, ProposeMenu(menu="my-first-meal")), (1, Vote(approve=True)), (2, Vote(approve=False))]
    for seat, command in commands:
        decided, state = play(GAME, state, seat, command, Chance(1, len(events)))
        events.extend(decided)
    assert of_type(events, VotesCounted) == [VotesCounted(proposal=0, approvals=2, next_proposer=None)]
    assert of_type(events, MenuChosen)[0].how == "vote" and state.phase == "pick"
    # Rejected: the next seat proposes.
    state = GAME.initial_state(GAME.options_type(menu="vote"), 3)
    events = []
    for seat, command in [commands[0], (1, Vote(approve=False)), (2, Vote(approve=False))]:
        decided, state = play(GAME, state, seat, command, Chance(1, len(events)))
        events.extend(decided)
    assert of_type(events, VotesCounted) == [VotesCounted(proposal=0, approvals=1, next_proposer=1)]
    assert state.phase == "select" and state.awaiting == (1,)


def test_a_spoon_called_on_the_last_turn_is_dropped_without_being_discarded() -> None:
    """Nobody has a card left to give: the spoon does nothing, and is not discarded for it."""
    game, ids = setup_game("big-banquet", 3, [["tempura"], ["maki-2"], ["eel"]], [["spoon"], [], []], rules=RULES_V2)
    spoon = ids["spoon"][0]
    events = game.turn((ids["tempura"][0], spoon), ids["maki-2"][0], ids["eel"][0])
    assert of_type(events, BonusDropped) == [BonusDropped(seat=0, card=spoon, reason="last-turn", discarded=False)]
    assert of_type(events, ChoiceAsked) == [] and len(of_type(events, RoundScored)) == 1
