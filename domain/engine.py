"""The engine protocol every game implements (the Decider pattern).

A game is a value with pure functions over frozen msgspec structs, one contract for every game:

- `setup` and `decide` turn intent into events (a seat's command, validated: its events, nothing else);
- `follow` answers the events the rules write on their own in a state (a reveal once every pick is in,
  a round's scores, the next deal): none while the game waits for a seat;
- `evolve` applies one event, through the game's table of handlers (`evolver`);
- the caller folds each event once, into the state the next step reads (`settled`, `play`).

Chance is handed in as a `Chance` and its outcomes are written into events, so replay never draws again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Protocol, TypeVar

import msgspec

from kaiten.domain.chance import Chance

#: A card's id (an index into its deck's slugs, `Game.decks["cards"]`). States and views hold ids,
#: which is all the rules and the bots need; the API shows every id annotated so as an object with
#: the card's slug (api/contract/card_objects.py).
CardId = Annotated[int, msgspec.Meta(extra={"deck": "cards"})]
CardIds = tuple[CardId, ...]


def record(name: str, *fields: str) -> msgspec.Meta:
    """Marks a fixed tuple of a view as a record: the API shows it as an object named `name`, with
    these fields in the tuple's order (`Annotated[tuple[CardId, str], record("Kept", "card", "as")]`)."""
    return msgspec.Meta(extra={"record": name, "fields": fields})


class RuleViolation(Exception):
    """A command or request the rules refuse; `code` is stable and machine readable."""

    #: `rule`: never, as it stands; `conflict`: not now (`NotNow`), the client may retry after a change.
    kind = "rule"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class NotNow(RuleViolation):
    """Refused because of where the game is, not what was asked: not this seat's turn, not started,
    over, full. The same request may be accepted later."""

    kind = "conflict"


#: Marks a breakdown: points by scoring category, as the rules keep them (a dict: each game and menu
#: has its own categories). The API shows it as the game's `breakdown_type`.
Breakdown = Annotated[dict[str, int], msgspec.Meta(extra={"breakdown": True})]


def breakdown_type(name: str, categories: Sequence[str]) -> type[msgspec.Struct]:
    """A struct of the game's scoring categories: a breakdown as the API shows it. A category a game
    does not score (not on this menu) is left out, as it is from the breakdown."""
    renames = {category.replace("-", "_"): category for category in categories}
    fields: list[Any] = [(field, int | msgspec.UnsetType, msgspec.UNSET) for field in renames]
    return msgspec.defstruct(name, fields, rename=renames, forbid_unknown_fields=True, frozen=True)


class SeatScore(msgspec.Struct, frozen=True):
    seat: int
    total: int
    breakdown: Breakdown


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


class RulesVersion(msgspec.Struct, frozen=True):
    """One version of a game's rules and what it changed from the one before (DESIGN.md, "Outcomes are
    events, rules are versioned"): a game is played and replayed under the version it was created with."""

    version: int
    changes: tuple[str, ...]


class RulesVersioned:
    """A game value plays one rules version; `at_rules_version` gives the same game under another one.

    A game lists its `rules_versions` (oldest first); its constructor takes the version to play (None:
    the newest) and reads `self.rules_version` wherever its rules differ. Values are built once per
    version, so a table folding thousands of events asks for its version at no cost.
    """

    rules_versions: tuple[RulesVersion, ...] = (RulesVersion(1, ("the first rules",)),)
    rules_version: int
    id: str
    name: str

    def __init__(self, rules_version: int | None = None) -> None:
        known = [entry.version for entry in self.rules_versions]
        if rules_version is None:
            rules_version = known[-1]
        if rules_version not in known:
            raise RuleViolation(
                "unknown-rules-version", f"{self.name} has no rules version {rules_version} (it has {known})"
            )
        self.rules_version = rules_version

    def at_rules_version(self, version: int) -> Any:
        if version == self.rules_version:
            return self
        key = (type(self), version)
        found = _VERSIONED.get(key)
        if found is None:
            found = _VERSIONED[key] = type(self)(version)
        return found


_VERSIONED: dict[tuple[type, int], Any] = {}


#: A game's state, command, event and options types (`Game[S, C, E, O]`).
S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")
O_contra = TypeVar("O_contra", contravariant=True)


