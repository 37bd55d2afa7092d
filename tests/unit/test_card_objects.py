"""The API shows every card of a view as `{"id", "slug"}` and every marked tuple as an object; nothing
else changes: put the ids back and the view is the one the rules computed, value for value."""

from __future__ import annotations

import random
import typing
from typing import Annotated, Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kaiten.api.contract.card_objects import Card, Shown, prefixed
from kaiten.api.contract.views import views_of
from kaiten.domain.catalog import GAMES
from kaiten.domain.engine import CardId, record
from tests.unit.bot_games import new_table, step


def states_along_a_game(game_id: str, seed: int) -> list[Any]:
    """Every seventh state of a game of random bots, from the deal to the end."""
    game = GAMES[game_id]
    table, events = new_table(game, seed, ["random"] * game.min_players)
    rng = random.Random(seed)
    states = []
    while table.status == "active":
        if len(events) % 7 == 0:
            states.append(table.state)
        table = step(game, table, events, seed, rng).table
    return [*states, table.state]


def unshown(shown: Any, compact: Any, slugs_of: dict[str, Any]) -> None:
    """Asserts that `shown` is `compact` with its cards as objects (and records as objects)."""
    if isinstance(shown, dict) and set(shown) == {"id", "slug"} and isinstance(compact, int):
        assert shown["id"] == compact and shown["slug"] in slugs_of["any"], (shown, compact)
        return
    if isinstance(shown, dict) and isinstance(compact, list | tuple):  # a record: its fields in order
        assert len(shown) == len(compact)
        for value, item in zip(shown.values(), compact, strict=True):
            unshown(value, item, slugs_of)
        return
    if isinstance(shown, dict):
        assert set(shown) == set(compact)
        for key in shown:
            unshown(shown[key], compact[key], slugs_of)
        return
    if isinstance(shown, list | tuple):
        assert isinstance(compact, list | tuple) and len(shown) == len(compact)
        for value, item in zip(shown, compact, strict=True):
            unshown(value, item, slugs_of)
        return
    assert shown == compact


@pytest.mark.parametrize("game_id", sorted(GAMES))
@given(seed=st.integers(0, 2**32), seat=st.sampled_from([None, 0, 1]))
def test_a_shown_view_is_the_computed_view_with_its_cards_as_objects(game_id: str, seed: int, seat: int | None):
    game = GAMES[game_id]
    views = views_of(game_id)
    slugs = {"any": {slug for deck in game.decks.values() for slug in deck}}
    for state in states_along_a_game(game_id, seed):
        compact = game.view(state, seat)
        shown = views.show_view(compact)
        served = msgspec.to_builtins(shown)
        unshown(served, msgspec.to_builtins(compact), slugs)
        # What is served is what the schema says: it reads back as the shown type.
        assert msgspec.convert(served, type(shown)) == shown


def card_marks(tp: Any, seen: set[Any] | None = None) -> int:
    """How many ints marked as a card the type holds, in any depth."""
    seen = set() if seen is None else seen
    if tp in seen:
        return 0
    seen.add(tp)
    if typing.get_origin(tp) is Annotated:
        base, *marks = typing.get_args(tp)
        marked = any(isinstance(mark, msgspec.Meta) and mark.extra and "deck" in mark.extra for mark in marks)
        return int(marked) + card_marks(base, seen)
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return sum(card_marks(field.type, seen) for field in msgspec.structs.fields(tp))
    return sum(card_marks(arg, seen) for arg in typing.get_args(tp) if arg is not Ellipsis)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_card_of_a_view_is_shown_as_a_card(game_id: str) -> None:
    """The view marks its cards, and no marked int is left in the type the API shows."""
    view = GAMES[game_id].view_type
    assert card_marks(view) > 0
    assert card_marks(Shown(GAMES[game_id].decks, "X").type_of(view)) == 0


Other = Annotated[int, msgspec.Meta(extra={"deck": "other"})]


class View(msgspec.Struct):
    card: CardId
    others: tuple[Other, ...]
    pair: Annotated[tuple[CardId, str], record("Kept", "card", "as")] | None
    count: int


def test_cards_of_each_deck_take_their_deck_slugs() -> None:
    shown = Shown({"cards": ("tempura", "wasabi"), "other": ("x", "y")}, "Test")
    convert = shown.converter(View)
    value = msgspec.json.decode(msgspec.json.encode(convert(View(card=1, others=(0, 1), pair=(0, "x"), count=3))))
    assert value == {
        "card": {"id": 1, "slug": "wasabi"},
        "others": [{"id": 0, "slug": "x"}, {"id": 1, "slug": "y"}],
        "pair": {"card": {"id": 0, "slug": "tempura"}, "as": "x"},
        "count": 3,
    }
    assert msgspec.to_builtins(convert(View(card=0, others=(), pair=None, count=0)))["pair"] is None
    assert shown.type_of(View).__name__ == "TestView"
    assert shown.type_of(int) is int and shown.converter(int)(5) == 5


def test_a_type_without_cards_is_shown_as_it_is() -> None:
    class Plain(msgspec.Struct):
        n: int

    assert Shown({}, "P").type_of(Plain) is Plain


def test_names_share_the_words_prefix_and_name_have_in_common() -> None:
    assert prefixed("Party", "PartyView") == "PartyView"
    assert prefixed("Derby", "DerbyDeckReshuffled") == "DerbyDeckReshuffled"
    assert prefixed("SushiGo", "Pick") == "SushiGoPick"
    assert prefixed("Spin", "SpinView") == "SpinView"


def test_card_objects_have_the_ids_and_slugs_of_their_deck() -> None:
    card = Card(id=3, slug="tempura")
    assert msgspec.json.encode(card) == b'{"id":3,"slug":"tempura"}'
