"""`Match`: one game in progress, driven through the engine protocol (`Game.setup`, `decide`, `evolve`).

Both environments drive the domain through this class: it keeps the game state, turns a seat's
legal commands into the game's fixed action space, and plays the command behind an action. States
are immutable, so a `Match` copies in constant time (OpenSpiel clones states on every search step).
The caller hands in the `Chance` of each step: PettingZoo uses kaiten's `Chance(seed, version)` as the
service does, OpenSpiel one seeded by a chance outcome.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kaiten.domain.chance import Chance
from kaiten.domain.engine import Result, play, settled
from kaiten.environments.features import Vector
from kaiten.environments.spec import GameSpec, Observer


class Match:
    __slots__ = ("_legal", "_observer", "_result", "_result_known", "options", "players", "spec", "state", "version")

    def __init__(
        self, spec: GameSpec, players: int, options: Any, state: Any, version: int, observer: Observer | None = None
    ) -> None:
        self.spec = spec
        self.players = players
        self.options = options
        self.state = state
        #: Events so far (the version of the game's log).
        self.version = version
        #: Per seat, its legal commands and the action of each, for the current state (filled on demand).
        self._legal: dict[int, tuple[list[int], Sequence[Any]]] = {}
        #: The result of the current state, once asked for (scoring a whole game costs).
        self._result: Result | None = None
        self._result_known = False
        #: Its own observer (see `GameSpec.observer`), made when first asked for: a copy's is its own
        #: too, so that copies may be used from other threads (a search clones states by the
        #: thousand, and observes few of them).
        self._observer = observer

    @classmethod
    def start(
        cls, spec: GameSpec, players: int, options: Any, chance: Chance, observer: Observer | None = None
    ) -> tuple[Match, tuple[Any, ...]]:
        """A dealt game and the events that dealt it."""
        game = spec.game
        match = cls(spec, players, options, game.initial_state(options, players), 0, observer)
        events = match._moved(*settled(game, match.state, game.setup(options, players, chance), chance))
        return match, events

    def copy(self) -> Match:
        return Match(self.spec, self.players, self.options, self.state, self.version)

    def awaiting(self) -> tuple[int, ...]:
        return self.spec.game.awaiting(self.state)

    def result(self) -> Result | None:
        if not self._result_known:
            self._result = self.spec.game.result(self.state)
            self._result_known = True
        return self._result

    def legal_actions(self, seat: int) -> list[int]:
        """The action of each of the seat's legal commands, in the domain's order: an action appears
        once per command behind it (two copies of one card are two commands of one action)."""
        return self._legal_of(seat)[0]

    def legal(self, seat: int) -> dict[int, Any]:
        """The seat's legal actions, each with its command. Commands the action space makes equivalent
        (two copies of one card) share an action; the first the domain lists stands for them."""
        actions, commands = self._legal_of(seat)
        # Read backwards, the first command listed for an action is the last one set.
        return dict(zip(reversed(actions), reversed(commands), strict=True))

    def command(self, seat: int, action: int) -> Any:
        """The command behind a legal action (the first the domain lists); ValueError for an action
        that is not legal now."""
        actions, commands = self._legal_of(seat)
        try:
            return commands[actions.index(action)]
        except ValueError:
            names = self.spec.actions(self.players).names
            name = names[action] if 0 <= action < len(names) else "out of range"
            raise ValueError(f"action {action} ({name}) is not legal for seat {seat} now") from None

    def _legal_of(self, seat: int) -> tuple[list[int], Sequence[Any]]:
        legal = self._legal.get(seat)
        if legal is None:
            state = self.state
            commands = self.spec.game.legal_commands(state, seat)
            legal = self._legal[seat] = (self.spec.actions_of(state, seat, commands), commands)
        return legal

    def play(self, seat: int, command: Any, chance: Chance) -> tuple[Any, ...]:
        """Decide and apply one command; its events."""
        return self._moved(*play(self.spec.game, self.state, seat, command, chance))

    def view(self, seat: int | None) -> Any:
        return self.spec.game.view(self.state, seat)

    def observation(self, seat: int) -> Vector:
        observer = self._observer
        if observer is None:
            observer = self._observer = self.spec.observer(self.players)
        return observer(self.state, seat)

    def score_differences(self) -> list[float]:
        """Each seat's final total minus the mean of the others' (zero-sum); zeros while playing."""
        result = self.result()
        if result is None:
            return [0.0] * self.players
        totals = [0] * self.players
        for score in result.scores:
            totals[score.seat] = score.total
        everyone = sum(totals)
        others = self.players - 1
        return [total - (everyone - total) / others for total in totals]

    def _moved(self, events: tuple[Any, ...], state: Any) -> tuple[Any, ...]:
        """The match after `events`, which led to `state`; the events."""
        self.state = state
        self.version += len(events)
        self._legal = {}
        self._result_known = False
        return events
