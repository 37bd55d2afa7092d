"""The engine protocol every game implements (the Decider pattern).

A game is a value with pure functions over frozen msgspec structs: `setup` and `decide` turn intent
into events, `evolve` folds an event into the state, and everything else reads the state. Chance is
handed in as a `Chance` and its outcomes are written into events, so replay never draws again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import msgspec

from domain.chance import Chance


class RuleViolation(Exception):
    """A command or request the rules refuse; `code` is stable and machine readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class SeatScore(msgspec.Struct, frozen=True):
    seat: int
    total: int
    breakdown: dict[str, int]


class Result(msgspec.Struct, frozen=True):
    scores: tuple[SeatScore, ...]
    winners: tuple[int, ...]
    ranking: tuple[int, ...]


def seat_score(seat: int, breakdown: Mapping[str, int]) -> SeatScore:
    """A score whose total is, by construction, the sum of its breakdown."""
    return SeatScore(seat=seat, total=sum(breakdown.values()), breakdown=dict(breakdown))


def rank_scores(scores: Sequence[SeatScore], tiebreak: Sequence[int]) -> Result:
    """Rank by total, then by the game's tie-break value (higher is better); equal on both share."""

    def key(score: SeatScore) -> tuple[int, int]:
        return (score.total, tiebreak[score.seat])

    ordered = sorted(scores, key=lambda s: (-key(s)[0], -key(s)[1], s.seat))
    best = key(ordered[0])
    winners = tuple(sorted(s.seat for s in scores if key(s) == best))
    return Result(scores=tuple(scores), winners=winners, ranking=tuple(s.seat for s in ordered))


def victory_shares(result: Result) -> tuple[float, ...]:
    """Each seat's share of the victory: 1 / number of winners for every winner, 0 for the others."""
    share = 1.0 / len(result.winners)
    return tuple(share if seat in result.winners else 0.0 for seat in range(len(result.scores)))


class Decided(msgspec.Struct, frozen=True):
    """Events together with the game state they lead to.

    `setup` and `decide` may answer with this instead of the bare events when they had to fold
    their own events anyway (to run the steps that follow automatically): the table then takes the
    state as it is instead of folding the events a second time.
    """

    events: tuple[Any, ...]
    state: Any


class Bot(Protocol):
    """A bot sees only its own seat's view and the commands it may send."""

    def choose(self, view: Any, commands: Sequence[Any], chance: Chance) -> Any: ...


class Game(Protocol):
    """One game of the family. Commands and events are tagged msgspec structs (`tag_field="type"`)."""

    id: str
    name: str
    min_players: int
    max_players: int
    options_type: type[msgspec.Struct]
    #: A Union of the game's command structs, used to decode request bodies.
    command_type: Any
    event_types: tuple[type[msgspec.Struct], ...]
    score_request_type: type[msgspec.Struct]
    bots: Mapping[str, Callable[[], Bot]]

    def check_options(self, options: Any, players: int) -> None:
        """Raise RuleViolation when the options do not fit the player count."""

    def setup(self, options: Any, players: int, chance: Chance) -> Sequence[Any] | Decided:
        """The events that set the table for play (dealt hands, pile orders...)."""

    def initial_state(self, options: Any, players: int) -> Any:
        """The state before the first setup event is evolved."""

    def evolve(self, state: Any, event: Any) -> Any:
        """Total: apply one event, never validate."""

    def decide(self, state: Any, seat: int, command: Any, chance: Chance) -> Sequence[Any] | Decided:
        """Validate a seat's command and return its events, or raise RuleViolation."""

    def legal_commands(self, state: Any, seat: int) -> Sequence[Any]:
        """Every command this seat may send now; empty when it is not awaited."""

    def awaiting(self, state: Any) -> tuple[int, ...]:
        """The seats whose command the game waits for, ascending."""

    def view(self, state: Any, seat: int | None) -> Any:
        """What this seat (None: a spectator) may see of the state."""

    def redact(self, event: Any, seat: int | None) -> Any | None:
        """The event as this seat may see it while the game runs, or None to hide it."""

    def result(self, state: Any) -> Result | None:
        """The final result once the game is over."""

    def picks(self, event: Any) -> Sequence[tuple[int, str]]:
        """The cards this event shows seats taking for themselves, as (seat, card slug) pairs.

        A pick is one card that a seat takes in play into what it scores from (its tableau, its
        menu, its portions...); each game says what that is. The pick-rate statistics count them.
        """

    def score(self, request: Any) -> tuple[SeatScore, ...]:
        """Score arbitrary tableaus (the catalog's scoring calculator)."""

    def catalog(self) -> dict[str, Any]:
        """Cards, option schema and menus, for the catalog endpoint."""
