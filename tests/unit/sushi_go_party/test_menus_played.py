"""Every suggested menu plays to its end at its most players, through the services, its people choosing
at random: what a menu's cards do is the rules' (tests/e2e/test_party_menus.py sends a menu through
the API, every way there is to choose one, and plays those games to their end through it)."""

from __future__ import annotations

import random

import pytest

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.domain.sushi_go_party.options import SUGGESTED
from kaiten.services.commands import CreateGame, GetTable, NewSeat
from kaiten.services.games import Games
from tests.bots import play_to_the_end


@pytest.mark.parametrize("menu", [menu.id for menu in SUGGESTED])
async def test_every_suggested_menu_plays_to_the_end(menu: str) -> None:
    players = next(suggested for suggested in SUGGESTED if suggested.id == menu).max_players
    games = Games(InMemoryEventStore(), SystemClock(), SecureIds(), people=InMemoryPeople())
    seats = tuple(NewSeat(name=f"P{seat}") for seat in range(players))
    created = await games.create(CreateGame("sushi-go-party", players, {"menu": menu}, len(menu), seats))
    await play_to_the_end(games, created.id, created.tokens, random.Random(menu))
    table = await games.view(GetTable(created.id))
    assert table.status == "finished"
    assert table.table.options.menu == menu
