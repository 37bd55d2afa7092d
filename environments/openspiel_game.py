"""The four games as OpenSpiel Python games, registered on import:

`kaiten_sushi_go`, `kaiten_sushi_go_party`, `kaiten_spin_some_for_dim_sum`, `kaiten_dim_sum_derby`,
each with the parameters `players`, `seed` (the family of chance outcomes), `chance_outcomes`,
`chance_nodes` and `options` (the game's creation options as JSON, e.g. `{"menu": "sushi-go"}`).
- **Options in a game string**: OpenSpiel's parser splits a game string on `,` and `=` and counts
  brackets, so `options` is JSON with `%`, `,`, `=`, `(` and `)` percent-escaped as in URLs
  (`encode_options`; the value is always percent-decoded before it is read as JSON, so JSON without
  `%` may also be given as it is). The game keeps it in that form, so that `str(game)`,
  `serialize_game_and_state` and pickles load the same game again.

- **Dynamics**: Sushi Go! and Sushi Go Party! are simultaneous-move games (every seat's hidden pick
  is one joint action); Party's bonus actions and menu selection are sequential nodes inside them.
  Spin Some for Dim Sum and Dim Sum Derby are sequential. Algorithms that need sequential games run
  on `pyspiel.convert_to_turn_based(game)` (MCTS), or on the drafting games' own turn-based form,
  the parameter `turn_based=true` (IS-MCTS: OpenSpiel's transformation cannot resample): the seats
  pick one after another as kaiten's service takes them, each pick hidden from the others until the
  turn is revealed, so the game is the same and its information sets are too.
- **Actions** are the fixed action spaces of the PettingZoo environments (`games/`).
- **Chance is explicit, and as wide as a 64-bit seed.** The real outcome spaces (every deal of 108
  cards, every order of six baskets) are far too large to list at one node, so each step of the rules
  that draws chance (the setup, a new round's deal, a menu's draw, a cart refilled...) is
  `chance_nodes` (default 8) chance nodes in a row, each with `chance_outcomes` (default 256) equally
  likely outcomes. Read as the digits of one number, the outcomes are a key among
  `chance_outcomes ** chance_nodes` (2**64), and the step draws from kaiten's `Chance(seed, move,
  key)`, exactly as the domain draws in the service. Knowing the `seed` tells nothing: no seat can
  try 2**64 keys against what it sees (with a single node of 64 outcomes, it could: every deal of a
  seed would be one of 64). A smaller space (`chance_nodes=1`) is a coarser sample of the same
  deals, for searches that enumerate chance. The adapter learns that a command draws by deciding it
  with a `Chance` that refuses to draw.
- **An illegal action** (an action not legal for the seat, a chance outcome out of range) raises
  `ValueError` before anything changes: the state, its history and its serialization stay as they
  were.
- **Information state**: the string is the seat's own log, every event as `Game.redact` shows it to
  that seat (perfect recall: its hands, its picks, everything revealed); the tensor is the seat's view
  encoded as in PettingZoo. **Observation**: the view as JSON, and the same tensor. An observer
  without private information sees the spectator's log and view.
- **Returns** (terminal only): each seat's total minus the mean of the others' (zero-sum).
- `resample_from_infostate` (for IS-MCTS) deals again what a seat has not seen with the game's sampler,
  the one kaiten's own `mcts` determinizes with (`domain/<game>/sampler.py`): the seat's information
  state string and tensor stay the same, every card stays in the game. In a turn-based drafting game
  the seats that have picked in secret before the seat pick again at random from their new hands.
  The other seats' information state strings in a resampled state are the public log plus what they
  see from then on: what they saw in the world just drawn has no history to replay (IS-MCTS wants
  `allow_inconsistent_action_sets=True`). Party cannot resample a seat while a bonus action waits for
  another (its sampler would have to invent that seat's prompt); IS-MCTS resamples the seat to play.
- Serialization is OpenSpiel's for Python games: the history, and the state's attributes pickled (the
  game by its game string). Replaying the history (chance outcomes included) gives the same state.
"""

from __future__ import annotations

import json
import random
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import msgspec
import numpy as np
import pyspiel

from kaiten.domain.chance import Chance
from kaiten.domain.dim_sum_derby import sampler as dim_sum_derby_sampler
from kaiten.domain.lobby import parse_options
from kaiten.domain.mcts import Determinizer
from kaiten.domain.spin_some import sampler as spin_some_sampler
from kaiten.domain.sushi_go import sampler as sushi_go_sampler
from kaiten.domain.sushi_go_party import sampler as sushi_go_party_sampler
from kaiten.environments.games import dim_sum_derby, spin_some, sushi_go, sushi_go_party
from kaiten.environments.match import Match
from kaiten.environments.spec import GameSpec

