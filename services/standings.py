"""The statistics of a tournament: each bot's wins, win rate with its Wilson interval, mean score and
thinking time, aggregated from the records of finished games. Pure functions over plain values.

A shared victory counts 1 / number of winners for each winner, so a game hands out exactly one win and
a bot's win rate is comparable with its fair share (1 / players per seat).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import msgspec

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


class GameRecord(msgspec.Struct, frozen=True):
    """One finished game, seat by seat: its bot, its score, its share of the victory, and how many
    decisions its bot made in how many seconds."""

    bots: tuple[str, ...]
    scores: tuple[int, ...]
    shares: tuple[float, ...]
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]


class Standing(msgspec.Struct, frozen=True):
    bot: str
    #: Seats this bot played (games x its seats per game).
    seats_played: int
    #: Shares of victories (a shared win counts 1 / number of winners).
    wins: float
    win_rate: float
    #: The Wilson score interval of the win rate at 95%.
    ci95: tuple[float, float]
    mean_score: float
    ms_per_decision: float


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (Wilson 1927); (0, 1) when there are no trials.

    Unlike the normal approximation it stays inside [0, 1] and behaves near 0 and 1. `successes` may be
    fractional (shared wins).
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(max(p * (1 - p), 0.0) / trials + z2 / (4 * trials * trials)) / denominator
    # At a rate of 0 or 1 the bound is exactly that rate; rounding must not move it off.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def standings(records: Iterable[GameRecord], bots: Sequence[str]) -> tuple[Standing, ...]:
    """One standing per distinct bot name, in the order `bots` first names them."""
    names = tuple(dict.fromkeys(bots))
    seats = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0.0)
    points = dict.fromkeys(names, 0)
    decisions = dict.fromkeys(names, 0)
    seconds = dict.fromkeys(names, 0.0)
    for record in records:
        for seat, bot in enumerate(record.bots):
            seats[bot] += 1
            wins[bot] += record.shares[seat]
            points[bot] += record.scores[seat]
            decisions[bot] += record.decisions[seat]
            seconds[bot] += record.seconds[seat]
    return tuple(
        Standing(
            bot=name,
            seats_played=seats[name],
            wins=wins[name],
            win_rate=wins[name] / seats[name] if seats[name] else 0.0,
            ci95=wilson_interval(wins[name], seats[name]),
            mean_score=points[name] / seats[name] if seats[name] else 0.0,
            ms_per_decision=1000 * seconds[name] / decisions[name] if decisions[name] else 0.0,
        )
        for name in names
    )
