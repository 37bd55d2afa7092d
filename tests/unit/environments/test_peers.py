"""OpenSpiel's IS-MCTS in `kaiten tournament`: it plays every game to the end from its seat's view, a
simulation budget replays the same games for a seed, a time budget stops the search."""

from __future__ import annotations

import argparse

import msgspec
import pytest

from kaiten.api.cli import tournament as tournament_cli
from kaiten.domain.catalog import GAMES, get_game
from kaiten.domain.chance import Chance
from kaiten.environments.openspiel_game import GAME_CLASSES
from kaiten.environments.openspiel_peers import IsmctsPeer, OpenSpielPeers
from kaiten.services.tournament import TournamentReport, run_tournament

PEER = "openspiel:ismcts@3sims"


def standings(report: TournamentReport) -> list[dict[str, object]]:
    rows = [msgspec.structs.asdict(standing) for standing in report.bots]
    for row in rows:
        row.pop("ms_per_decision")
    return rows


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_of_each_is_played_to_the_end_with_the_peer_in_some_seats(game: str) -> None:
    players = 3 if game == "dim-sum-derby" else 2
    report = run_tournament(game, players, [PEER] + ["greedy"] * (players - 1), 1, seed=3, peers=OpenSpielPeers())
    peer, greedy = report.bots
    assert (peer.bot, greedy.bot) == (PEER, "greedy")
    assert peer.seats_played == 1 and greedy.seats_played == players - 1
    assert peer.wins + greedy.wins == pytest.approx(1)
    assert peer.ms_per_decision > 0


def test_a_simulation_budget_replays_the_same_games_for_a_seed() -> None:
    def play(seed: int) -> list[dict[str, object]]:
        return standings(run_tournament("spin-some-for-dim-sum", 2, [PEER, "random"], 2, seed, peers=OpenSpielPeers()))

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_a_time_budget_stops_the_search_with_a_legal_command() -> None:
    game = get_game("dim-sum-derby")
    played = GAME_CLASSES[game.id]({"players": 3}).new_initial_state()
    for action in (1, 2):
        while played.is_chance_node():
            played.apply_action(0)
        played.apply_action(played.legal_actions()[action])
    assert played.match is not None
    state = played.match.state
    seat = game.awaiting(state)[0]
    commands = game.legal_commands(state, seat)
    peer = IsmctsPeer(game.id, simulations=None, seconds=0.005)
    assert peer.choose(game.view(state, seat), commands, Chance(1)) in commands


@pytest.mark.parametrize(
    ("name", "known"),
    [
        ("openspiel:ismcts", True),
        ("openspiel:ismcts@40ms", True),
        ("openspiel:ismcts@12sims", True),
        ("openspiel:ismcts@0ms", False),
        ("openspiel:ismcts@5min", False),
        ("openspiel:mcts", False),
        ("mcts", False),
    ],
)
def test_names(name: str, known: bool) -> None:
    assert (OpenSpielPeers().bot(get_game("sushi-go"), name) is not None) == known


def test_the_cli_wires_the_peer_in(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="kaiten")
    tournament_cli.add_commands(parser.add_subparsers(dest="command", required=True))
    argv = ["tournament", "--game", "spin-some-for-dim-sum", "--bots", f"{PEER},random", "--games", "1"]
    args = parser.parse_args(argv)
    assert args.run(args) == 0
    out, _err = capsys.readouterr()
    assert PEER in out
    assert tournament_cli.peers_for("sushi-go", ["mcts", "greedy"]) is None