DEFAULT_PARAMETERS: dict[str, Any] = {"seed": 0, "chance_outcomes": 256, "chance_nodes": 8, "options": "{}"}
#: The simultaneous games' parameters too: whether the picks are taken one seat after another.
TURN_BASED_PARAMETERS: dict[str, Any] = {**DEFAULT_PARAMETERS, "turn_based": False}
#: What kaiten's `mcts` determinizes with; resampling deals with it too.
SAMPLERS: dict[str, Determinizer] = {
    "sushi-go": sushi_go_sampler,
    "sushi-go-party": sushi_go_party_sampler,
    "spin-some-for-dim-sum": spin_some_sampler,
    "dim-sum-derby": dim_sum_derby_sampler,
}
_encode = msgspec.json.Encoder().encode
#: What OpenSpiel's game-string parser splits a value on, and `%` itself, percent-escaped.
_ESCAPE = str.maketrans({"%": "%25", ",": "%2C", "=": "%3D", "(": "%28", ")": "%29"})


def encode_options(options: Mapping[str, Any]) -> str:
    """The `options` parameter for these options: compact JSON, `%`, `,`, `=`, `(` and `)`
    percent-escaped (as in URLs) so that it survives a game string."""
    return json.dumps(dict(options), separators=(",", ":")).translate(_ESCAPE)


def decode_options(parameter: str) -> dict[str, Any]:
    """The options an `options` parameter encodes (`encode_options`; plain JSON without `%` too)."""
    options = json.loads(urllib.parse.unquote(parameter))
    if not isinstance(options, dict):
        raise ValueError(f"options must be a JSON object, not {parameter!r}")
    return options


def short_name(game_id: str) -> str:
    return "kaiten_" + game_id.replace("-", "_")


class ChanceNeeded(Exception):
    """The command being decided draws chance: it waits for a chance outcome."""


