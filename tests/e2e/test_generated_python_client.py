"""A client generated from openapi/openapi.json by openapi-python-client plays every game, typed.

This is what an integrating Python app does: generate a client from the document, then, on a server
that needs app keys (as production runs), create games with its app key as the client's token, play
them to the end with the seat tokens the answer gives, read the log, a replay, statistics and the
leaderboard through the client's typed models only: attributes, never `additional_properties`, never
a `to_dict` round trip (a legal command goes back as the body exactly as it came). The generator must
print no warning.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import random
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from uuid import UUID

import attrs
import httpx
import pytest

from kaiten.api.bootstrap import Services
from kaiten.domain.catalog import GAMES
from tests.e2e.play import BOTS_SECONDS
from tests.e2e.serving import serving
from tests.projecting import settle_all

pytestmark = pytest.mark.one_store

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
MAX_COMMANDS = 2000

#: Per game: the seats (None: a person) and the player count.
TABLES: dict[str, list[str | None]] = {
    "sushi-go": [None, "greedy"],
    "sushi-go-party": [None, None, "random"],
    "spin-some-for-dim-sum": [None, "greedy", "random"],
    "dim-sum-derby": ["greedy", None, "random"],
}


@pytest.fixture(scope="session")
def kaiten_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    folder = tmp_path_factory.mktemp("generated")
    bin_dir = str(Path(sys.executable).parent)
    generated = subprocess.run(
        [
            os.path.join(bin_dir, "openapi-python-client"),
            "generate",
            "--path",
            str(DOCUMENT),
            "--meta",
            "none",
            "--output-path",
            str(folder / "kaiten_client"),
        ],
        capture_output=True,
        text=True,
        # The generator formats its output with ruff, which it looks for on the PATH.
        env={**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")},
        check=False,
    )
    output = generated.stdout + generated.stderr
    assert generated.returncode == 0, output
    assert "warning" not in output.lower(), output
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("kaiten_client")
    finally:
        sys.path.remove(str(folder))
        for name in [module for module in sys.modules if module.split(".")[0] == "kaiten_client"]:
            del sys.modules[name]


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    """A server that needs app keys: without one, a caller creates nothing."""
    async with serving(database_url, open_app=None) as built:
        yield built


class Api:
    """The generated client's operations and models, over the app in this process: `app` sends an
    app's key (it creates games and reads the app's statistics), `bearer(token)` a seat's token."""

    def __init__(self, package: ModuleType, app: Any, app_key: str) -> None:
        self.package = package
        self.models = importlib.import_module("kaiten_client.models")
        self.transport = httpx.ASGITransport(app=app)
        self.anonymous = package.Client(base_url="http://kaiten.test", httpx_args={"transport": self.transport})
        self.app = self.bearer(app_key)

    def op(self, name: str) -> Any:
        for group in ("games", "catalog", "history"):
            try:
                return importlib.import_module(f"kaiten_client.api.{group}.{name}")
            except ModuleNotFoundError:
                continue
        raise LookupError(name)

    def bearer(self, token: str) -> Any:
        """A client whose requests send `token` (an app key, a seat token) as their Bearer token."""
        return self.package.AuthenticatedClient(
            base_url="http://kaiten.test", token=token, httpx_args={"transport": self.transport}
        )

    def model(self, game: str, name: str) -> Any:
        return getattr(self.models, f"{GAMES[game].type_prefix}{name}")


async def project(services: Services) -> None:
    await settle_all(services.projection_runners)


async def moved_on(api: Api, game: str, game_id: UUID, reader: Any, version: int) -> Any:
    """The table, read through the client until it is past `version` (the bots move in the background)."""
    async with asyncio.timeout(BOTS_SECONDS):
        while True:
            table = await api.op("get_table").asyncio(game_id, client=reader)
            assert isinstance(table, api.model(game, "TableView")), table
            if table.version > version:
                return table
            await asyncio.sleep(0.01)


