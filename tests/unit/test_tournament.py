"""Tournaments: rotating seats, reproducible results whatever the number of processes, and the CLI."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

import msgspec
import pytest

from kaiten.adapters.memory_store import InMemoryEventStore
from kaiten.adapters.people import InMemoryPeople
from kaiten.adapters.system import SecureIds, SystemClock
from kaiten.api.cli import build_parser
from kaiten.api.cli import tournament as tournament_cli
from kaiten.api.schemas import SeatRequest
from kaiten.domain.chance import Chance
from kaiten.domain.engine import AnyGame, Bot, RuleViolation
from kaiten.services.commands import CreateGame, NewSeat
from kaiten.services.games import Games
from kaiten.services.tournament import TournamentReport, line_up, run_tournament
from tests.unit import cli


def without_timing(report: TournamentReport) -> list[dict[str, object]]:
    rows = [msgspec.structs.asdict(standing) for standing in report.bots]
    for row in rows:
        row.pop("ms_per_decision")
    return rows


@pytest.mark.parametrize(("bots", "players"), [(["mcts", "greedy"], 2), (["a", "b"], 5), (["a", "b", "b"], 3)])
def test_every_bot_plays_every_position_equally(bots: list[str], players: int) -> None:
    lineups = [line_up(bots, players, game) for game in range(players)]
    seats_per_game = Counter(bots[seat % len(bots)] for seat in range(players))
    for lineup in lineups:
        assert Counter(lineup) == seats_per_game
    for position in range(players):
        assert Counter(lineup[position] for lineup in lineups) == seats_per_game


def test_the_same_seed_gives_the_same_standings_in_one_process_or_two() -> None:
    alone = run_tournament("sushi-go", 3, ["greedy", "random"], 6, seed=5)
    assert without_timing(alone) == without_timing(run_tournament("sushi-go", 3, ["greedy", "random"], 6, seed=5))
    assert without_timing(alone) == without_timing(
        run_tournament("sushi-go", 3, ["greedy", "random"], 6, seed=5, jobs=2)
    )
    assert without_timing(alone) != without_timing(run_tournament("sushi-go", 3, ["greedy", "random"], 6, seed=6))


def test_standings_hand_out_one_win_per_game_and_time_every_decision() -> None:
    done: list[int] = []
    report = run_tournament("spin-some-for-dim-sum", 3, ["greedy", "random"], 4, seed=2, progress=done.append)
    assert done == [1, 2, 3, 4]
    greedy, random_ = report.bots
    assert (greedy.bot, random_.bot) == ("greedy", "random")
    assert greedy.seats_played + random_.seats_played == 12
    assert greedy.wins + random_.wins == pytest.approx(4)
    for standing in report.bots:
        assert standing.ci95[0] <= standing.win_rate <= standing.ci95[1]
        assert standing.ms_per_decision > 0


@pytest.mark.parametrize(
    ("game", "players", "bots", "code"),
    [
        ("sushi-go", 2, ["nope"], "unknown-bot"),
        ("sushi-go", 2, [], "unknown-bot"),
        ("nope", 2, ["random"], "unknown-game"),
        ("dim-sum-derby", 2, ["random"], "invalid-player-count"),
    ],
)
def test_refusals(game: str, players: int, bots: list[str], code: str) -> None:
    with pytest.raises(RuleViolation) as raised:
        run_tournament(game, players, bots, 1)
    assert raised.value.code == code


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return cli.run_cli(tournament_cli, capsys, "tournament", *argv)


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys, "--game", "sushi-go", "--players", "3", "--games", "3", "--bots", "greedy,random", "--json"
    )
    assert code == 0 and err == ""  # no progress bar when stderr is not a terminal
    data = json.loads(out)
    assert {key: data[key] for key in ("game", "players", "games")} == {"game": "sushi-go", "players": 3, "games": 3}
    assert [row["bot"] for row in data["bots"]] == ["greedy", "random"]
    for row in data["bots"]:
        assert set(row) == {"bot", "seats_played", "wins", "win_rate", "ci95", "mean_score", "ms_per_decision"}
        low, high = row["ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1
    assert sum(row["seats_played"] for row in data["bots"]) == 9


def test_cli_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run_cli(capsys, "--game", "spin-some-for-dim-sum", "--bots", "greedy,random", "--games", "2")
    assert code == 0 and "95% interval" in out and "greedy" in out and "ms/decision" in out
    code, _out, err = run_cli(capsys, "--games", "0")
    assert code == 2 and "--games" in err
    # A bot name may hold a colon: only the unknown one is refused.
    code, _out, err = run_cli(capsys, "--bots", "mcts:strong,nope", "--games", "1")
    assert code == 2 and "no bot 'nope'" in err and "no bot 'mcts:strong'" not in err


def test_the_tournament_is_a_kaiten_command() -> None:
    args = build_parser().parse_args(["tournament", "--bots", "mcts:strong,greedy", "--jobs", "2"])
    assert args.bots == "mcts:strong,greedy" and args.jobs == 2 and args.run is tournament_cli.run


async def test_a_seat_takes_a_bot_whose_name_has_a_colon() -> None:
    seat = msgspec.json.decode(b'{"bot": "mcts:strong"}', type=SeatRequest)
    games = Games(InMemoryEventStore(), SystemClock(), SecureIds(), people=InMemoryPeople())
    # Seat 0 plays first in Spin Some, so the bot does not have to think yet.
    command = CreateGame(game="spin-some-for-dim-sum", players=2, seed=1, seats=(NewSeat(name="a"), seat.as_new_seat()))
    created = await games.create(command)
    assert created.status == "active" and [s.bot for s in created.table.seats] == [None, "mcts:strong"]


class FirstCommand:
    """A peer that always sends the first legal command, and counts what it is asked."""

    asked: list[int] = []

    def choose(self, view: object, commands: Sequence[object], chance: Chance) -> object:
        FirstCommand.asked.append(len(commands))
        return commands[0]


class Peers:
    """A `BotRegistry` with one bot, `peer:first`, for every game."""

    def bot(self, game: AnyGame, name: str) -> Bot | None:
        return FirstCommand() if name == "peer:first" else None

    def names(self) -> Sequence[str]:
        return ("peer:first",)


def test_a_registry_seats_bots_from_outside_the_game() -> None:
    FirstCommand.asked.clear()
    report = run_tournament("spin-some-for-dim-sum", 2, ["peer:first", "greedy"], 2, seed=1, peers=Peers())
    assert [standing.bot for standing in report.bots] == ["peer:first", "greedy"]
    assert report.bots[0].seats_played == 2 and FirstCommand.asked
    with pytest.raises(RuleViolation) as raised:
        run_tournament("spin-some-for-dim-sum", 2, ["peer:second"], 1, peers=Peers())
    assert raised.value.code == "unknown-bot" and "peer:first" in str(raised.value)


def test_cli_says_how_to_get_the_peers_when_they_are_missing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournament_cli, "peers_for", lambda game, bots: None)
    code, _out, err = run_cli(capsys, "--bots", "openspiel:ismcts,greedy", "--games", "1")
    assert code == 2 and "no bot 'openspiel:ismcts'" in err and "[rl]" in err