class _NoDraw(Chance):
    """A Chance that refuses to draw: deciding with it tells whether a command draws."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(0)

    @property
    def rng(self) -> random.Random:
        raise ChanceNeeded


_NO_DRAW = _NoDraw()


class _Progress:
    """Everything a state holds, in one attribute: OpenSpiel clones a Python state by deep-copying its
    attributes, and this copies in time linear in the logs only (the game and its state are shared:
    they are immutable)."""

    __slots__ = ("digits", "game", "logs", "match", "moves", "pending")

    def __init__(self, game: KaitenGame) -> None:
        self.game = game
        self.match: Match | None = None
        #: Commands waiting for a chance outcome; the first one draws.
        self.pending: list[tuple[int, Any]] = []
        #: The chance outcomes of the draw under way (it draws once it has `chance_nodes`).
        self.digits: tuple[int, ...] = ()
        #: Moves applied (chance outcomes and decisions; a joint action is one): part of each draw's key.
        self.moves = 0
        #: Each seat's redacted events as JSON, then the spectator's.
        self.logs: list[list[bytes]] = [[] for _ in range(game.players + 1)]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Progress:
        other = _Progress.__new__(_Progress)
        other.game = self.game
        other.match = None if self.match is None else self.match.copy()
        other.pending = list(self.pending)
        other.digits = self.digits
        other.moves = self.moves
        other.logs = [list(log) for log in self.logs]
        return other


class KaitenGame(pyspiel.Game):
    """One game of the family for a player count (the `players` parameter)."""

    spec: GameSpec
    game_type: Any
    #: The same game with sequential dynamics (`turn_based=true`; the drafting games only).
    turn_based_type: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = self.spec
        defaults = TURN_BASED_PARAMETERS if spec.simultaneous else DEFAULT_PARAMETERS
        params = {**defaults, "players": spec.game.min_players, **(params or {})}
        players = int(params["players"])
        if not spec.game.min_players <= players <= spec.game.max_players:
            raise ValueError(f"{spec.game.name} takes {spec.game.min_players} to {spec.game.max_players} players")
        self.players = players
        self.seed = int(params["seed"])
        self.chance_count = int(params["chance_outcomes"])
        self.chance_nodes = int(params["chance_nodes"])
        if self.chance_count < 1 or self.chance_nodes < 1:
            raise ValueError("chance_outcomes and chance_nodes must be at least 1")
        self._chance_outcomes = [(outcome, 1.0 / self.chance_count) for outcome in range(self.chance_count)]
        options = decode_options(params["options"])
        self.options = parse_options(spec.game, options, players)
        # As a game string can hold it: `str(game)` loads this game again.
        params["options"] = encode_options(options)
        self.turn_based = bool(params.get("turn_based", False))
        #: Whether all the seats awaited at a pick move as one simultaneous node.
        self.simultaneous = spec.simultaneous and not self.turn_based
        info = pyspiel.GameInfo(
            num_distinct_actions=len(spec.actions(players)),
            max_chance_outcomes=self.chance_count,
            num_players=players,
            min_utility=-spec.utility_bound,
            max_utility=spec.utility_bound,
            utility_sum=0.0,
            # Taken in turn, each simultaneous move is a move per seat.
            max_game_length=spec.max_moves(players) * (players if self.turn_based else 1),
        )
        super().__init__(self.turn_based_type if self.turn_based else self.game_type, info, params)

    def max_chance_nodes_in_history(self) -> int:
        return self.spec.max_moves(self.players) * self.chance_nodes

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel pickles a game by its game string but rebuilds only the C++ part: a Python game
        # would come back without its attributes (a serialized state holds its game). Loaded again.
        return (load_game, (str(self),))

    def new_initial_state(self) -> KaitenState:
        return KaitenState(self)

    def state_from(self, dealt: Any, seat: int, chance: Chance) -> KaitenState:
        """A state at `seat`'s decision from a full domain state, e.g. a sampler's deal from the seat's
        view; in the turn-based form the seats ahead of it in the turn pick in secret at random. Its
        logs start empty: a search keys its tree by what happens from there."""
        match = Match(self.spec, self.players, self.options, dealt, 0)
        if self.turn_based:
            awaiting = match.awaiting()
            _pick_in_secret(match, awaiting[: awaiting.index(seat)], chance)
        state = KaitenState(self)
        state._progress.match = match
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KaitenObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return KaitenObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class KaitenState(pyspiel.State):
    def __init__(self, game: KaitenGame) -> None:
        super().__init__(game)
        self._progress = _Progress(game)

    @property
    def _game(self) -> KaitenGame:
        return self._progress.game

    @property
    def _spec(self) -> GameSpec:
        return self._progress.game.spec

    @property
    def match(self) -> Match | None:
        """The game in progress (None before the setup's chance outcome)."""
        return self._progress.match

    # --- OpenSpiel's state API -------------------------------------------------------------------

    def current_player(self) -> int:
        progress = self._progress
        match = progress.match
        if match is None or progress.pending:
            return int(pyspiel.PlayerId.CHANCE)
        if match.result() is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        awaiting = match.awaiting()
        if self._game.simultaneous and len(awaiting) == self._game.players and self._spec.simultaneous_now(match.state):
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return awaiting[0]

    def _legal_actions(self, player: int) -> list[int]:
        match = self._progress.match
        if match is None or self._progress.pending or player not in match.awaiting():
            return []
        return sorted(match.legal(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self._game._chance_outcomes)

    def _apply_action(self, action: int) -> None:
        # Everything is checked before anything changes: a refused action leaves the state as it was.
        progress = self._progress
        match = progress.match
        if match is not None and not progress.pending:
            if match.result() is not None:
                raise ValueError("the game is over: no action is legal")
            seat = match.awaiting()[0]
            command = match.command(seat, action)
            progress.moves += 1
            self._run([(seat, command)])
            return
        game = self._game
        if not 0 <= action < game.chance_count:
            raise ValueError(f"chance outcome {action} is not one of 0 to {game.chance_count - 1}")
        progress.moves += 1
        progress.digits += (action,)
        if len(progress.digits) < game.chance_nodes:
            return
        key = 0
        for digit in progress.digits:
            key = key * game.chance_count + digit
        progress.digits = ()
        chance = Chance(game.seed, progress.moves, key)
        if match is None:
            match, events = Match.start(self._spec, game.players, game.options, chance)
            progress.match = match
            self._record(events)
        else:
            (seat, command), *rest = progress.pending
            progress.pending = []
            self._record(match.play(seat, command, chance))
            self._run(rest)

    def _apply_actions(self, actions: Sequence[int]) -> None:
        match = self._progress.match
        assert match is not None
        # Every pick is read off the same state: simultaneous picks do not see each other. All are
        # checked before any is played.
        commands = [(seat, match.command(seat, actions[seat])) for seat in match.awaiting()]
        self._progress.moves += 1
        self._run(commands)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return self._spec.actions(self._game.players).names[action]

    def is_terminal(self) -> bool:
        match = self._progress.match
        return match is not None and not self._progress.pending and match.result() is not None

    def returns(self) -> list[float]:
        match = self._progress.match
        return [0.0] * self._game.players if match is None else match.score_differences()

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> KaitenState:
        """A state the seat cannot tell from this one, what it has not seen dealt again by the game's
        sampler (drawn from `probability_sampler`). Before the setup's chance outcome nothing is dealt."""
        progress = self._progress
        match = progress.match
        state: KaitenState = self.clone()
        if match is None:
            return state
        if progress.pending:
            raise ValueError("a state is resampled at a decision, not while a command waits for chance")
        chance = Chance.from_rng(random.Random(int(probability_sampler() * 2**53)))
        resampled = state.match
        assert resampled is not None
        resampled.state = SAMPLERS[self._spec.game.id].sample(match.view(player_id), chance)
        awaiting = match.awaiting()
        _pick_in_secret(resampled, [seat for seat in resampled.awaiting() if seat not in awaiting], chance)
        if resampled.awaiting() != awaiting:
            raise ValueError(f"{self._spec.game.name} cannot resample seat {player_id}'s information state now")
        logs = state._progress.logs
        public = logs[-1]
        for seat in range(self._game.players):
            if seat != player_id:
                logs[seat] = list(public)
        return state

    def __str__(self) -> str:
        match = self._progress.match
        return "setting the table" if match is None else self._spec.render(match.state)

    # --- playing ---------------------------------------------------------------------------------

    def _run(self, commands: list[tuple[int, Any]]) -> None:
        """Play the commands in order until one draws chance; it and the rest wait for the outcome."""
        match = self._progress.match
        assert match is not None
        for at, (seat, command) in enumerate(commands):
            try:
                events = match.play(seat, command, _NO_DRAW)
            except ChanceNeeded:
                self._progress.pending = commands[at:]
                return
            self._record(events)

    def _record(self, events: Sequence[Any]) -> None:
        redact = self._spec.game.redact
        logs = self._progress.logs
        for event in events:
            for seat, log in enumerate(logs):
                seen = redact(event, seat if seat < self._game.players else None)
                if seen is not None:
                    log.append(_encode(seen))

    def information_log(self, seat: int | None) -> str:
        """The events as this seat (None: a spectator) saw them, one JSON object a line."""
        log = self._progress.logs[self._game.players if seat is None else seat]
        return b"\n".join(log).decode()


class KaitenObserver:
    """OpenSpiel's Python observer: the view tensor, and the log (perfect recall) or the view as strings."""

    def __init__(self, game: KaitenGame, iig_obs_type: Any) -> None:
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(game.spec.observation_size(game.players), np.float32)
        self.dict = {"observation": self.tensor}
        #: Its own encoder for the public observations (a state's serves its private ones).
        self._public = game.spec.observer(game.players)

    def set_from(self, state: KaitenState, player: int) -> None:
        match = state.match
        if match is None:
            self.tensor.fill(0.0)
            return
        if self._private:
            self.tensor[:] = match.observation(player)
        else:
            self.tensor[:] = self._public.public(match.state, player)

    def string_from(self, state: KaitenState, player: int) -> str:
        seat = player if self._private else None
        if self._perfect_recall:
            return state.information_log(seat)
        match = state.match
        if match is None:
            return ""
        return _encode(match.view(seat)).decode()


@lru_cache(maxsize=64)
def load_game(game_string: str) -> KaitenGame:
    """The game of a game string (what an unpickled state or game is loaded with; games are immutable,
    so the states of one game share it)."""
    game: KaitenGame = pyspiel.load_game(game_string)
    return game


def _pick_in_secret(match: Match, seats: Sequence[int], chance: Chance) -> None:
    """The seats pick at random, as they may have in secret: nobody else knows their picks yet."""
    for seat in seats:
        legal = match.legal(seat)
        match.play(seat, legal[chance.choice(sorted(legal))], _NO_DRAW)


def _game_type(spec: GameSpec, *, turn_based: bool = False) -> Any:
    game = spec.game
    simultaneous = spec.simultaneous and not turn_based
    return pyspiel.GameType(
        short_name=short_name(game.id),
        long_name=f"kaiten {game.name}",
        dynamics=(pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL),
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={
            **(TURN_BASED_PARAMETERS if spec.simultaneous else DEFAULT_PARAMETERS),
            "players": game.min_players,
        },
    )


class KaitenSushiGoGame(KaitenGame):
    spec = sushi_go.SPEC
    game_type = _game_type(spec)
    turn_based_type = _game_type(spec, turn_based=True)


class KaitenSushiGoPartyGame(KaitenGame):
    spec = sushi_go_party.SPEC
    game_type = _game_type(spec)
    turn_based_type = _game_type(spec, turn_based=True)


class KaitenSpinSomeGame(KaitenGame):
    spec = spin_some.SPEC
    game_type = _game_type(spec)


class KaitenDimSumDerbyGame(KaitenGame):
    spec = dim_sum_derby.SPEC
    game_type = _game_type(spec)


#: By kaiten game id (the classes are module attributes so that OpenSpiel can pickle games).
GAME_CLASSES: dict[str, type[KaitenGame]] = {
    cls.spec.game.id: cls
    for cls in (KaitenSushiGoGame, KaitenSushiGoPartyGame, KaitenSpinSomeGame, KaitenDimSumDerbyGame)
}
for _cls in GAME_CLASSES.values():
    pyspiel.register_game(_cls.game_type, _cls)
