"""What the statistics queries answer (services/history.py): plain structs of counts, rates and
ratings, worked out from the read models, which the API serves as they are. The match history's
page is shown by the API (api/contract/presenting.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import msgspec


class PlayerGameStats(msgspec.Struct, frozen=True):
    game: str
    played: Annotated[int, msgspec.Meta(description="Finished games with a seat of this player.")]
    wins: Annotated[int, msgspec.Meta(description="Finished games the player won (a shared victory counts).")]
    win_rate: Annotated[float, msgspec.Meta(description="wins / played.")]
    mean_score: float
    best_score: int
    rating: Annotated[
        float,
        msgspec.Meta(description="openskill Plackett-Luce rating, conservative: mu - 3 sigma (0 for a new player)."),
    ]
    mu: float
    sigma: float
    rated_games: Annotated[
        int,
        msgspec.Meta(description="Games that moved the rating: those with another player_id at the table."),
    ]
    resigned: Annotated[
        int,
        msgspec.Meta(
            description="Finished games the player left before the end: each ranked last and rated as a loss."
        ),
    ] = 0


class PlayerStats(msgspec.Struct, frozen=True):
    player_id: str
    #: One entry per game of the catalog the player finished at least once, by game id.
    games: list[PlayerGameStats]


class SeatWinRate(msgspec.Struct, frozen=True):
    players: int
    seat: int
    games: int
    wins: int
    win_rate: Annotated[float, msgspec.Meta(description="wins / games for this seat at this table size.")]


class ScoreCount(msgspec.Struct, frozen=True):
    score: int
    seats: Annotated[int, msgspec.Meta(description="Seats that finished a game with this total.")]


class CategoryPoints(msgspec.Struct, frozen=True):
    category: str
    points: int
    mean_per_player: Annotated[float, msgspec.Meta(description="points / player_games.")]


class CardPicks(msgspec.Struct, frozen=True):
    slug: str
    picks: Annotated[
        int,
        msgspec.Meta(
            description="Times a seat took this card in play (into its tableau, menu or portions; see the "
            "game's `picks`), over finished games."
        ),
    ]
    pick_rate: Annotated[
        float,
        msgspec.Meta(description="This card's share of all picks in the game's finished games: picks / all picks."),
    ]
    picks_per_player: Annotated[
        float, msgspec.Meta(description="Copies one seat takes in one game on average: picks / player_games.")
    ]


class GameStats(msgspec.Struct, frozen=True):
    game: str
    games: Annotated[int, msgspec.Meta(description="Finished games.")]
    player_games: Annotated[int, msgspec.Meta(description="Seats of finished games: people, anonymous and bots.")]
    mean_score: float | None
    mean_winning_score: Annotated[float | None, msgspec.Meta(description="The winners' total, averaged over games.")]
    resigned_seats: Annotated[
        int, msgspec.Meta(description="Seats of finished games whose people resigned before the end (a bot finished).")
    ]
    score_distribution: Annotated[list[ScoreCount], msgspec.Meta(description="Every final total, ascending.")]
    win_rate_by_seat: Annotated[list[SeatWinRate], msgspec.Meta(description="By table size, then seat.")]
    points_per_category: Annotated[list[CategoryPoints], msgspec.Meta(description="By category name.")]
    pick_rates: Annotated[
        list[CardPicks],
        msgspec.Meta(description="Most picked first; cards never picked are left out (their pick rate is 0)."),
    ]


class LeaderboardEntry(msgspec.Struct, frozen=True):
    rank: int
    player_id: str
    #: The name the player last sat down with.
    name: str | None
    rating: float
    mu: float
    sigma: float
    played: int
    wins: int
    rated_games: int
    display_name: Annotated[
        str, msgspec.Meta(description="What to show for the player: `name`, else `player_id` when they have no name.")
    ]


class Leaderboard(msgspec.Struct, frozen=True):
    game: str
    #: Rated players only (at least one game against another player_id), best rating first.
    players: list[LeaderboardEntry]
    next_cursor: Annotated[
        str | None,
        msgspec.Meta(description="Pass as `cursor` for the next page; null on the last page. Opaque."),
    ] = None
    season: Annotated[
        str | None,
        msgspec.Meta(description="The season whose ratings these are (its games alone); null for all time."),
    ] = None


class RatedGame(msgspec.Struct, frozen=True):
    game_id: Annotated[str, msgspec.Meta(description="The finished game that moved the rating.")]
    finished_at: datetime
    rating_before: Annotated[float, msgspec.Meta(description="The conservative rating mu - 3 sigma before the game.")]
    rating_after: Annotated[float, msgspec.Meta(description="The conservative rating after it.")]
    mu: Annotated[float, msgspec.Meta(description="openskill's mu after the game.")]
    sigma: Annotated[float, msgspec.Meta(description="openskill's sigma after the game.")]
    rated_game: Annotated[
        int, msgspec.Meta(description="Counts the player's rated games of this game of the catalog: 1 for the first.")
    ]


class RatingHistory(msgspec.Struct, frozen=True):
    player_id: str
    game: str
    #: Newest first.
    items: list[RatedGame]
    next_cursor: Annotated[
        str | None,
        msgspec.Meta(description="Pass as `cursor` for older games; null on the last page. Opaque."),
    ] = None
