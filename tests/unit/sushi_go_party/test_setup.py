"""Options, restrictions, menus, menu selection modes, the deal and the variants."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kaiten.domain import lobby
from kaiten.domain.chance import Chance
from kaiten.domain.engine import RuleViolation
from kaiten.domain.sushi_go_party.cards import DEAL, DESSERTS_PER_ROUND, SLUG, TYPE
from kaiten.domain.sushi_go_party.commands import ChooseMenu, Pick, ProposeMenu, Vote
from kaiten.domain.sushi_go_party.events import MenuChosen, RoundDealt
from kaiten.domain.sushi_go_party.game import SUSHI_GO_PARTY as GAME
from kaiten.domain.sushi_go_party.legal import legal_commands, menu_choices
from kaiten.domain.sushi_go_party.options import SUGGESTED, CustomMenu, check_custom, proposal_menus, suggested_for
from kaiten.domain.sushi_go_party.state import PartyState

from .helpers import check_conservation, menu, new_table, play_table


def created(players: int, options: dict[str, Any] | None = None, seed: int = 1) -> lobby.Table:
    return new_table(seed, ["random"] * players, options)[0]


def refused(players: int, options: dict[str, Any]) -> str:
    with pytest.raises(RuleViolation) as error:
        lobby.create_game(GAME, players, options, 1, salt=bytes(16))
    return error.value.code


def state_of(table: lobby.Table) -> PartyState:
    state: PartyState = table.state
    return state


# --- restrictions and options ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [7, 8])
@pytest.mark.parametrize("special", ["menu", "special-order"])
def test_menu_and_special_order_not_with_7_or_8_players(players: int, special: str) -> None:
    option = menu(specials=("wasabi", special))
    assert refused(players, {"menu": option}) == "card-not-for-player-count"
    created(6, {"menu": option})


@pytest.mark.parametrize("card", ["spoon", "edamame"])
def test_spoon_and_edamame_not_with_2_players(card: str) -> None:
    option = menu(specials=("wasabi", "spoon")) if card == "spoon" else menu(appetizers=("tempura", "edamame", "eel"))
    assert refused(2, {"menu": option}) == "card-not-for-player-count"
    created(3, {"menu": option})


def test_suggested_menus_fit_their_ranges() -> None:
    assert refused(7, {"menu": "sushi-go"}) == "menu-not-for-player-count"
    assert refused(2, {"menu": "master-menu"}) == "menu-not-for-player-count"
    assert refused(4, {"menu": "menu-of-the-day"}) == "unknown-menu"
    assert [menu.id for menu in suggested_for(8)] == ["my-first-meal", "master-menu", "cutthroat-combo", "big-banquet"]
    assert [menu.id for menu in suggested_for(2)] == ["my-first-meal", "sushi-go", "dinner-for-two"]


@pytest.mark.parametrize(
    "option",
    [
        menu(roll="futomaki"),
        menu(appetizers=("tempura", "sashimi")),
        menu(appetizers=("tempura", "tempura", "sashimi")),
        menu(appetizers=("tempura", "sashimi", "wasabi")),
        menu(specials=("wasabi",)),
        menu(specials=("wasabi", "tempura")),
        menu(dessert="mochi"),
    ],
)
def test_custom_menus_must_have_the_right_shape(option: dict[str, Any]) -> None:
    assert refused(4, {"menu": option}) == "invalid-menu"


def test_option_types_are_checked() -> None:
    assert refused(4, {"menu": 3}) == "invalid-options"
    assert refused(4, {"menu": {"roll": "maki"}}) == "invalid-options"
    assert refused(4, {"colour": "blue"}) == "invalid-options"
    assert refused(3, {"two_player_variant": True}) == "invalid-options"


def test_every_suggested_menu_plays_a_whole_game() -> None:
    for index, suggested in enumerate(SUGGESTED):
        players = suggested.max_players if index % 2 else suggested.min_players
        table, _, _ = play_table(index, ["random"] * players, {"menu": suggested.id}, check=True)
        assert state_of(table).menu == suggested.spec()


def test_random_menu_fits_the_player_count() -> None:
    for players in range(2, 9):
        for seed in range(3):
            spec = state_of(created(players, seed=seed)).menu
            assert spec is not None and spec.id in {menu.id for menu in suggested_for(players)}


def test_custom_menu_option_makes_the_deck() -> None:
    option = menu(roll="uramaki", appetizers=("onigiri", "eel", "edamame"), specials=("soy-sauce", "spoon"))
    state = state_of(created(5, {"menu": {**option, "dessert": "fruit"}}))
    assert state.menu is not None and state.menu.id is None
    types = {TYPE[card] for hand in state.hands for card in hand} | {TYPE[card] for card in state.deck}
    assert types <= {"nigiri", "uramaki", "onigiri", "eel", "edamame", "soy-sauce", "spoon", "fruit"}
    assert len(state.deck) + sum(len(hand) for hand in state.hands) == 12 + 12 + 8 * 3 + 3 * 2 + 5
    check_conservation(state)


# --- the deal -------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 9))
def test_deal_sizes_and_desserts_per_round(players: int) -> None:
    table, events, _ = play_table(players, ["random"] * players, {"menu": "my-first-meal"})
    deals = [event for event in events if isinstance(event, RoundDealt)]
    assert [deal.hand_size for deal in deals] == [DEAL[players]] * 3
    assert tuple(deal.dessert_count for deal in deals) == DESSERTS_PER_ROUND[players]
    for deal in deals:
        assert all(hand is not None and len(hand) == DEAL[players] for hand in deal.hands)
        assert deal.desserts is not None and all(SLUG[card] == "green-tea-ice-cream" for card in deal.desserts)
    state = state_of(table)
    assert len(state.dessert_pile) == 15 - sum(DESSERTS_PER_ROUND[players])
    check_conservation(state)


def test_two_player_variant_deals_5_then_draws_on_turns_2_to_6() -> None:
    table, events = new_table(3, ["random", "random"], {"menu": "sushi-go", "two_player_variant": True})
    state = state_of(table)
    assert [len(hand) for hand in state.hands] == [5, 5]
    sizes = []
    for _ in range(10):
        sizes.append(len(state.hands[0]))
        for seat in range(2):
            decision = lobby.act(GAME, table, seat, Pick(card=state.hands[seat][0]), Chance(3, len(events)))
            events.extend(decision.events)
            table = decision.table
            state = state_of(table)
        check_conservation(state)
    assert sizes == [5, 5, 5, 5, 5, 5, 4, 3, 2, 1]
    assert state.round == 2 and len(state.hands[0]) == 5


def test_pass_both_ways_passes_right_in_round_2() -> None:
    for round_, direction in ((1, 1), (2, -1), (3, 1)):
        table, events = new_table(5, ["random"] * 3, {"menu": "sushi-go", "pass_both_ways": True})
        while state_of(table).round < round_:
            seat = lobby.next_bot_seat(GAME, table)
            assert seat is not None
            command = legal_commands(state_of(table), seat)[0]
            decision = lobby.act(GAME, table, seat, command, Chance(5, len(events)))
            events.extend(decision.events)
            table = decision.table
        state = state_of(table)
        before = state.hands
        for seat in range(3):
            decision = lobby.act(GAME, table, seat, Pick(card=state.hands[seat][0]), Chance(5, len(events)))
            events.extend(decision.events)
            table = decision.table
        after = state_of(table).hands
        for seat in range(3):
            assert after[(seat + direction) % 3] == before[seat][1:]
        assert GAME.view(state_of(table), 0).passing == ("right" if round_ == 2 else "left")


# --- menu selection -------------------------------------------------------------------------------


def test_first_player_picks_a_suggested_menu() -> None:
    table = created(7, {"menu": "first-player"})
    state = state_of(table)
    assert state.phase == "select" and GAME.awaiting(state) == (0,)
    assert legal_commands(state, 1) == []
    commands = legal_commands(state, 0)
    assert [command.menu for command in commands] == [menu.id for menu in suggested_for(7)]
    with pytest.raises(RuleViolation) as error:
        lobby.act(GAME, table, 0, ChooseMenu(menu="sushi-go"), Chance(1, 9))
    assert error.value.code == "menu-not-for-player-count"
    with pytest.raises(RuleViolation) as error:
        lobby.act(GAME, table, 0, ChooseMenu(menu=CustomMenu(**menu())), Chance(1, 9))
    assert error.value.code == "invalid-menu"
    with pytest.raises(RuleViolation) as error:
        lobby.act(GAME, table, 0, Pick(card=0), Chance(1, 9))
    assert error.value.code == "unexpected-command"
    decision = lobby.act(GAME, table, 0, ChooseMenu(menu="big-banquet"), Chance(1, 9))
    assert isinstance(decision.events[0], MenuChosen) and decision.events[0].how == "first-player"
    assert isinstance(decision.events[1], RoundDealt)
    assert state_of(decision.table).phase == "pick"


def test_build_takes_any_valid_custom_menu() -> None:
    table = created(8, {"menu": "build"})
    state = state_of(table)
    commands = legal_commands(state, 0)
    assert 8 < len(commands) < 400
    for command in commands:
        if isinstance(command.menu, CustomMenu):
            check_custom(command.menu, 8)
    bad = CustomMenu(**menu(specials=("menu", "tea")))
    with pytest.raises(RuleViolation) as error:
        lobby.act(GAME, table, 0, ChooseMenu(menu=bad), Chance(1, 9))
    assert error.value.code == "card-not-for-player-count"
    unlisted = CustomMenu(**menu(roll="uramaki", appetizers=("eel", "onigiri", "edamame"), specials=("spoon", "tea")))
    assert unlisted not in commands
    decision = lobby.act(GAME, table, 0, ChooseMenu(menu=unlisted), Chance(1, 9))
    spec = state_of(decision.table).menu
    assert spec is not None and spec.id is None and spec.appetizers == ("eel", "onigiri", "edamame")


def test_proposal_menus_cover_every_type_in_every_slot() -> None:
    menus = proposal_menus(4)
    assert {m.roll for m in menus} == {"maki", "temaki", "uramaki"}
    assert {a for m in menus for a in m.appetizers} >= {"tempura", "edamame", "eel", "onigiri", "miso-soup"}
    assert {s for m in menus for s in m.specials} == {
        "chopsticks",
        "spoon",
        "menu",
        "takeout-box",
        "special-order",
        "tea",
        "wasabi",
        "soy-sauce",
    }
    assert {m.dessert for m in menus} == {"pudding", "green-tea-ice-cream", "fruit"}
    assert len(menu_choices(4)) == len(set(map(msgspec.json.encode, menu_choices(4))))


def vote_table(players: int) -> tuple[lobby.Table, list[Any]]:
    return new_table(2, ["random"] * players, {"menu": "vote"})


def act(table: lobby.Table, events: list[Any], seat: int, command: Any) -> lobby.Table:
    decision = lobby.act(GAME, table, seat, command, Chance(2, len(events)))
    events.extend(decision.events)
    return decision.table


def test_vote_a_majority_approves() -> None:
    table, events = vote_table(4)
    assert GAME.awaiting(state_of(table)) == (0,)
    table = act(table, events, 0, ProposeMenu(menu="party-sampler"))
    assert GAME.awaiting(state_of(table)) == (1, 2, 3)
    assert legal_commands(state_of(table), 1) == [Vote(approve=True), Vote(approve=False)]
    table = act(table, events, 1, Vote(approve=True))
    table = act(table, events, 2, Vote(approve=True))
    assert state_of(table).phase == "select"
    table = act(table, events, 3, Vote(approve=False))
    state = state_of(table)
    assert state.phase == "pick" and state.menu is not None and state.menu.id == "party-sampler"
    assert any(isinstance(event, MenuChosen) and event.how == "vote" for event in events)


def test_vote_a_tie_rejects_and_the_next_seat_proposes() -> None:
    table, events = vote_table(4)
    table = act(table, events, 0, ProposeMenu(menu="party-sampler"))
    table = act(table, events, 1, Vote(approve=True))
    table = act(table, events, 2, Vote(approve=False))
    table = act(table, events, 3, Vote(approve=False))
    state = state_of(table)
    assert state.phase == "select" and GAME.awaiting(state) == (1,)
    with pytest.raises(RuleViolation) as error:
        act(table, events, 1, Vote(approve=True))
    assert error.value.code == "unexpected-command"


def test_vote_after_every_seat_proposed_the_most_approved_stands_earliest_on_ties() -> None:
    table, events = vote_table(4)
    proposals = ["my-first-meal", "sushi-go", "big-banquet", "party-sampler"]
    approvals = {0: [False] * 3, 1: [True, False, False], 2: [False, True, False], 3: [False] * 3}  # 1, 2, 2, 1
    for proposer, proposal in enumerate(proposals):
        table = act(table, events, proposer, ProposeMenu(menu=proposal))
        voters = [seat for seat in range(4) if seat != proposer]
        for voter, approve in zip(voters, approvals[proposer], strict=True):
            table = act(table, events, voter, Vote(approve=approve))
    state = state_of(table)
    assert state.menu is not None and state.menu.id == "sushi-go"
    assert state.phase == "pick"


def test_vote_proposals_obey_the_restrictions() -> None:
    table, events = vote_table(2)
    with pytest.raises(RuleViolation) as error:
        act(table, events, 0, ProposeMenu(menu=CustomMenu(**menu(specials=("spoon", "tea")))))
    assert error.value.code == "card-not-for-player-count"
    table = act(table, events, 0, ProposeMenu(menu=CustomMenu(**menu(specials=("menu", "tea")))))
    table = act(table, events, 1, Vote(approve=True))
    state = state_of(table)
    assert state.menu is not None and state.menu.specials == ("menu", "tea")


@pytest.mark.parametrize("mode", ["first-player", "build", "vote"])
def test_selection_modes_play_whole_games(mode: str) -> None:
    for players in (2, 5, 8):
        table, _, _ = play_table(players, (["random", "greedy"] * 4)[:players], {"menu": mode})
        assert state_of(table).phase == "over"


def test_a_vote_is_true_or_false() -> None:
    table, events = vote_table(3)
    table = act(table, events, 0, ProposeMenu(menu="sushi-go"))
    with pytest.raises(RuleViolation) as error:
        act(table, events, 1, Vote(approve=1))  # type: ignore[arg-type]
    assert error.value.code == "invalid-command"
