"""What the API answers about games: plain structs it serves as they are.

The answers about one game (its table, its log, its commands) have a base struct here, whose game
parts are left open, and one subclass per game that types them with the game's own structs: its
view, state, options, commands and events (`views_of`). Each subclass carries the game's id as its
`game` tag, so the subclasses of one answer form a union a client tells apart by `game`. The API's
schema is generated from these very subclasses, and the presenters (api/contract/presenting.py) build
the answers from them out of what the services saw (services/seen.py), so the contract and what is
served cannot drift apart.
"""

from __future__ import annotations

import enum
from datetime import datetime
from functools import cache
from typing import Annotated, Any, Literal, TypeVar, Union, cast

import msgspec
from msgspec import UNSET, UnsetType

from kaiten.api.contract.card_objects import Shown
from kaiten.domain import lobby
from kaiten.domain.catalog import GAMES, get_game
from kaiten.domain.clock import ClockOptions
from kaiten.domain.engine import AnyGame, SeatScore
from kaiten.domain.lobby import LOBBY_EVENTS

S = TypeVar("S", bound=msgspec.Struct)


class Seat(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat as the API shows it: a person's name and player_id as they are now (services/people.py)."""

    seat: int
    name: str | None
    #: The integrating app's id for the person (only the app's key names one).
    player_id: str | None
    bot: str | None
    #: The seat's person resigned (the seat ranks last).
    resigned: bool = False
    #: The bot that plays the seat since its person resigned.
    taken_over_by: str | None = None
    #: The seat's person was erased (DELETE /v1/players/{player_id}): `name` is a neutral label.
    erased: bool = False


SeatView = Seat


class SeatTaken(msgspec.Struct, frozen=True, tag=True, tag_field="type", omit_defaults=True):
    """SeatTaken as the API shows it: the person's name and player_id as they are now (the log holds a
    reference to them)."""

    seat: int
    name: str | None
    player_id: str | None
    bot: str | None
    #: The seat's person was erased: `name` is a neutral label.
    erased: bool = False


SeatTakenView = SeatTaken

#: The lobby's events as the API shows them.
SHOWN_LOBBY_EVENTS: tuple[type[msgspec.Struct], ...] = tuple(
    SeatTakenView if event is lobby.SeatTaken else event for event in LOBBY_EVENTS
)

Status = Literal["open", "active", "finished", "abandoned"]


class GameStatus(enum.StrEnum):
    """Where a game is in its life: seats still open, being played, over, or left unfinished."""

    OPEN = "open"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


GameId = Annotated[str, msgspec.Meta(description="The game's UUID", extra_json_schema={"format": "uuid"})]


class Viewer(msgspec.Struct, frozen=True):
    seat: int | None


class SeatToken(msgspec.Struct, frozen=True):
    seat: int
    token: str


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    """A table as one viewer may see it; each game's subclass types `options`, `state` and `result`."""

    id: GameId
    status: GameStatus
    version: int
    options: Any
    seats: list[SeatView]
    viewer: Viewer
    awaiting: list[int]
    #: The game-specific view for the viewer; None until the game starts.
    state: Any
    result: Any
    created_at: datetime
    updated_at: datetime
    #: The complete game state, shown only once the game is over (everything is public then).
    full_state: Any
    #: Only for a game imported from a log (POST /v1/games/import): the id of the game it was exported
    #: from, null when the imported document named none. Absent for every game played here.
    imported_from: str | UnsetType | None = UNSET
    #: `private`: not listed, and a seat is taken only with an invitation.
    visibility: Literal["public", "private"] = "public"
    #: The finished game this one is the rematch of, and the rematch of this one once asked for.
    rematch_of: GameId | None = None
    rematch: GameId | None = None
    #: Only for a game with a clock: when each awaited seat's time runs out, by seat number (as a
    #: string); then the server moves for it (`options.clock.on_timeout`).
    awaiting_until: dict[str, datetime] | UnsetType = UNSET
    #: Only for a game whose creator chose the deal (its seed and salt): it counts in no statistics
    #: and no rating.
    chosen_deal: bool | UnsetType = UNSET


class CreatedGame(TableView, frozen=True):
    """The new game's table view, with the tokens of the human seats filled at creation."""

    #: Each human seat's token by seat number (as a string).
    tokens: dict[str, str]
    #: The same tokens as a list, for clients that read typed fields rather than maps.
    seat_tokens: list[SeatToken]


class EventView(msgspec.Struct, frozen=True):
    version: int
    type: str
    #: The event itself, its `type` included; each game's subclass types it as the union of its events.
    data: Any
    recorded_at: datetime
    #: The shape of `data` for its type: events are shown in their type's current shape, however old
    #: the stored row (a log without it, from kaiten 0.1.0, is in shape 1).
    schema_version: int


class CommandOutcome(msgspec.Struct, frozen=True):
    version: int
    events: list[Any]


class EventPage(msgspec.Struct, frozen=True):
    events: list[Any]
    last_version: int


class LegalCommands(msgspec.Struct, frozen=True):
    version: int
    seat: int
    commands: list[Any]


class LogDocument(msgspec.Struct, frozen=True):
    """What `GET /v1/games/{id}/export` answers; each game's subclass types the events and names the
    game (`sushi-go`...) as its `game`."""

    #: `kaiten-log/1`.
    format: str
    #: The exported game's id.
    id: GameId
    rules_version: int
    #: The events exactly as `GET /v1/games/{id}/events` shows them after the end.
    events: list[Any]


class MatchSummary(msgspec.Struct, frozen=True):
    """One game of the match history; each game's subclass types `scores` and names it as `game`."""

    id: GameId
    status: GameStatus
    #: The table's size (every seat, taken or not).
    players: int
    seats: list[SeatView]
    created_at: datetime
    finished_at: datetime | None
    #: Once finished: every seat's total and its breakdown by scoring category.
    scores: list[Any] | None
    winners: list[int] | None


class GameViews:
    """One game's typed answers: subclasses of the structs above, tagged with the game's id."""

    def __init__(self, game: AnyGame) -> None:
        prefix = game.type_prefix
        #: The game's options with the `clock` every game takes.
        self.options: Any = msgspec.defstruct(
            f"{prefix}TableOptions",
            [("clock", ClockOptions | UnsetType, UNSET)],
            bases=(game.options_type,),
            frozen=True,
            forbid_unknown_fields=True,
        )
        #: How the API shows what the domain holds; `type_of` and `converter` for any of its types.
        self.shown = shown = Shown(game.decks, prefix, game.breakdown_type, self.options)
        events: Any = Union[(*SHOWN_LOBBY_EVENTS, *game.event_types)]
        #: The functions from what the domain holds to what the API shows (cards as objects,
        #: breakdowns typed): of the view, the state, the result and the events.
        self.show_view = shown.converter(game.view_type)
        self.show_state = shown.converter(game.state_type)
        self.show_result = shown.converter(game.result_type)
        self.show_event = shown.converter(events)
        self.event_union: Any = shown.type_of(events)
        self.table = _subclass(
            TableView,
            f"{prefix}TableView",
            [
                ("options", self.options),
                ("state", shown.type_of(game.view_type) | None),
                ("result", shown.type_of(game.result_type) | None),
                ("full_state", shown.type_of(game.state_type) | None),
            ],
            game,
        )
        self.created = _subclass(CreatedGame, f"{prefix}CreatedGame", [], game, also=self.table)
        event_names: Any = Literal[tuple(event.__name__ for event in (*LOBBY_EVENTS, *game.event_types))]
        self.event = _subclass(EventView, f"{prefix}EventView", [("type", event_names), ("data", self.event_union)])
        listed: Any = list[self.event]  # type: ignore[name-defined]
        self.events = _subclass(EventPage, f"{prefix}EventPage", [("events", listed)], game)
        self.outcome = _subclass(CommandOutcome, f"{prefix}CommandOutcome", [("events", listed)], game)
        commands: Any = list[game.command_type]  # type: ignore[name-defined]
        self.legal = _subclass(LegalCommands, f"{prefix}LegalCommands", [("commands", commands)], game)
        self.log = _subclass(LogDocument, f"{prefix}LogDocument", [("events", listed)], game)
        #: Scores as the history reads them back from its JSON, typed as the API shows them.
        self.score_list: Any = list[shown.type_of(SeatScore)]  # type: ignore[misc]
        self.match = _subclass(MatchSummary, f"{prefix}MatchSummary", [("scores", self.score_list | None)], game)


def _subclass(
    base: type[S], name: str, fields: list[tuple[str, Any]], game: AnyGame | None = None, also: type[Any] | None = None
) -> type[S]:
    """A subclass of `base` that types these fields, tagged with the game's id as `game` when given."""
    bases = (base,) if also is None else (also, base)
    tags: dict[str, Any] = {} if game is None else {"tag_field": "game", "tag": game.id}
    return cast(type[S], msgspec.defstruct(name, fields, bases=bases, frozen=True, **tags))


@cache
def views_of(game_id: str) -> GameViews:
    return GameViews(get_game(game_id))


class MatchPage(msgspec.Struct, frozen=True):
    #: Each a game's own summary (`views_of(game).match`), told apart by `game`.
    items: list[MatchSummary]
    next_cursor: Annotated[
        str | None,
        msgspec.Meta(description="Pass as `cursor` for the next (older) page; null on the last page."),
    ]


_summaries: Any = list[Union[tuple(views_of(game).match for game in GAMES)]]  # type: ignore[misc]  # noqa: UP007
#: The page with each summary typed as its game's: what the API serves and its schema states.
TypedMatchPage = cast(type[MatchPage], msgspec.defstruct("MatchPage", [("items", _summaries)], bases=(MatchPage,)))
