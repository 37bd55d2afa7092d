"""Multiplayer ratings with openskill's Plackett-Luce model, updated once per finished game.

Only players with a player_id are rated; bots and anonymous seats are not (a rating measures a person
against other people), so a game changes ratings only when two or more player_ids sat at the table.
A player who held several seats of one game takes part once, with their best place.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
NEW_MU: float = MODEL.mu
NEW_SIGMA: float = MODEL.sigma


def conservative(mu: float, sigma: float) -> float:
    """The rating leaderboards rank by: mu - 3 sigma, which rises as the model grows surer."""
    return mu - 3 * sigma


def rate(players: Sequence[tuple[float, float, int]]) -> list[tuple[float, float]]:
    """New (mu, sigma) for each (mu, sigma, place) of one game; places start at 1, equal places tie."""
    teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma, _ in players]
    rated = MODEL.rate(teams, ranks=[float(place) for _, _, place in players])
    return [(team[0].mu, team[0].sigma) for team in rated]