async def play_to_the_end(api: Api, game: str, seed: int) -> tuple[UUID, dict[int, Any]]:
    """A game of `game` created and played through the client; its id and the seats' clients."""
    seats = [
        api.models.SeatRequest(bot=bot) if bot else api.models.SeatRequest(name=f"P{i}", player_id=f"p{i}")
        for i, bot in enumerate(TABLES[game])
    ]
    body = api.model(game, "CreateGame")(game=game, players=len(seats), seats=seats, seed=seed)
    # Without the app's key, the server creates nothing.
    refused = await api.op("create_game").asyncio(client=api.anonymous, body=body)
    assert isinstance(refused, api.models.Problem) and refused.code == "app-key-required", refused
    created = await api.op("create_game").asyncio(client=api.app, body=body)
    assert isinstance(created, api.model(game, "CreatedGame")), created
    players = {token.seat: api.bearer(token.token) for token in created.seat_tokens}
    assert sorted(players) == [i for i, bot in enumerate(TABLES[game]) if bot is None]
    rng = random.Random(seed)
    table = created
    for _ in range(MAX_COMMANDS):
        if table.status == api.models.GameStatus.FINISHED:
            return created.id, players
        people = [seat for seat in table.awaiting if seat in players]
        if not people:
            # The table awaits bots only: they move in the background.
            table = await moved_on(api, game, created.id, next(iter(players.values())), table.version)
            continue
        seat = rng.choice(people)
        legal = await api.op("list_legal_commands").asyncio(created.id, client=players[seat])
        assert isinstance(legal, api.model(game, "LegalCommands")) and legal.seat == seat, legal
        command = rng.choice(legal.commands)
        outcome = await api.op("send_command").asyncio(created.id, client=players[seat], body=command)
        assert isinstance(outcome, api.model(game, "CommandOutcome")), outcome
        assert outcome.version > legal.version
        table = await api.op("get_table").asyncio(created.id, client=players[seat])
        assert isinstance(table, api.model(game, "TableView")), table
        assert table.viewer.seat == seat and table.state is not None
    raise AssertionError(f"{game} did not finish within {MAX_COMMANDS} commands")


@pytest.fixture
async def api(kaiten_client: ModuleType, client: Any, services: Services) -> Api:
    issued = await services.apps.create(f"generated-python-{uuid.uuid4().hex[:12]}")
    return Api(kaiten_client, client.app, issued.key)


@pytest.mark.parametrize("game", sorted(TABLES))
async def test_a_generated_client_plays_a_whole_game_with_typed_models(
    api: Api, services: Services, game: str, database_url: str
) -> None:
    game_id, players = await play_to_the_end(api, game, seed=11)
    reader = next(iter(players.values()))

    table = await api.op("get_table").asyncio(game_id, client=reader)
    assert table.status == api.models.GameStatus.FINISHED
    assert table.result.winners and sorted(score.seat for score in table.result.scores) == list(range(len(table.seats)))
    assert isinstance(table.full_state, api.model(game, "State"))

    page = await api.op("list_events").asyncio(game_id, client=reader, after=0, limit=1000)
    assert isinstance(page, api.model(game, "EventPage")) and page.last_version == table.version
    assert [event.version for event in page.events] == list(range(1, table.version + 1))
    first, last = page.events[0].data, page.events[-1].data
    assert isinstance(first, api.model(game, "GameCreated")) and first.game == game
    assert isinstance(last, api.model(game, "GameFinished")) and last.result.winners == table.result.winners
    breakdown = table.result.scores[0].breakdown
    assert isinstance(breakdown, api.model(game, "Breakdown"))
    # Every category is an attribute of its own (an unscored one is Unset).
    points = [getattr(breakdown, field.name) for field in attrs.fields(type(breakdown))]
    assert table.result.scores[0].total == sum(value for value in points if isinstance(value, int))

    middle = table.version // 2
    replayed = await api.op("replay_game").asyncio(game_id, client=reader, at=middle)
    assert isinstance(replayed, api.model(game, "TableView")) and replayed.version == middle

    # The app's records are read with its key: its own games, players and ratings.
    await project(services)
    stats = await api.op("get_game_stats").asyncio(game, client=api.app)
    assert isinstance(stats, api.models.GameStats) and stats.games == 1
    assert sum(pick.picks for pick in stats.pick_rates) > 0
    person = TABLES[game].index(None)
    player = await api.op("get_player_stats").asyncio(f"p{person}", client=api.app)
    assert isinstance(player, api.models.PlayerStats)
    assert [entry.game for entry in player.games] == [game]
    board = await api.op("get_leaderboard").asyncio(game, client=api.app)
    assert isinstance(board, api.models.Leaderboard) and board.game == game


async def test_the_generated_client_reads_the_catalog_and_problems(api: Api) -> None:
    catalog = await api.op("list_catalog").asyncio(client=api.anonymous)
    assert sorted(entry.id for entry in catalog.games) == sorted(GAMES)
    for summary in catalog.games:
        assert {bot.id for bot in summary.bots} >= {"random", "greedy"}
        assert all(bot.description for bot in summary.bots)
    party = await api.op("get_catalog_game").asyncio("sushi-go-party", client=api.anonymous)
    assert isinstance(party, api.model("sushi-go-party", "CatalogEntry"))
    missing = await api.op("get_table").asyncio(UUID(int=0), client=api.bearer("nobody"))
    assert isinstance(missing, api.models.Problem) and missing.code == "game-not-found" and missing.status == 404
