"""What docs/environments.md and the README's "For researchers" section say is what the code does."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

import kaiten.environments.pettingzoo_env
from kaiten.domain.catalog import GAMES
from kaiten.domain.lobby import create_game, evolve_table, rules_chance, take_seat
from kaiten.environments.games import get_spec
from kaiten.environments.openspiel_game import short_name
from kaiten.environments.pettingzoo_env import env

ROOT = Path(__file__).resolve().parents[3]
DOCS = (ROOT / "docs" / "environments.md").read_text()


def researchers_section() -> str:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("## For researchers")
    return readme[start : readme.index("\n## ", start + 1)]


def players_of(cell: str) -> list[list[int]]:
    """`2 / 3-6 / 7-8` -> [[2], [3, 4, 5, 6], [7, 8]]."""
    groups = []
    for group in cell.split("/"):
        low, _, high = group.strip().partition("-")
        groups.append(list(range(int(low), int(high or low) + 1)))
    return groups


def test_the_size_table_is_every_game_and_player_count() -> None:
    rows = re.findall(r"^\| `([a-z-]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", DOCS, re.MULTILINE)
    assert sorted(row[0] for row in rows) == sorted(GAMES)
    for game, players_cell, actions_cell, observation_cell in rows:
        spec = get_spec(game)
        groups = players_of(players_cell)
        counts = [players for group in groups for players in group]
        assert counts == list(range(GAMES[game].min_players, GAMES[game].max_players + 1)), game
        actions = [int(number) for number in re.findall(r"\d+", actions_cell.split("(")[0])]
        assert len(actions) in (1, len(groups)), game
        for group, size in zip(groups, actions * len(groups) if len(actions) == 1 else actions, strict=True):
            assert {len(spec.actions(players)) for players in group} == {size}, game
        linear = re.fullmatch(r"(\d+) \+ (\d+) per seat beyond 2(?: \(.*\))?", observation_cell.strip())
        if linear:
            base, per_seat = int(linear[1]), int(linear[2])
            expected = [base + per_seat * (players - 2) for players in counts]
        else:
            expected = [int(number) for number in observation_cell.split("/")]
        assert [spec.observation_size(players) for players in counts] == expected, game


def service_deal(game_id: str, players: int, seed: int) -> object:
    """The deal of a game the service creates with this seed (as `kaiten simulate` and the API do)."""
    game = GAMES[game_id]
    log = create_game(game, players, None, seed, salt=bytes(16))
    table = evolve_table(game, None, log[0])
    version = len(log)
    for _ in range(players):
        decision = take_seat(game, table, rules_chance(table, version), bot="random")
        table, version = decision.table, version + len(decision.events)
    return table.state


def test_the_docs_say_a_seed_reproduces_the_environments_game_not_the_services() -> None:
    table = env("sushi-go", 3)
    table.reset(seed=7)
    assert table.match is not None and table.match.state != service_deal("sushi-go", 3, 7)
    module = kaiten.environments.pettingzoo_env.__doc__ or ""
    for text in (DOCS, module, researchers_section()):
        flat = " ".join(text.split())
        assert "as the service would" not in flat
    for text in (DOCS, module):
        assert "not the deal of a service game" in " ".join(text.split())


def ismcts_snippet() -> str:
    blocks = re.findall(r"```python\n(.*?)```", researchers_section(), re.DOTALL)
    (snippet,) = [block for block in blocks if "ISMCTSBot" in block]
    return snippet


#: How the README's snippet loads its game, and (in a comment) a drafting game's turn-based form.
LOADED = 'pyspiel.load_game("kaiten_spin_some_for_dim_sum", {"players": 2})'
TURN_BASED = '# game = pyspiel.load_game("kaiten_sushi_go", {"players": 2, "turn_based": True})'


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_readmes_ismcts_snippet_runs_for_every_game(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    snippet = ismcts_snippet()
    assert snippet.count(LOADED) == 1 and snippet.count(TURN_BASED) == 1
    if game in ("sushi-go", "sushi-go-party"):
        loaded = TURN_BASED.removeprefix("# game = ").replace("kaiten_sushi_go", short_name(game))
    else:
        loaded = LOADED.replace("kaiten_spin_some_for_dim_sum", short_name(game))
        loaded = loaded.replace('"players": 2', f'"players": {GAMES[game].min_players}')
    # The snippet draws from the global generators: seeded, it plays the same every run.
    random.seed(1)
    np.random.seed(1)
    exec(compile(snippet.replace(LOADED, loaded), f"README ({game})", "exec"), {})
    assert capsys.readouterr().out.strip()
