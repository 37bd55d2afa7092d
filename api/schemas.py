"""Request and response bodies of the REST API that the services do not already define."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, Union, cast

import msgspec

from kaiten.domain.catalog import GAMES, get_game
from kaiten.services.access import Credential
from kaiten.services.commands import CreateGame, NewSeat
from kaiten.services.seats import IssuedInvitation
from kaiten.services.text_rules import PRINTABLE
from kaiten.services.webhooks import WebhookEvent

GameName = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Players = Annotated[int, msgspec.Meta(ge=1, le=64)]
Seed = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]


class SeatRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A human seat has a name (and optionally the integrating app's user id); a bot seat a bot."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=100, pattern=PRINTABLE)] | None = None
    player_id: Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=PRINTABLE)] | None = None
    bot: Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=PRINTABLE)] | None = None

    def as_new_seat(self) -> NewSeat:
        return NewSeat(name=self.name, player_id=self.player_id, bot=self.bot)


class TakeSeatRequest(SeatRequest, frozen=True, forbid_unknown_fields=True):
    #: The code of an invitation (createInvitation): a private game's seats need one.
    invitation: Annotated[str, msgspec.Meta(min_length=1, max_length=256, pattern=PRINTABLE)] | None = None


class CreateGameRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    game: GameName
    players: Players
    options: dict[str, Any] = {}
    seed: Seed | None = None
    #: With `seed`, a deal the caller chose: the game deals exactly as the game of that seed and salt
    #: (whose end revealed them) did, and counts in no statistics and no rating.
    salt: Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{32}$", description="16 bytes, as hex")] | None = None
    seats: list[SeatRequest] = []
    #: `private`: not listed, and its free seats are taken only with an invitation.
    visibility: Literal["public", "private"] = "public"

    def as_command(self, caller: Credential) -> CreateGame:
        return CreateGame(
            game=self.game,
            players=self.players,
            options=self.options,
            seed=self.seed,
            salt=None if self.salt is None else bytes.fromhex(self.salt),
            seats=tuple(seat.as_new_seat() for seat in self.seats),
            visibility=self.visibility,
            caller=caller,
        )


class BotCost(msgspec.Struct, frozen=True):
    """What one decision of a bot costs at one player count."""

    players: int
    cpu_ms: Annotated[
        float,
        msgspec.Meta(description="The median CPU milliseconds of a decision at this player count, as measured"),
    ]


class BotInfo(msgspec.Struct, frozen=True):
    """A bot a seat may be given, and what a decision of it costs: CPU milliseconds on the reference
    machine (kaiten's bench/README.md), the median decision with a choice as bench/mcts.py measured it
    (a forced move costs nothing). The search bots count their budgets in simulated decisions, so that
    a game replays the same moves for its seed on any machine, weighted so that a decision costs about
    the same through a whole game (the bench's target: a 99th percentile within 1.5 times the median).
    Another machine, or a busy one, takes more or less."""

    id: str
    name: str
    description: str
    cpu_ms: Annotated[
        float,
        msgspec.Meta(
            description="CPU milliseconds a decision costs on the reference machine, as measured: the median "
            "decision at the player count where it is dearest (`cpu_ms_by_players` has every count)"
        ),
    ]
    cpu_ms_by_players: Annotated[
        list[BotCost],
        msgspec.Meta(description="The median CPU milliseconds of a decision at each player count, fewest first"),
    ]


class CatalogGame(msgspec.Struct, frozen=True):
    """One game of the catalog; each game's subclass types its `options` and names it as its `id`."""

    name: str
    min_players: int
    max_players: int
    #: The options a game gets when it names none.
    options: Any
    #: The bots a seat may be given (`{"bot": id}`).
    bots: list[BotInfo]
    #: The rules version new games are created under (a game keeps the one it was created with).
    rules_version: int


class RulesVersionEntry(msgspec.Struct, frozen=True):
    version: int
    #: What this version changed from the one before.
    changes: list[str]


class CatalogEntry(CatalogGame, frozen=True):
    #: The JSON Schema of the options (open by nature: it is a schema).
    option_schema: dict[str, Any]
    #: Cards, menus and rules at a glance (each game's entry types them).
    details: Any
    #: Every rules version of the game, oldest first.
    rules_versions: list[RulesVersionEntry]


@cache
def catalog_types(game_id: str) -> tuple[type[CatalogGame], type[CatalogEntry]]:
    """The catalog's structs for one game: its summary and its entry, tagged with its id."""
    game = get_game(game_id)
    prefix = game.type_prefix
    summary = msgspec.defstruct(
        f"{prefix}CatalogGame", [("options", game.options_type)], bases=(CatalogGame,), tag_field="id", tag=game.id
    )
    entry = msgspec.defstruct(f"{prefix}CatalogEntry", [("details", game.details_type)], bases=(summary, CatalogEntry))
    return cast(type[CatalogGame], summary), cast(type[CatalogEntry], entry)


class Catalog(msgspec.Struct, frozen=True):
    #: Each a game's own summary (`TypedCatalog` types them).
    games: list[Any]


_summaries: Any = list[Union[tuple(catalog_types(game)[0] for game in GAMES)]]  # type: ignore[misc]  # noqa: UP007
#: The catalog with each game's summary typed: what the API serves and its schema states.
TypedCatalog = cast(type[Catalog], msgspec.defstruct("Catalog", [("games", _summaries)], bases=(Catalog,)))


class Health(msgspec.Struct, frozen=True, omit_defaults=True):
    status: str
    #: `/ready` only: `open` when callers without an app key write as the built-in app, else `keys`.
    auth: Literal["open", "keys"] | None = None


class WebhookRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    #: http:// or https://; its host must not resolve to a loopback, link-local or private address.
    url: Annotated[str, msgspec.Meta(min_length=1, max_length=2000, pattern=PRINTABLE)]
    #: The moments to be told of: `turn`, `finished`, or both.
    events: Annotated[list[WebhookEvent], msgspec.Meta(min_length=1, max_length=2)]
    #: Signs every delivery (`X-Kaiten-Signature`); keep it secret.
    secret: Annotated[str, msgspec.Meta(min_length=16, max_length=256, pattern=PRINTABLE)]


class Invitation(msgspec.Struct, frozen=True):
    """An invitation to a private game: its code takes any free seat (`takeSeat` with `invitation`)
    until it is revoked; it is shown only now (kaiten keeps its hash)."""

    id: str
    code: str
    #: The web client's page that takes a seat with it (the code travels in the fragment, which
    #: browsers never send to a server).
    url: str

    @classmethod
    def of(cls, issued: IssuedInvitation) -> Invitation:
        url = f"/play#/games/{issued.game_id}/join?invitation={issued.code}"
        return cls(id=issued.id, code=issued.code, url=url)
