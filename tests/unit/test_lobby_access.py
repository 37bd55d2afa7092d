"""Invitations to private games and the seats they open, as lobby events (domain/lobby/)."""

from __future__ import annotations

import hashlib

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kaiten.domain import lobby
from kaiten.domain.catalog import get_game
from kaiten.domain.engine import NotNow, RuleViolation

GAME = get_game("sushi-go")


def table(visibility: lobby.Visibility = "private") -> lobby.Table:  # type: ignore[type-arg]
    events = lobby.create_game(GAME, 3, None, 7, b"salt", visibility)
    return lobby.replay(GAME, events)


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def test_a_public_game_takes_anyone_and_a_private_one_only_the_invited() -> None:
    assert lobby.invited(table("public"), None)
    private = table()
    assert not lobby.invited(private, None)
    issued = lobby.issue_invitation(private, 0, "i1", code_hash("c1"))
    private = lobby.evolve_table(GAME, private, issued)
    assert lobby.invited(private, code_hash("c1")) and not lobby.invited(private, code_hash("c2"))
    private = lobby.evolve_table(GAME, private, lobby.revoke_invitation(private, 0, "i1"))
    assert not lobby.invited(private, code_hash("c1"))


def test_an_unknown_invitation_cannot_be_revoked() -> None:
    with pytest.raises(RuleViolation) as refused:
        lobby.revoke_invitation(table(), 0, "nope")
    assert refused.value.code == "unknown-invitation"


def test_the_visibility_and_the_rematch_link_are_recorded_only_when_they_say_something() -> None:
    public = lobby.create_game(GAME, 2, None, 7, b"salt")[0]
    assert b"visibility" not in msgspec.json.encode(public) and b"rematch_of" not in msgspec.json.encode(public)
    rematch = lobby.create_game(GAME, 2, None, 7, b"salt", "private", "g-1")[0]
    folded = lobby.replay(GAME, [rematch])
    assert (folded.visibility, folded.rematch_of) == ("private", "g-1")


@pytest.mark.parametrize("status", ["finished", "abandoned"])
def test_a_game_that_is_over_takes_no_invitation(status: lobby.Status) -> None:
    over = msgspec.structs.replace(table(), status=status)
    with pytest.raises(NotNow):
        lobby.issue_invitation(over, 0, "i1", code_hash("c"))


def test_a_rematch_is_created_with_the_options_recorded_clock_included() -> None:
    options = {"clock": {"turn_seconds": 60, "bank_seconds": 120}}
    clocked = lobby.replay(GAME, lobby.create_game(GAME, 2, options, 7, b"salt"))
    again = lobby.replay(GAME, lobby.create_game(GAME, 2, lobby.recorded_options(clocked), 8, b"salt"))
    assert clocked.clock is not None
    assert (again.options, again.clock) == (clocked.options, clocked.clock)


operations = st.lists(st.tuples(st.booleans(), st.integers(min_value=0, max_value=5)), max_size=30)


@given(operations)
def test_the_live_invitations_are_those_issued_and_not_revoked(steps: list[tuple[bool, int]]) -> None:
    """Issue (True) or revoke (False) invitation n, in any order: the table keeps exactly the live ones."""
    current, live = table(), dict[str, str]()
    for issue, number in steps:
        invitation_id = f"i{number}"
        if issue and invitation_id not in live:
            event = lobby.issue_invitation(current, 1, invitation_id, code_hash(f"c{number}"))
            live[invitation_id] = code_hash(f"c{number}")
        elif not issue and invitation_id in live:
            event = lobby.revoke_invitation(current, 1, invitation_id)
            del live[invitation_id]
        else:
            continue
        current = lobby.evolve_table(GAME, current, event)
    assert dict(current.invitations) == live
    for number in range(6):
        assert lobby.invited(current, code_hash(f"c{number}")) == (f"i{number}" in live)
