"""The statistics and ratings of finished games, as pure folds: what each game adds to the sums
and to each player's record. The "statistics" projection (adapters/projections/statistics.py) reads
the finished games and writes these folds' results to its tables.

Player statistics are kept per player: a person the app named a player_id for (by their person id:
services/people.py), while a guest or a bot counts in the game statistics but in no player's. They
are kept per namespace (an app's own, and what anybody may see of it: its public games alone). A
player holding several seats of one game counts it once, with their best seat (best place, best
total; a win if any of them won).

A seat whose person resigned ranks last (the result says so) and is marked in its player's record.
Ratings count it as a loss for the leaver alone: the leaver is rated below every player who stayed,
and those who stayed are rated among themselves, as if the leaver had never sat with them.
Abandoned games never finish, so they count in no statistics and no rating.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from kaiten.domain.engine import AnyGame, Result
from kaiten.domain.lobby import GameCreated, GameFinished, SeatLeft, SeatResigned, SeatTaken
from kaiten.services import ratings
from kaiten.services.ports import BUILTIN_APP, Namespace


class FinishedGame(msgspec.Struct, frozen=True):
    game: str
    result: Result
    #: The player of each seat that has one: their person id (in a log recorded before people were
    #: references, their player_id).
    players: dict[int, str]
    #: Cards picked over the game, by slug.
    picks: dict[str, int]
    #: The seats whose people resigned.
    resigned: frozenset[int] = frozenset()
    #: The app that owns the game, and whether anybody may see it (a public game).
    app_id: str = BUILTIN_APP
    public: bool = True
    #: Its creator chose the deal: the game counts nowhere.
    chosen_deal: bool = False

    @property
    def namespaces(self) -> list[Namespace]:
        """Where the game counts: in its app's own records, and in what anybody sees when public; a
        chosen deal, whose cards were known before it was played, nowhere."""
        if self.chosen_deal:
            return []
        own = Namespace(app_id=self.app_id, scope="all")
        return [own, Namespace(app_id=self.app_id, scope="public")] if self.public else [own]


class PlayerResult(msgspec.Struct, frozen=True):
    place: int
    total: int
    won: bool
    #: Every seat the player held was resigned.
    resigned: bool = False


def places(result: Result) -> dict[int, int]:
    """Each seat's place for the ratings: 1 for the winners, then by total (equal totals share)."""
    keys = {score.seat: (score.seat not in result.winners, -score.total) for score in result.scores}
    ordered = sorted(set(keys.values()))
    return {seat: ordered.index(key) + 1 for seat, key in keys.items()}


def player_results(finished: FinishedGame) -> dict[str, PlayerResult]:
    """Each player's result in the game: their best seat."""
    place = places(finished.result)
    totals = {score.seat: score.total for score in finished.result.scores}
    best: dict[str, PlayerResult] = {}
    for seat, player in finished.players.items():
        mine = PlayerResult(
            place=place[seat],
            total=totals[seat],
            won=seat in finished.result.winners,
            resigned=seat in finished.resigned,
        )
        earlier = best.get(player)
        if earlier is not None:
            mine = PlayerResult(
                place=min(earlier.place, mine.place),
                total=max(earlier.total, mine.total),
                won=earlier.won or mine.won,
                resigned=earlier.resigned and mine.resigned,
            )
        best[player] = mine
    return best


class GameTotals:
    """What a batch adds to the game tables, keyed like their rows."""

    def __init__(self) -> None:
        self.games: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self.seats: defaultdict[tuple[str, int, int], Counter[str]] = defaultdict(Counter)
        self.scores: Counter[tuple[str, int]] = Counter()
        self.categories: Counter[tuple[str, str]] = Counter()
        self.cards: Counter[tuple[str, str]] = Counter()

    def add(self, finished: FinishedGame) -> None:
        game, result = finished.game, finished.result
        players = len(result.scores)
        totals = {score.seat: score.total for score in result.scores}
        self.games[game].update(
            games=1,
            player_games=players,
            score_sum=sum(totals.values()),
            winning_score_sum=totals[result.winners[0]],
            picks=sum(finished.picks.values()),
            resigned_seats=len(finished.resigned),
        )
        for score in result.scores:
            self.seats[game, players, score.seat].update(games=1, wins=int(score.seat in result.winners))
            self.scores[game, score.total] += 1
            for category, points in score.breakdown.items():
                self.categories[game, category] += points
        for slug, count in finished.picks.items():
            self.cards[game, slug] += count


