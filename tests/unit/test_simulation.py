"""The simulator: whole bot games through the lobby table, reproducible, and its CLI."""

from __future__ import annotations

import json

import msgspec
import pytest

from kaiten.api.cli import simulate as simulate_cli
from kaiten.domain.catalog import GAMES
from kaiten.domain.engine import RuleViolation
from kaiten.services.simulation import SimulationReport, game_seeds, simulate
from tests.unit import cli


def without_timing(report: SimulationReport) -> dict[str, object]:
    data = msgspec.structs.asdict(report)
    for timing in ("seconds", "games_per_second"):
        data.pop(timing)
    return data


def test_the_same_seed_gives_the_same_results() -> None:
    first = simulate("sushi-go", 3, 6, ["random", "greedy"], seed=42)
    assert without_timing(first) == without_timing(simulate("sushi-go", 3, 6, ["random", "greedy"], seed=42))
    assert without_timing(first) != without_timing(simulate("sushi-go", 3, 6, ["random", "greedy"], seed=43))
    assert list(game_seeds(42, 6)) == list(game_seeds(42, 6)) and len(set(game_seeds(42, 6))) == 6


def test_seats_go_round_the_bots_and_every_winner_counts() -> None:
    report = simulate("sushi-go", 4, 10, ["greedy", "random"], seed=1)
    assert report.games == 10 and report.players == 4
    assert report.per_bot["greedy"].seats == 20 and report.per_bot["random"].seats == 20
    wins = sum(report.wins.values())
    assert wins >= 10 and wins - 10 <= 3 * report.shared_wins
    assert set(report.mean_score) == {"greedy", "random"}
    # A 4-player Sushi Go! game always has the same number of events (see the rules' docstring).
    assert report.events == 10 * (1 + 4 + 1 + 1 + 3 * (4 * 7 + 7 + 1 + 1) + 2 + 1 + 1)
    # Every seat picks on every turn but the last of a round, which is placed automatically.
    assert report.decisions == 10 * 3 * 4 * 7
    assert report.games_per_second > 0 and report.seconds > 0


def test_progress_is_reported_after_each_game() -> None:
    seen: list[int] = []
    simulate("sushi-go", 2, 3, ["random"], seed=1, progress=seen.append)
    assert seen == [1, 2, 3]


@pytest.mark.parametrize(
    ("game", "players", "bots", "code"),
    [
        ("sushi-go", 4, ["nope"], "unknown-bot"),
        ("sushi-go", 4, [], "unknown-bot"),
        ("nope", 4, ["random"], "unknown-game"),
        ("sushi-go", 9, ["random"], "invalid-player-count"),
    ],
)
def test_refusals(game: str, players: int, bots: list[str], code: str) -> None:
    with pytest.raises(RuleViolation) as raised:
        simulate(game, players, 1, bots)
    assert raised.value.code == code


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_simulates(game_id: str) -> None:
    game = GAMES[game_id]
    report = simulate(game_id, game.min_players, 2, [next(iter(game.bots))], seed=3)
    assert report.games == 2 and report.events > 0


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return cli.run_cli(simulate_cli, capsys, "simulate", *argv)


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys, "--game", "sushi-go", "--players", "4", "--games", "5", "--bots", "random,greedy", "--json"
    )
    assert code == 0 and err == ""  # no progress bar when stderr is not a terminal
    data = json.loads(out)
    assert data["games"] == 5 and data["events"] > 0 and data["seconds"] > 0 and data["games_per_second"] > 0
    assert set(data["wins"]) == set(data["mean_score"]) == {"random", "greedy"}


def test_cli_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run_cli(capsys, "--games", "3", "--players", "2")
    assert code == 0 and "games/s" in out and "decisions" in out and "random" in out
    code, _out, err = run_cli(capsys, "--bots", "nope", "--games", "1")
    assert code == 2 and "nope" in err
