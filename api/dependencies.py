"""The use cases a route may ask for by name, from the services the app runs (`app.state.services`).

Registered once on the app (`providers`), so every route declares what it needs as a typed parameter
(`games: Games`) instead of reaching into the app's state.

Each provider is bound to its app when the app is made and takes no parameter: Litestar parses a
provider's parameters through a signature model at every request (`state: State` cost a person's
command 43 k instructions, 2.6%, bench/README.md), and calls a provider without any as it is. The
app's state is read when the provider is called, so services handed to an app later (the tests serve
each test's services with one app) are the ones provided.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from litestar.datastructures import State
from litestar.di import Provide

from kaiten.api.bootstrap import Services
from kaiten.services.apps import Apps
from kaiten.services.errors import ServiceError
from kaiten.services.games import Games
from kaiten.services.history import HistoryQueries
from kaiten.services.matchmaking import Matchmaking
from kaiten.services.players import Players
from kaiten.services.seasons import Seasons
from kaiten.services.stream_tickets import Ticketing
from kaiten.services.streaming import EventStreams
from kaiten.services.webhooks import Webhooks


def services_of(state: State) -> Services:
    return cast(Services, state.services)


def provide_games(state: State) -> Games:
    return services_of(state).games


def provide_streams(state: State) -> EventStreams:
    return services_of(state).streams


def provide_tickets(state: State) -> Ticketing:
    return services_of(state).tickets


def provide_apps(state: State) -> Apps:
    return services_of(state).apps


def provide_players(state: State) -> Players:
    return services_of(state).players


def provide_history(state: State) -> HistoryQueries:
    history = services_of(state).history
    if history is None:
        raise ServiceError("unavailable", "history-unavailable", "this server keeps no match history")
    return history


def provide_webhooks(state: State) -> Webhooks:
    webhooks = services_of(state).webhooks
    if webhooks is None:
        raise ServiceError("unavailable", "webhooks-unavailable", "this server keeps no webhooks")
    return webhooks


def provide_matchmaking(state: State) -> Matchmaking:
    matchmaking = services_of(state).matchmaking
    if matchmaking is None:
        raise ServiceError("unavailable", "matchmaking-unavailable", "this server keeps no matchmaking queues")
    return matchmaking


def provide_seasons(state: State) -> Seasons:
    seasons = services_of(state).seasons
    if seasons is None:
        raise ServiceError("unavailable", "seasons-unavailable", "this server keeps no seasons")
    return seasons


#: The use cases by the name a route's parameter asks for, each read from the app's services.
_USE_CASES: dict[str, Callable[[State], object]] = {
    "seasons": provide_seasons,
    "games": provide_games,
    "streams": provide_streams,
    "tickets": provide_tickets,
    "history": provide_history,
    "webhooks": provide_webhooks,
    "apps": provide_apps,
    "matchmaking": provide_matchmaking,
    # Not `players`: a dependency's name must be no body field's (Litestar takes a body field's
    # validation error for a failed dependency when their names are alike: a 500, not a 400).
    "player_service": provide_players,
}


def providers(app_state: Callable[[], State]) -> dict[str, Provide]:
    """The app's dependencies, each reading the app's state from `app_state` when it is called."""

    def bound(use_case: Callable[[State], object]) -> Provide:
        return Provide(lambda: use_case(app_state()), sync_to_thread=False)

    return {name: bound(use_case) for name, use_case in _USE_CASES.items()}
