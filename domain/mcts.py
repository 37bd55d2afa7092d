"""Information-set Monte Carlo tree search over the engine protocol, for a bot that never peeks.

The algorithm is single-observer information-set MCTS (SO-ISMCTS: Cowling, Powley & Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE Transactions on Computational Intelligence and AI in
Games 4(2), 2012). The bot's seat is the observer; one tree holds the observer's information sets,
and every iteration walks it with a different determinization:

1. **Determinize**: the game's sampler deals a full state consistent with the observer's view (the
   cards it cannot see, dealt uniformly among the places it cannot see into).
2. **Select**: from the root, each seat the state awaits chooses among its legal moves in this
   determinization. Moves are grouped by the sampler's `move_key`, so that two copies of a card are
   one move. The rule is PUCT (Rosin, "Multi-armed bandits with episode context", 2011, as used by
   Silver et al., "Mastering the game of Go without human knowledge", 2017) with ISMCTS's availability
   counts in place of the node's visits: `Q + c * P * sqrt(available) / (1 + visits)`, where the prior
   `P` puts half its weight on the move the rollout policy would play and spreads the rest evenly. The
   prior matters at this budget: a few hundred noisy playouts cannot rank a dozen moves on their own,
   so the search starts from the policy's move and leaves it only for moves that do better.
3. **Expand**: a seat's first visit to a move ends the descent.
4. **Simulate**: the game is played to its end by the rollout policy (each seat choosing from its own
   view, as bots do).
5. **Backpropagate**: each seat's reward is added to the moves it chose: half its share of the victory,
   half its lead over the best other seat (squashed into [0, 1]), which ranks moves with less noise.

**Simultaneous picks** are simultaneous moves in the tree, decoupled as in DUCT (Lanctot, Lisý &
Winands, "Monte Carlo Tree Search in Simultaneous Move Games with Applications to Goofspiel", 2013):
when several seats are awaited at once, each has its own statistics at the node and chooses without
knowing the others' choices; the child is keyed by the joint move. Samplers hand the search a state in
which the other seats' hidden picks of the turn are not made yet, so they too are searched as
simultaneous moves rather than drawn at random.

**Budget**: counted in simulated decisions (every `decide` the tree walk or a rollout makes), never in
time, so that a game with bots replays the same moves for the same seed on any machine: the domain
has no clock. Each iteration also counts its deal and its final scoring, `deal_cost` decisions per
seat: late in a game an iteration is a decision or two, and dealing and scoring them cost as much as
playing them, so a count of decisions alone let the last decisions of a game take twice as long as
the rest. Each move a selection weighs counts `move_cost` (a fiftieth of a decision): a Party seat
filling a takeout box weighs up to 128 moves at every iteration. So counted, a unit costs about the
same throughout a game, and the count is a proxy for time: each game's budget and `deal_cost` are
calibrated with `bench/mcts.py`, and each game's `bot_costs` say what a decision costs on the
reference machine, as measured (the median; the bench shows the 99th percentile beside it, with a
target of 1.5 times it). Chance (determinizations, rollouts, ties) comes only from the bot's
`Chance`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol

from kaiten.domain.chance import Chance
from kaiten.domain.engine import AnyGame, Bot, C, E, Game, Result, S, play, victory_shares


class Determinizer(Protocol):
    """What the search needs of a game beyond the engine protocol: each game's `sampler` module."""

    def seat(self, view: Any) -> int:
        """The seat whose view this is."""

    def sample(self, view: Any, chance: Chance) -> Any:
        """A full game state consistent with the view, its hidden cards drawn from `chance`."""

    def move_key(self, command: Any) -> Hashable:
        """Commands with the same key are the same move to the search (two copies of one card)."""


#: PUCT's exploration weight; rewards lie in [0, 1].
EXPLORATION = 0.7
#: The share of the prior spread evenly over the moves; the rest goes to the policy's move.
PRIOR_SPREAD = 0.5
#: What weighing one move in a selection counts against the search bots' budgets, in simulated
#: decisions: next to nothing, but a Party seat filling a takeout box weighs up to 128 moves a step.
MOVE_COST = 0.02


def _think_on() -> None:
    """Between iterations, by default: nothing."""


#: Called between a search's iterations. A bot worker pauses there while its server answers a request
#: that writes (adapters/bot_workers.py); what a search chooses never depends on it, as its budget counts
#: simulated decisions, not time.
_between_iterations: Callable[[], None] = _think_on