def _unchanged(state: S, event: Any) -> S:
    return state


class _Handlers(dict[type, Callable[[Any, Any], Any]]):
    """Handlers by event type, with one for any other type (`otherwise`)."""

    def __init__(self, handlers: Mapping[type, Callable[[Any, Any], Any]], otherwise: Callable[[Any, Any], Any]):
        super().__init__(handlers)
        self.otherwise = otherwise

    def __missing__(self, kind: type) -> Callable[[Any, Any], Any]:
        return self.otherwise


#: The table of each `evolve` that `evolver` built.
_TABLES: dict[Callable[[Any, Any], Any], _Handlers] = {}


def evolver(handlers: Mapping[type, Callable[[S, Any], S]]) -> Callable[[S, Any], S]:
    """A game's `evolve`: each event applied by the handler of its type; an event of no handler's
    type leaves the state as it is (`evolve` is total and never validates). The hot path of every
    fold: one subscript and the handler's call."""
    handler_of = _Handlers(handlers, _unchanged)

    def evolve(state: S, event: Any) -> S:
        new: S = handler_of[type(event)](state, event)
        return new

    _TABLES[evolve] = handler_of
    return evolve


def handlers(game: Game[S, Any, Any, Any]) -> Mapping[type, Callable[[S, Any], S]]:
    """What applies an event of each type, for a hot fold to call directly (`handlers[type(event)]`):
    the table of a game whose `evolve` an `evolver` built (a call fewer per event), else `evolve`
    itself for every type."""
    evolve = game.evolve
    table = _TABLES.get(evolve)
    if table is None:
        # Keyed by the game's event types, so that a lookup finds its entry at C speed. Kept too: a
        # game's bound `evolve` is equal (and hashes alike) on every read.
        table = _TABLES[evolve] = _Handlers(dict.fromkeys(game.event_types, evolve), evolve)
    return table


def settled(game: Game[S, Any, E, Any], state: S, events: Sequence[E], chance: Chance) -> tuple[tuple[E, ...], S]:
    """`events` (a decision's, or the setup's), then the events the rules write on their own after them
    (`follow`, drawing from the same `chance`), each folded once: all of them, and the state they lead
    to."""
    handler_of = handlers(game)
    follow = game.follow
    written: tuple[E, ...] = ()
    while events:
        for event in events:
            state = handler_of[type(event)](state, event)
        written += tuple(events)
        events = follow(state, chance)
    return written, state


def play(game: Game[S, C, E, Any], state: S, seat: int, command: C, chance: Chance) -> tuple[tuple[E, ...], S]:
    """A seat's command decided, and what follows it: the events and the state they lead to."""
    return settled(game, state, game.decide(state, seat, command, chance), chance)


class Bot(Protocol):
    """A bot sees only its own seat's view and the commands it may send.

    A bot that never reads its view (a random bot) says so with a class attribute `reads_view = False`
    and is handed None instead: building a view is a good part of a simulated decision's cost.
    """

    def choose(self, view: Any, commands: Sequence[Any], chance: Chance) -> Any: ...


def reads_view(bot: Bot) -> bool:
    """Whether the bot reads the view it is handed (see `Bot`)."""
    return getattr(bot, "reads_view", True) is not False


def no_bot_playout(
    state: Any,
    bots: Sequence[Bot | None],
    choosing: Callable[[int, int], Chance],
    rules_chance: Callable[[int], Chance],
    version: int,
) -> None:
    """`Game.play_bots` of a game with no fast path: its bots play one decision at a time."""
    return None


