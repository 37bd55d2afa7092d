"""The use cases a route may ask for by name, from the services the app runs (`app.state.services`).

Registered once on the app (`PROVIDERS`), so every route declares what it needs as a typed parameter
(`games: Games`) instead of reaching into the app's state.
"""

from __future__ import annotations

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


PROVIDERS = {
    "seasons": Provide(provide_seasons, sync_to_thread=False),
    "games": Provide(provide_games, sync_to_thread=False),
    "streams": Provide(provide_streams, sync_to_thread=False),
    "tickets": Provide(provide_tickets, sync_to_thread=False),
    "history": Provide(provide_history, sync_to_thread=False),
    "webhooks": Provide(provide_webhooks, sync_to_thread=False),
    "apps": Provide(provide_apps, sync_to_thread=False),
    "matchmaking": Provide(provide_matchmaking, sync_to_thread=False),
    # Not `players`: a dependency's name must be no body field's (Litestar takes a body field's
    # validation error for a failed dependency when their names are alike: a 500, not a 400).
    "player_service": Provide(provide_players, sync_to_thread=False),
}