def between_iterations(hook: Callable[[], None]) -> None:
    """Every search of this process calls `hook` between its iterations from now on."""
    global _between_iterations
    _between_iterations = hook


class _Arm:
    """One seat's statistics for one move at one node."""

    __slots__ = ("available", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0


class _Node:
    __slots__ = ("arms", "children")

    def __init__(self) -> None:
        self.arms: dict[int, dict[Hashable, _Arm]] = {}
        self.children: dict[tuple[Hashable, ...], _Node] = {}


def apply(game: Game[S, C, E, Any], state: S, seat: int, command: C, chance: Chance) -> S:
    """The state after a seat's command."""
    return play(game, state, seat, command, chance)[1]


def rewards(result: Result) -> list[float]:
    """Per seat: half its share of the victory, half its lead over the best other seat in [0, 1].

    The lead is measured against a quarter of the mean absolute score, so it means as much in a game
    of 60 points as in a game of 6, and squashed by tanh: a rout is worth little more than a clear win.
    """
    shares = victory_shares(result)
    players = len(shares)
    totals = [0] * players
    for score in result.scores:
        totals[score.seat] = score.total
    scale = max(1.0, sum([abs(total) for total in totals]) / players / 4)
    out = []
    for seat in range(players):
        best_other = max([total for other, total in enumerate(totals) if other != seat])
        lead = 0.5 + 0.5 * math.tanh((totals[seat] - best_other) / scale)
        out.append(0.5 * shares[seat] + 0.5 * lead)
    return out


def group_moves(commands: Sequence[Any], move_key: Callable[[Any], Hashable]) -> dict[Hashable, list[Any]]:
    """The commands by move, in the order of their first command."""
    moves: dict[Hashable, list[Any]] = {}
    for command in commands:
        key = move_key(command)
        group = moves.get(key)
        if group is None:
            moves[key] = [command]
        else:
            group.append(command)
    return moves


class Search:
    """One decision's search: `best(view, commands, chance)` answers the command to send."""

    __slots__ = ("budget", "deal_cost", "determinizer", "exploration", "game", "move_cost", "policy")

    def __init__(
        self,
        game: AnyGame,
        determinizer: Determinizer,
        policy: Callable[[], Bot],
        budget: int,
        exploration: float = EXPLORATION,
        deal_cost: float = 0.0,
        move_cost: float = 0.0,
    ) -> None:
        self.game = game
        self.determinizer = determinizer
        self.policy = policy
        #: Simulated decisions; each iteration's deal and scoring count `deal_cost` a seat, and each move
        #: a selection weighs `move_cost` (the module's "Budget").
        self.budget = budget
        self.exploration = exploration
        self.deal_cost = deal_cost
        self.move_cost = move_cost

    def best(self, view: Any, commands: Sequence[Any], chance: Chance) -> Any:
        move_key = self.determinizer.move_key
        moves = group_moves(commands, move_key)
        if len(moves) == 1:
            return commands[0]
        observer = self.determinizer.seat(view)
        policy = self.policy()
        root = _Node()
        root_choice = (moves, move_key(policy.choose(view, commands, chance)))
        spent = 0.0
        pause = _between_iterations
        while spent < self.budget:
            pause()
            state = self.determinizer.sample(view, chance)
            spent += self._iterate(root, state, observer, root_choice, policy, chance)
        arms = root.arms[observer]
        key = max(moves, key=lambda move: (arms[move].visits, arms[move].total))
        return moves[key][0]

    def _iterate(
        self,
        root: _Node,
        state: Any,
        observer: int,
        root_choice: tuple[dict[Hashable, list[Any]], Hashable],
        policy: Bot,
        chance: Chance,
    ) -> float:
        """One iteration from a determinization; answers what it spent of the budget: the decisions it
        simulated, its deal and scoring (`deal_cost` a seat), and the moves its selections weighed."""
        game = self.game
        move_key = self.determinizer.move_key
        rng = chance.rng
        path: list[tuple[int, _Arm]] = []
        node = root
        steps = 0
        weighed = 0
        expanded = False
        while not expanded and game.result(state) is None:
            joint: list[tuple[int, Any]] = []
            keys: list[Hashable] = []
            for seat in game.awaiting(state):
                if node is root and seat == observer:
                    moves, hint = root_choice
                else:
                    legal = game.legal_commands(state, seat)
                    moves = group_moves(legal, move_key)
                    if len(moves) == 1:
                        joint.append((seat, legal[0]))
                        keys.append(None)
                        continue
                    hint = move_key(policy.choose(game.view(state, seat), legal, chance))
                key, arm = self._select(node, seat, moves, hint)
                weighed += len(moves)
                expanded = expanded or arm.visits == 0
                group = moves[key]
                joint.append((seat, group[rng.randrange(len(group))] if len(group) > 1 else group[0]))
                keys.append(key)
                path.append((seat, arm))
            for seat, command in joint:
                state = apply(game, state, seat, command, chance)
                steps += 1
            child_key = tuple(keys)
            child = node.children.get(child_key)
            if child is None:
                child = node.children[child_key] = _Node()
            node = child
        result, rollout_steps = self._rollout(state, policy, chance)
        reward = rewards(result)
        for seat, arm in path:
            arm.visits += 1
            arm.total += reward[seat]
        return steps + rollout_steps + self.deal_cost * len(reward) + self.move_cost * weighed

    def _select(
        self, node: _Node, seat: int, moves: dict[Hashable, list[Any]], hint: Hashable
    ) -> tuple[Hashable, _Arm]:
        """The seat's move at this node by PUCT; a move not tried yet is valued at the tried ones' mean."""
        arms = node.arms.get(seat)
        if arms is None:
            arms = node.arms[seat] = {}
        tried = 0
        value_sum = 0.0
        for key in moves:
            arm = arms.get(key)
            if arm is None:
                arm = arms[key] = _Arm()
            arm.available += 1
            if arm.visits:
                tried += 1
                value_sum += arm.total / arm.visits
        first_play = value_sum / tried if tried else 0.5
        spread = PRIOR_SPREAD / len(moves)
        exploration = self.exploration
        best_key = hint
        best_value = -math.inf
        for key in moves:
            arm = arms[key]
            prior = spread + (1 - PRIOR_SPREAD) if key == hint else spread
            mean = arm.total / arm.visits if arm.visits else first_play
            value = mean + exploration * prior * math.sqrt(arm.available) / (1 + arm.visits)
            if value > best_value:
                best_key, best_value = key, value
        return best_key, arms[best_key]

    def _rollout(self, state: Any, policy: Bot, chance: Chance) -> tuple[Result, int]:
        """Play to the end: every awaited seat asks the policy, which sees only that seat's view; through
        the game's fast path for its bots where it has one for the policy (`Game.play_bots`: the same
        game, its events left unread)."""
        game = self.game
        played = game.play_bots(state, [policy] * state.players, lambda _at, _seat: chance, lambda _at: chance, 0)
        if played is not None:
            _events, end, decisions = played
            result = game.result(end)
            assert result is not None, "a fast path plays the game to its end"
            return result, decisions
        steps = 0
        while (result := game.result(state)) is None:
            seat = game.awaiting(state)[0]
            command = policy.choose(game.view(state, seat), game.legal_commands(state, seat), chance)
            state = apply(game, state, seat, command, chance)
            steps += 1
        return result, steps


class MctsBot:
    """A bot that searches with `Search`; built per decision like every bot."""

    __slots__ = ("search",)

    def __init__(self, search: Search) -> None:
        self.search = search

    def choose(self, view: Any, commands: Sequence[Any], chance: Chance) -> Any:
        return self.search.best(view, commands, chance)


def search_bots(
    game: Callable[[], AnyGame],
    determinizer: Determinizer,
    policy: Callable[[], Bot],
    budget: int,
    strong_budget: int,
    deal_cost: float = 0.0,
    move_cost: float = MOVE_COST,
) -> dict[str, Callable[[], Bot]]:
    """`mcts` and `mcts:strong` for a game's `bots` mapping: budgets in simulated decisions, each
    iteration's deal and scoring counted as `deal_cost` decisions a seat, each move a selection weighs
    as `move_cost` (see the module's "Budget").

    `game` is called when a bot is built (a game's bots are declared before the game value exists).
    """

    def mcts() -> Bot:
        """Information-set Monte Carlo tree search: it deals the cards it cannot see in many ways and plays
        each deal out with greedy players; never peeks; a fraction of a second a decision (its `cpu_ms`)."""
        return MctsBot(Search(game(), determinizer, policy, budget, deal_cost=deal_cost, move_cost=move_cost))

    def strong() -> Bot:
        """The same search with five times the budget, and five times the CPU time a decision (its `cpu_ms`)."""
        return MctsBot(Search(game(), determinizer, policy, strong_budget, deal_cost=deal_cost, move_cost=move_cost))

    return {"mcts": mcts, "mcts:strong": strong}