class Game(Protocol[S, C, E, O_contra]):
    """One game of the family, typed by its state, command, event and options types: mypy checks
    each game against this protocol. Commands and events are tagged msgspec structs (`tag_field="type"`)."""

    id: str
    name: str
    #: Short and CamelCase: the prefix of the names of the game's types in the API's schema.
    type_prefix: str
    min_players: int
    max_players: int
    #: The rules version this value plays; the catalog holds the newest, which new games get.
    rules_version: int
    #: Every rules version of the game, oldest first, with what changed in each.
    rules_versions: tuple[RulesVersion, ...]
    options_type: type[msgspec.Struct]
    #: Each deck's card slugs by card id (most games have one deck, "cards").
    decks: Mapping[str, Sequence[str]]
    #: The scoring categories of the game, as the API shows a breakdown (`breakdown_type`).
    breakdown_type: type[msgspec.Struct]
    #: The types of what `view` answers, of the state `evolve` folds, and of the result.
    view_type: type[msgspec.Struct]
    state_type: type[msgspec.Struct]
    result_type: type[msgspec.Struct]
    #: A Union of the game's command structs, used to decode request bodies.
    command_type: Any
    event_types: tuple[type[msgspec.Struct], ...]
    score_request_type: type[msgspec.Struct]
    #: What `catalog` answers: the game's cards and rules at a glance.
    details_type: type[msgspec.Struct]
    bots: Mapping[str, Callable[[], Bot]]
    #: What one decision of each bot costs, by player count: CPU milliseconds on the reference machine
    #: (the median decision with a choice, as `bench/mcts.py` measured it). Data, not a clock (the
    #: domain has none): measured again whenever a budget or the engine's speed changes.
    bot_costs: Mapping[str, Mapping[int, float]]

    def at_rules_version(self, version: int) -> Game[S, C, E, O_contra]:
        """This game under another of its rules versions; RuleViolation `unknown-rules-version`."""

    def check_options(self, options: O_contra, players: int) -> None:
        """Raise RuleViolation when the options do not fit the player count."""

    def setup(self, options: O_contra, players: int, chance: Chance) -> Sequence[E]:
        """The events that set the table for play (dealt hands, pile orders...), before what follows
        them (`settled`)."""

    def initial_state(self, options: O_contra, players: int) -> S:
        """The state before the first setup event is evolved."""

    def evolve(self, state: S, event: E) -> S:
        """Total: apply one event, never validate."""

    def decide(self, state: S, seat: int, command: C, chance: Chance) -> Sequence[E]:
        """Validate a seat's command and return its events, or raise RuleViolation. Never changes
        `state`; what the rules do on their own after these events is `follow`'s."""

    def follow(self, state: S, chance: Chance) -> Sequence[E]:
        """The events the rules write on their own in this state, with no seat's choice (a reveal, a
        round's scores, a deal), at most up to the next state they need to read; empty while the game
        waits for a seat. The caller folds them and asks again (`settled`)."""

    def play_bots(
        self,
        state: S,
        bots: Sequence[Bot | None],
        choosing: Callable[[int, int], Chance],
        rules_chance: Callable[[int], Chance],
        version: int,
    ) -> tuple[Sequence[E], S, int] | None:
        """A fast path for bots that play on while only they are awaited (`bots[seat]`, None for a
        person): the events and the state that `domain.lobby.run_bots` reaches by asking each bot and
        folding `decide` and `follow` one decision at a time, and how many decisions that took, or None
        when the game has none for these bots (`no_bot_playout`). The log's length is `version`; a
        decision at the log's length `at` draws the bot's choice from `choosing(at, seat)` and the
        rules' from `rules_chance(at)`, as `run_bots` does. It may work on a mutable copy of the state,
        but it writes the same immutable events."""

    def legal_commands(self, state: S, seat: int) -> Sequence[C]:
        """Every command this seat may send now; empty when it is not awaited."""

    def awaiting(self, state: S) -> tuple[int, ...]:
        """The seats whose command the game waits for, ascending."""

    def view(self, state: S, seat: int | None) -> msgspec.Struct:
        """What this seat (None: a spectator) may see of the state."""

    def redact(self, event: E, seat: int | None) -> E | None:
        """The event as this seat may see it while the game runs, or None to hide it."""

    def result(self, state: S) -> Result | None:
        """The final result once the game is over."""

    def picks(self, event: E) -> Sequence[tuple[int, str]]:
        """The cards this event shows seats taking for themselves, as (seat, card slug) pairs.

        A pick is one card that a seat takes in play into what it scores from (its tableau, its
        menu, its portions...); each game says what that is. The pick-rate statistics count them.
        """

    def score(self, request: Any) -> tuple[SeatScore, ...]:
        """Score arbitrary tableaus (the catalog's scoring calculator)."""

    def catalog(self) -> msgspec.Struct:
        """The game's cards, menus and rules at a glance, for the catalog endpoint (a `details_type`)."""


#: Any game of the catalog, whatever its types (where the caller needs no more).
AnyGame = Game[Any, Any, Any, Any]
