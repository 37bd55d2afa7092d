"""The turn, chopsticks, wasabi, the last card, round ends, the reshuffle, the end of the game, and
every RuleViolation."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.engine import RuleViolation, seat_score
from kaiten.domain.sushi_go.cards import DEAL, IS_PUDDING, KIND, PUDDING
from kaiten.domain.sushi_go.commands import Pick
from kaiten.domain.sushi_go.decide import _draw, decide
from kaiten.domain.sushi_go.events import CardPicked, CardsRevealed, HandsDealt, PuddingsScored, RoundScored
from kaiten.domain.sushi_go.evolve import final_result
from kaiten.domain.sushi_go.game import SUSHI_GO as GAME
from kaiten.domain.sushi_go.scoring import CATEGORIES, round_breakdowns_of_cards
from tests.unit import bot_games
from tests.unit.sushi_go.helpers import (
    Cards,
    act,
    assert_conserved,
    make_state,
    new_table,
    play,
    play_turn,
)


def violation(state: Any, seat: int, command: Any) -> str:
    with pytest.raises(RuleViolation) as raised:
        decide(state, seat, command, Chance(0, 1))
    return raised.value.code


# --- setup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_deals_unique_cards_by_player_count(players: int) -> None:
    [dealt] = GAME.setup(GAME.options_type(), players, Chance(7, 3))
    assert isinstance(dealt, HandsDealt)
    assert dealt.round == 1 and dealt.hand_size == DEAL[players] and not dealt.reshuffled
    cards = [card for hand in dealt.hands for card in hand or ()]
    assert len(cards) == len(set(cards)) == players * DEAL[players]
    state = GAME.evolve(GAME.initial_state(GAME.options_type(), players), dealt)
    assert len(state.deck) == 108 - players * DEAL[players]
    assert state.awaiting == tuple(range(players))
    assert_conserved(state)


def test_setup_is_determined_by_the_chance() -> None:
    assert GAME.setup(GAME.options_type(), 4, Chance(7, 3)) == GAME.setup(GAME.options_type(), 4, Chance(7, 3))
    assert GAME.setup(GAME.options_type(), 4, Chance(7, 3)) != GAME.setup(GAME.options_type(), 4, Chance(8, 3))


def test_check_options() -> None:
    GAME.check_options(GAME.options_type(), 4)
    GAME.check_options(GAME.options_type(), 6)
    with pytest.raises(RuleViolation):
        GAME.check_options(GAME.options_type(), 7)
    with pytest.raises(RuleViolation) as raised:
        lobby.create_game(GAME, 1, None, 1, salt=bytes(16))
    assert raised.value.code == "invalid-player-count"


def test_rules_version_2_takes_six_players_dealt_eight_cards_each() -> None:
    assert (GAME.rules_version, GAME.max_players, DEAL[6]) == (2, 6, 8)
    table, log = bot_games.play(GAME, 1, ["random", "greedy"] * 3)
    assert table.rules_version == 2 and log[0].rules_version == 2
    dealt = [event for event in log if isinstance(event, HandsDealt)]
    assert [(event.hand_size, len(event.hands)) for event in dealt] == [(8, 6)] * 3
    assert table.status == "finished" and table.result is not None and len(table.result.scores) == 6
    assert lobby.replay(GAME, log) == table


def test_rules_version_1_takes_two_to_five_players() -> None:
    v1 = GAME.at_rules_version(1)
    assert (v1.rules_version, v1.min_players, v1.max_players) == (1, 2, 5)
    with pytest.raises(RuleViolation) as raised:
        lobby.create_game(v1, 6, None, 1, salt=bytes(16))
    assert raised.value.code == "invalid-player-count"
    created = lobby.create_game(v1, 5, None, 1, salt=bytes(16))
    assert created[0].rules_version == 1


# --- a turn ---------------------------------------------------------------------------------------


def test_picks_are_hidden_until_everyone_has_picked_then_revealed_and_passed_left() -> None:
    c = Cards()
    hands = [c("tempura", "sashimi", "dumpling"), c("maki-1", "maki-2", "maki-3"), c("egg-nigiri", "wasabi", "pudding")]
    state = make_state(c, hands)
    state, events = play(state, 0, hands[0][1])
    assert events == [CardPicked(seat=0, cards=(hands[0][1],))]
    assert state.awaiting == (1, 2) and state.picks[0] == (hands[0][1],)
    assert state.tableaus[0] == ()  # not revealed yet
    state, _ = play(state, 2, hands[2][0])
    state, events = play(state, 1, hands[1][2])
    assert events[1] == CardsRevealed(
        round=1, turn=1, picks=((hands[0][1],), (hands[1][2],), (hands[2][0],)), chopsticks=(None, None, None)
    )
    assert state.tableaus == ((hands[0][1],), (hands[1][2],), (hands[2][0],))
    # Seat i passes to seat i + 1.
    assert state.hands == (
        (hands[2][1], hands[2][2]),
        (hands[0][0], hands[0][2]),
        (hands[1][0], hands[1][1]),
    )
    assert state.turn == 2 and state.awaiting == (0, 1, 2) and state.picks == ((), (), ())


def test_picks_are_final() -> None:
    c = Cards()
    hands = [c("tempura", "sashimi", "dumpling"), c("maki-1", "maki-2", "maki-3")]
    state, _ = play(make_state(c, hands), 0, hands[0][0])
    assert violation(state, 0, Pick(cards=(hands[0][1],))) == "already-picked"
    assert GAME.legal_commands(state, 0) == []


def test_legal_commands_list_every_card_and_every_ordered_pair_with_chopsticks() -> None:
    c = Cards()
    hands = [c("tempura", "sashimi", "dumpling"), c("maki-1", "maki-2", "maki-3")]
    state = make_state(c, hands, tableaus=[c("chopsticks"), ()])
    ones = [Pick(cards=(card,)) for card in hands[0]]
    pairs = [Pick(cards=(a, b)) for a in hands[0] for b in hands[0] if a != b]
    assert GAME.legal_commands(state, 0) == ones + pairs
    assert GAME.legal_commands(state, 1) == [Pick(cards=(card,)) for card in hands[1]]


# --- chopsticks -----------------------------------------------------------------------------------


def test_chopsticks_take_two_cards_and_go_back_into_the_passed_hand() -> None:
    c = Cards()
    chopsticks = c("chopsticks")
    hands = [c("wasabi", "squid-nigiri", "egg-nigiri"), c("maki-1", "maki-2", "maki-3")]
    state = make_state(c, hands, tableaus=[(*c("tempura"), *chopsticks), ()])
    state, events = play_turn(state, [(hands[0][0], hands[0][1]), (hands[1][0],)])
    revealed = events[-1]
    assert revealed.picks[0] == (hands[0][0], hands[0][1]) and revealed.chopsticks == (chopsticks[0], None)
    tempura = state.tableaus[0][0]
    assert state.tableaus[0] == (tempura, hands[0][0], hands[0][1])  # chopsticks left the tableau
    assert state.hands[1] == (hands[0][2], chopsticks[0])  # ...into the hand passed to seat 1
    assert state.hands[0] == (hands[1][1], hands[1][2])
    assert_conserved(state)


def test_chopsticks_pick_order_matters_for_wasabi() -> None:
    c = Cards()
    hands = [c("wasabi", "squid-nigiri", "egg-nigiri"), c("maki-1", "maki-2", "maki-3")]
    first = make_state(c, hands, tableaus=[c("chopsticks"), ()])
    on_wasabi, _ = play_turn(first, [(hands[0][0], hands[0][1]), (hands[1][0],)])
    before_wasabi, _ = play_turn(first, [(hands[0][1], hands[0][0]), (hands[1][0],)])
    assert round_breakdowns_of_cards(on_wasabi.tableaus)[0]["nigiri"] == 9
    assert round_breakdowns_of_cards(before_wasabi.tableaus)[0]["nigiri"] == 3


def test_only_one_chopsticks_per_turn_and_the_earliest_goes_back() -> None:
    c = Cards()
    sticks = c("chopsticks", "chopsticks")
    hands = [c("tempura", "tempura", "tempura", "sashimi"), c("maki-1", "maki-2", "maki-3", "dumpling")]
    state = make_state(c, hands, tableaus=[sticks, ()])
    assert violation(state, 0, Pick(cards=hands[0][:3])) == "invalid-command"
    state, _ = play_turn(state, [hands[0][:2], hands[1][:1]])
    assert state.tableaus[0] == (sticks[1], *hands[0][:2])
    assert sticks[0] in state.hands[1]


def test_two_cards_need_chopsticks_already_in_the_tableau() -> None:
    c = Cards()
    hands = [c("chopsticks", "tempura", "sashimi"), c("maki-1", "maki-2", "maki-3")]
    state = make_state(c, hands)
    assert violation(state, 0, Pick(cards=(hands[0][0], hands[0][1]))) == "no-chopsticks"
    assert violation(state, 0, Pick(cards=(hands[0][1], hands[0][2]))) == "no-chopsticks"


def test_chopsticks_on_the_two_card_turn_become_the_next_seats_last_card() -> None:
    c = Cards()
    sticks = c("chopsticks")
    hands = [c("tempura", "tempura"), c("sashimi", "maki-2")]
    state = make_state(c, hands, tableaus=[sticks, ()], round_=1, turn=9)
    state, events = play_turn(state, [hands[0], hands[1][:1]])
    auto = events[3]
    assert isinstance(auto, CardsRevealed) and auto.auto
    assert auto.picks == ((hands[1][1],), sticks)
    scored = events[4]
    assert isinstance(scored, RoundScored)
    assert scored.scores[0].breakdown["tempura"] == 5


# --- wasabi ---------------------------------------------------------------------------------------


def test_nigiri_go_on_the_earliest_uncovered_wasabi_in_play() -> None:
    c = Cards()
    hands = [c("squid-nigiri", "egg-nigiri", "tempura"), c("salmon-nigiri", "maki-1", "maki-2")]
    state = make_state(c, hands, tableaus=[c("wasabi", "wasabi"), ()], turn=DEAL[2] - 2)
    state, _ = play_turn(state, [(hands[0][0],), (hands[1][1],)])
    assert state.hands == ((hands[1][0], hands[1][2]), (hands[0][1], hands[0][2]))
    state, events = play_turn(state, [(hands[1][0],), (hands[0][2],)])
    scored = next(event for event in events if isinstance(event, RoundScored))
    # squid and salmon on the two wasabi, then the egg (the auto-placed last card) on none.
    assert scored.scores[0].breakdown["nigiri"] == 9 + 6 + 1


# --- the last card and the end of a round -----------------------------------------------------------


def round_end_state(c: Cards, players: int = 2, round_: int = 1, **kwargs: Any) -> Any:
    hands = [c("tempura", "pudding"), c("sashimi", "pudding"), c("dumpling", "maki-3"), c("egg-nigiri", "wasabi")]
    return make_state(c, hands[:players], round_=round_, turn=DEAL[players] - 1, **kwargs), hands[:players]


def test_the_last_card_is_placed_automatically_and_the_round_scored_and_dealt_again() -> None:
    c = Cards()
    state, hands = round_end_state(c, tableaus=[c("tempura"), c("maki-2")])
    state, events = play_turn(state, [hands[0][:1], hands[1][:1]])
    assert [type(e) for e in events] == [CardPicked, CardPicked, CardsRevealed, CardsRevealed, RoundScored, HandsDealt]
    auto = events[3]
    assert auto.auto and auto.picks == ((hands[1][1],), (hands[0][1],))  # passed left, then placed
    scored = events[4]
    assert scored.round == 1
    assert scored.scores[0].breakdown == {
        "maki": 0,
        "tempura": 5,
        "sashimi": 0,
        "dumpling": 0,
        "nigiri": 0,
        "pudding": 0,
    }
    assert scored.scores[1].breakdown["maki"] == 6
    # Puddings are kept, everything else is discarded, and round 2 is dealt.
    assert state.puddings == ((hands[1][1],), (hands[0][1],))
    assert not any(IS_PUDDING[card] for card in state.discards) and len(state.discards) == 4
    assert state.round == 2 and state.turn == 1 and len(state.hands[0]) == DEAL[2]
    assert state.totals == (5, 6) and state.tableaus == ((), ())
    assert_conserved(state)


def test_the_deck_running_out_reshuffles_the_discards_but_never_the_kept_puddings() -> None:
    c = Cards()
    kept = [c("pudding", "pudding"), c("pudding")]
    discards = c(*["sashimi"] * 12, *["dumpling"] * 12, *["tempura"] * 10)
    state, hands = round_end_state(c, puddings=kept, discards=discards)
    # Leave 5 cards in the deck (and no pudding in the discards): 2 x 10 are needed.
    deck = [card for card in state.deck if not IS_PUDDING[card]]
    few = (*deck[:5], *(card for card in state.deck if IS_PUDDING[card]))
    state = msgspec.structs.replace(state, deck=tuple(sorted(few)), discards=(*discards, *deck[5:]))
    assert_conserved(state)
    state, events = play_turn(state, [hands[0][:1], hands[1][:1]])
    dealt = events[-1]
    assert isinstance(dealt, HandsDealt) and dealt.reshuffled and dealt.hand_size == DEAL[2]
    assert [len(hand or ()) for hand in dealt.hands] == [DEAL[2]] * 2
    cards = {card for hand in dealt.hands for card in hand or ()}
    assert set(few) <= cards  # the old deck is dealt first
    assert not any(KIND[card] == PUDDING and card in cards for card in (*kept[0], *kept[1]))
    assert not cards & set(state.puddings[0] + state.puddings[1])
    assert state.discards == ()
    assert_conserved(state)


def test_puddings_with_two_players_and_the_end_of_the_game() -> None:
    c = Cards()
    state, hands = round_end_state(c, round_=3, puddings=[c("pudding"), ()])
    state, events = play_turn(state, [hands[0][:1], hands[1][:1]])
    assert [type(e) for e in events[-2:]] == [RoundScored, PuddingsScored]
    final = events[-1]
    # Seat 0 keeps 1 + 1 puddings, seat 1 gets one: most +6, no penalty with two players.
    assert final.puddings == (2, 1)
    assert [s.breakdown["pudding"] for s in final.scores] == [6, 0]
    result = GAME.result(state)
    assert result is not None and state.awaiting == ()
    assert [s.total for s in result.scores] == list(state.totals)


def test_result_adds_up_every_round_and_the_puddings_by_category() -> None:
    def stage(*points: int) -> tuple[Any, ...]:
        return tuple(seat_score(seat, {**dict.fromkeys(CATEGORIES, 0), "maki": p}) for seat, p in enumerate(points))

    pudding = tuple(seat_score(seat, {**dict.fromkeys(CATEGORIES, 0), "pudding": p}) for seat, p in enumerate((6, -6)))
    result = final_result([stage(6, 3), stage(3, 6), stage(0, 6), pudding], puddings=(3, 0))
    assert result.scores[0].breakdown["maki"] == 9 and result.scores[0].breakdown["pudding"] == 6
    assert [s.total for s in result.scores] == [15, 9]
    assert result.winners == (0,) and result.ranking == (0, 1)


def test_a_tie_on_total_goes_to_the_most_puddings_then_is_shared() -> None:
    def stage(*totals: int) -> tuple[Any, ...]:
        return tuple(seat_score(seat, {**dict.fromkeys(CATEGORIES, 0), "nigiri": t}) for seat, t in enumerate(totals))

    result = final_result([stage(20, 20, 10)], puddings=(1, 3, 5))
    assert result.winners == (1,) and result.ranking == (1, 0, 2)
    shared = final_result([stage(20, 20, 10)], puddings=(2, 2, 5))
    assert shared.winners == (0, 1)


# --- every RuleViolation --------------------------------------------------------------------------


def test_rule_violations_of_decide() -> None:
    c = Cards()
    hands = [c("tempura", "sashimi", "dumpling"), c("maki-1", "maki-2", "maki-3")]
    state = make_state(c, hands)
    other = next(card for card in range(108) if card not in hands[0])
    assert violation(state, 0, Pick(cards=(108,))) == "unknown-card"
    assert violation(state, 0, Pick(cards=(-1,))) == "unknown-card"
    # Not ints (a caller in Python may send anything; True equals 1): refused, compiled too (test_compiled).
    for card in (True, 1.0, "1", None):
        assert violation(state, 0, Pick(cards=(card,))) == "unknown-card"  # type: ignore[arg-type]
    assert violation(state, 0, Pick(cards=(other,))) == "card-not-in-hand"
    assert violation(state, 0, Pick(cards=())) == "invalid-command"
    assert violation(state, 0, Pick(cards=(hands[0][0], hands[0][1]))) == "no-chopsticks"
    assert violation(state, 0, "pick") == "invalid-command"
    assert violation(state, 5, Pick(cards=(hands[0][0],))) == "not-your-turn"
    with_sticks = make_state(c, hands, tableaus=[c("chopsticks"), ()])
    assert violation(with_sticks, 0, Pick(cards=(hands[0][0], hands[0][0]))) == "invalid-command"


def test_table_violations_not_started_not_your_turn_finished() -> None:
    log = lobby.create_game(GAME, 2, None, 3, salt=bytes(16))
    table = lobby.replay(GAME, log)
    with pytest.raises(RuleViolation) as raised:
        lobby.act(GAME, table, 0, Pick(cards=(0,)), Chance(3, 1))
    assert raised.value.code == "game-not-started"

    table, log = new_table(2, seed=3)
    card = table.state.hands[0][0]
    table = act(table, log, 0, Pick(cards=(card,)))
    with pytest.raises(RuleViolation) as raised:
        lobby.act(GAME, table, 0, Pick(cards=(table.state.hands[0][1],)), Chance(3, len(log)))
    assert raised.value.code == "not-your-turn"

    while table.status == "active":
        seat = lobby.awaiting(GAME, table)[0]
        table = act(table, log, seat, GAME.legal_commands(table.state, seat)[0])
    with pytest.raises(RuleViolation) as raised:
        lobby.act(GAME, table, 0, Pick(cards=(0,)), Chance(3, len(log)))
    assert raised.value.code == "game-finished"
    with pytest.raises(RuleViolation) as raised:
        decide(table.state, 0, Pick(cards=(0,)), Chance(3, len(log)))
    assert raised.value.code == "game-finished"


def test_a_deck_of_exactly_the_cards_needed_is_dealt_without_reshuffling() -> None:
    c = Cards()
    state, hands = round_end_state(c, discards=c(*["sashimi"] * 12))
    puddings = [card for card in state.deck if IS_PUDDING[card]]
    deck = [card for card in state.deck if not IS_PUDDING[card]]
    kept = 2 * DEAL[2] - len(puddings)
    exact = (*deck[:kept], *puddings)
    state = msgspec.structs.replace(state, deck=tuple(sorted(exact)), discards=(*state.discards, *deck[kept:]))
    assert_conserved(state)
    state, events = play_turn(state, [hands[0][:1], hands[1][:1]])
    dealt = events[-1]
    assert isinstance(dealt, HandsDealt) and not dealt.reshuffled
    assert {card for hand in dealt.hands for card in hand or ()} == set(exact) and state.deck == ()


def test_the_deck_is_drawn_by_a_partial_fisher_yates_shuffle() -> None:
    """The shuffle is part of the record: a revealed seed must re-deal every finished game."""
    draws = iter([0.0, 0.5, 0.99])
    # Index 0 stays, index 1 swaps with 1 + int(0.5 * 5) = 3, index 2 with 2 + int(0.99 * 4) = 5.
    assert _draw([10, 11, 12, 13, 14, 15], 3, draws.__next__) == [10, 13, 15]
