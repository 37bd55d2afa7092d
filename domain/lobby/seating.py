"""A new table and its seats: created, seats taken by people or bots, the game started and dealt
when the last one is taken."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from kaiten.domain.chance import Chance
from kaiten.domain.engine import AnyGame, C, E, Game, NotNow, RuleViolation, S, settled
from kaiten.domain.lobby.events import MAX_ACCESS_EVENTS, GameCreated, GameStarted, SeatLeft, SeatTaken, Visibility
from kaiten.domain.lobby.folding import fold
from kaiten.domain.lobby.options import CLOCK_OPTION, parse_clock, parse_options
from kaiten.domain.lobby.seeding import commit_to_seed
from kaiten.domain.lobby.table import Decision, Table, next_seat, rules_of, seated_at, state_of


def create_game(
    game: AnyGame,
    players: int,
    options: Mapping[str, Any] | None,
    seed: int,
    salt: bytes,
    visibility: Visibility = "public",
    rematch_of: str | None = None,
    chosen_deal: bool = False,
) -> list[Any]:
    """The new table's GameCreated: chance seeded by the seed and the salt together."""
    if not game.min_players <= players <= game.max_players:
        raise RuleViolation(
            "invalid-player-count",
            f"{game.name} takes {game.min_players} to {game.max_players} players, not {players}",
        )
    parsed = parse_options(game, options, players)
    clock = parse_clock(options)
    clocked = {} if clock is None else {CLOCK_OPTION: msgspec.to_builtins(clock)}
    return [
        GameCreated(
            game=game.id,
            players=players,
            options={**msgspec.to_builtins(parsed), **clocked},
            seed_commitment=commit_to_seed(seed, salt),
            seed=seed,
            salt=salt.hex(),
            rules_version=game.rules_version,
            visibility=visibility,
            rematch_of=rematch_of,
            chance_from="seed+salt",
            chosen_deal=chosen_deal,
        )
    ]


def take_seat(
    game: Game[S, C, E, Any],
    table: Table[S],
    chance: Chance,
    *,
    person: str | None = None,
    guest: bool = False,
    bot: str | None = None,
) -> Decision[S]:
    """The next seat, taken by a person (their reference) or a bot; the last one starts the game."""
    if (bot is None) == (person is None):
        raise RuleViolation("invalid-seat", "a seat is taken by a person or by a bot")
    return seated(
        game, table, SeatTaken(seat=next_seat(table), bot=bot, person=person, guest=guest and bot is None), chance
    )


def seated(game: Game[S, C, E, Any], table: Table[S], taken: SeatTaken, chance: Chance) -> Decision[S]:
    """The seat `taken` takes, and when it is the last one the game's start and deal."""
    game = rules_of(game, table)
    if table.status != "open" or len(table.seats) >= table.players:
        raise NotNow("game-full", "every seat of this game is taken")
    if taken.seat != next_seat(table):
        raise RuleViolation("invalid-seat", f"the next seat is {next_seat(table)}, not {taken.seat}")
    if taken.bot is not None and taken.bot not in game.bots:
        raise RuleViolation("unknown-bot", f"{game.name} has no bot {taken.bot!r}; try one of {sorted(game.bots)}")
    events: list[Any] = [taken]
    if len(table.seats) + 1 < table.players:
        return Decision(events=tuple(events), table=fold(game, table, events))
    events.append(GameStarted())
    started = fold(game, table, events)
    state = state_of(started)
    dealt, state = settled(game, state, game.setup(table.options, table.players, chance), chance)
    return Decision(events=(*events, *dealt), table=msgspec.structs.replace(started, state=state))


def leave_seat(game: Game[S, C, E, Any], table: Table[S], seat: int) -> Decision[S]:
    """A person gives their seat back before the game starts; anyone may take it again."""
    if table.status == "active":
        raise NotNow("game-started", "the game has started: a seat is left by resigning now")
    if table.status != "open":
        code = "game-abandoned" if table.status == "abandoned" else "game-finished"
        raise NotNow(code, "the game is over")
    taken = seated_at(table, seat)
    if taken is None or taken.player is not None:
        raise RuleViolation("invalid-seat", f"seat {seat} is no person's seat of this game")
    if table.access_events + 2 > MAX_ACCESS_EVENTS:
        raise NotNow(
            "too-many-lobby-events",
            f"this game holds {MAX_ACCESS_EVENTS} invitations, revocations and claimed seats: no game holds more",
        )
    events = [SeatLeft(seat=seat)]
    return Decision(events=tuple(events), table=fold(game, table, events))