@dataclass
class PlayerRecord:
    """One player's sums in one game of the catalog, and their rating there."""

    #: The player's person id.
    person_id: str
    game: str
    played: int = 0
    wins: int = 0
    score_sum: int = 0
    best_score: int = 0
    rated_games: int = 0
    #: Finished games the player left before the end.
    resigned: int = 0
    mu: float = ratings.NEW_MU
    sigma: float = ratings.NEW_SIGMA
    rating: float = ratings.conservative(ratings.NEW_MU, ratings.NEW_SIGMA)


@dataclass(frozen=True)
class RatingChange:
    """A player's rating moved by one game: a row of their rating history."""

    #: Which of the games given to `add_to_players` (its index).
    index: int
    person_id: str
    game: str
    #: The player's rated games after this one: numbers their history in the order it was folded.
    seq: int
    rating_before: float
    rating_after: float
    mu: float
    sigma: float


def add_to_players(
    records: dict[tuple[str, str], PlayerRecord],
    finished_games: Iterable[FinishedGame],
    rating_changes: list[RatingChange] | None = None,
) -> set[tuple[str, str]]:
    """Add each game to its players' records, in the order given (a rating update starts from the
    last one); the keys of the records that changed. Missing records are created. Each rating a game
    moves is appended to `rating_changes` when given."""
    changed: set[tuple[str, str]] = set()
    for index, finished in enumerate(finished_games):
        results = player_results(finished)
        mine = {
            player: records.setdefault((player, finished.game), PlayerRecord(player, finished.game))
            for player in results
        }
        for player, result in results.items():
            record = mine[player]
            record.played += 1
            record.wins += int(result.won)
            record.score_sum += result.total
            record.best_score = result.total if record.played == 1 else max(record.best_score, result.total)
            record.resigned += int(result.resigned)
            changed.add((player, finished.game))
        before = {player: record.rating for player, record in mine.items()}
        for player in _rate(mine, results):
            if rating_changes is not None:
                record = mine[player]
                rating_changes.append(
                    RatingChange(
                        index=index,
                        person_id=player,
                        game=finished.game,
                        seq=record.rated_games,
                        rating_before=before[player],
                        rating_after=record.rating,
                        mu=record.mu,
                        sigma=record.sigma,
                    )
                )
    return changed


def _rate(records: dict[str, PlayerRecord], results: dict[str, PlayerResult]) -> list[str]:
    """Rate the players who stayed among themselves, and each leaver as the loser against them (all
    from their ratings before the game); the players rated, in a fixed order."""
    stayed = [p for p, result in results.items() if not result.resigned]
    new: dict[str, tuple[float, float]] = {}
    if len(stayed) >= 2:
        rated = ratings.rate([(records[p].mu, records[p].sigma, results[p].place) for p in stayed])
        new.update(zip(stayed, rated, strict=True))
    if stayed:
        last = max(results[p].place for p in stayed) + 1
        for leaver in (p for p, result in results.items() if result.resigned):
            against = [(records[p].mu, records[p].sigma, results[p].place) for p in stayed]
            new[leaver] = ratings.rate([*against, (records[leaver].mu, records[leaver].sigma, last)])[-1]
    for player, (mu, sigma) in new.items():
        record = records[player]
        record.mu, record.sigma, record.rating = mu, sigma, ratings.conservative(mu, sigma)
        record.rated_games += 1
    return list(new)


def finished_game(game: AnyGame, log: Sequence[Any], app_id: str = BUILTIN_APP) -> FinishedGame:
    """Who sat where, which cards were picked and the result, from a finished game's decoded log."""
    players: dict[int, str] = {}
    picks: Counter[str] = Counter()
    result: Result | None = None
    resigned: set[int] = set()
    public, chosen_deal = True, False
    for event in log:
        if isinstance(event, GameCreated):
            public, chosen_deal = event.visibility == "public", event.chosen_deal
        elif isinstance(event, SeatTaken):
            player = rated_player(event)
            if player is not None:
                players[event.seat] = player
        elif isinstance(event, SeatLeft):
            players.pop(event.seat, None)
        elif isinstance(event, SeatResigned):
            resigned.add(event.seat)
        elif isinstance(event, GameFinished):
            result = event.result
        else:
            picks.update(slug for _, slug in game.picks(event))
    if result is None:
        raise LookupError(f"a {game.id} log read as finished has no GameFinished")
    return FinishedGame(
        game=game.id,
        result=result,
        players=players,
        picks=dict(picks),
        resigned=frozenset(resigned),
        app_id=app_id,
        public=public,
        chosen_deal=chosen_deal,
    )


def rated_player(event: SeatTaken) -> str | None:
    """Whom a seat rates: an app's player (their person id; a guest is nobody's), or in a log from
    before people were references, the player_id it names."""
    if event.person is not None:
        return None if event.guest else event.person
    return event.player_id
