"""Matchmaking: which of the players waiting in one queue (one app, one game, the same options) sit
down together. Pure: the caller reads the waiting entries, the time each has waited and whether its
bots are due, and writes the games this forms.

A group of entries is *compatible* when

- its players are distinct and its size `n` (people and bots) is within every member's player-count
  range `min_players..max_players`;
- every rated member's rating window covers every other rated member's rating: `|r_i - r_j| <= w_i`
  (an unrated member, one without a rating yet, neither asks nor is asked anything of ratings);
- with bots: every member asked for bots, and at least one of them (the oldest, whose game it is) has
  waited past the time it gave (`bots_due`).

`form_games` forms games until no compatible group of people alone, nor any due group with bots, is
left among the entries it did not place. Games of people alone come first: bots fill only a game that
people alone could not, so a pass over the anchors forms those, then a second pass the games with
bots among the entries left. In each pass every game is formed around the oldest entry that can be
in one (as many people as can sit with it, the largest such game), so a player who waited longer is
placed first; removing entries never makes a group possible, so an anchor found in no game stays so,
and each pass is complete. A window widens while its player waits (`window_after`)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

#: The rating window a rated player starts with, unless they give one (openskill's mu - 3 sigma scale).
DEFAULT_WINDOW = 5.0
#: How much a window widens each minute its player waits, unless they say.
DEFAULT_WIDENING = 5.0
#: The widest a window gets by waiting.
MAX_WINDOW = 100.0


class Waiting(msgspec.Struct, frozen=True):
    """One entry of a queue, as matching sees it."""

    entry_id: str
    player: str
    min_players: int
    max_players: int
    #: The player's rating when they joined (None: not rated yet).
    rating: float | None = None
    #: The window now (already widened by the wait).
    window: float = DEFAULT_WINDOW
    #: The bot the entry asked to fill its game with after a wait (None: people only).
    bot: str | None = None
    #: That wait is over.
    bots_due: bool = False


class Formed(msgspec.Struct, frozen=True):
    """A game to create: its people (entry ids, oldest first: the seats in this order) and bots."""

    entries: tuple[str, ...]
    bots: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        return len(self.entries) + len(self.bots)


def window_after(start: float, widening_per_minute: float, waited_seconds: float) -> float:
    """A rated player's window after waiting that long."""
    return min(MAX_WINDOW, max(start, start + widening_per_minute * max(waited_seconds, 0.0) / 60.0))


def rating_compatible(group: Sequence[Waiting]) -> bool:
    rated = [entry for entry in group if entry.rating is not None]
    return all(
        abs(a.rating - b.rating) <= a.window  # type: ignore[operator]
        for a in rated
        for b in rated
    )


def compatible(group: Sequence[Waiting], bots: int = 0) -> bool:
    """Whether these entries (and that many bots) may sit down together (see the module's docstring)."""
    size = len(group) + bots
    if not group or len({entry.player for entry in group}) != len(group):
        return False
    if not all(entry.min_players <= size <= entry.max_players for entry in group):
        return False
    if bots and not (all(entry.bot is not None for entry in group) and any(entry.bots_due for entry in group)):
        return False
    return rating_compatible(group)


def _fits(anchor: Waiting, others: Sequence[Waiting], size: int, with_bots: bool) -> list[Waiting]:
    """The most others (up to size - 1, oldest first) that can sit with `anchor` at a game of `size`."""
    candidates = [
        entry
        for entry in others
        if entry.min_players <= size <= entry.max_players
        and entry.player != anchor.player
        and (not with_bots or entry.bot is not None)
    ]
    unrated = [entry for entry in candidates if entry.rating is None]
    unrated_ids = {entry.entry_id for entry in unrated}
    rated = [entry for entry in candidates if entry.rating is not None]
    if anchor.rating is not None:
        # Only those whose rating and window agree with the anchor's can be with it at all.
        rated = [
            entry
            for entry in rated
            if abs(entry.rating - anchor.rating) <= min(entry.window, anchor.window)  # type: ignore[operator]
        ]
    best: list[Waiting] = []
    # A group of rated members spans ratings lo..hi; whoever's rating lies within and whose window
    # reaches both ends sits with any others of that span. Try every span the candidates give.
    spans: list[tuple[float, float]] = [(0.0, -1.0)]  # the empty span: unrated people only
    ratings = {entry.rating for entry in rated if entry.rating is not None}
    points = sorted(ratings if anchor.rating is None else ratings | {anchor.rating})
    for low_index, low in enumerate(points):
        for high in points[low_index:]:
            if anchor.rating is None or low <= anchor.rating <= high:
                spans.append((low, high))
    for low, high in spans:
        if anchor.rating is not None and not (low <= anchor.rating <= high):
            continue
        if anchor.rating is not None and max(anchor.rating - low, high - anchor.rating) > anchor.window:
            continue
        inside = [
            entry
            for entry in rated
            if low <= entry.rating <= high  # type: ignore[operator]
            and max(entry.rating - low, high - entry.rating) <= entry.window  # type: ignore[operator]
        ]
        ids = {entry.entry_id for entry in inside} | unrated_ids
        chosen: list[Waiting] = []
        players = {anchor.player}
        for entry in others:
            if entry.entry_id in ids and entry.player not in players and len(chosen) < size - 1:
                chosen.append(entry)
                players.add(entry.player)
        if len(chosen) > len(best):
            best = chosen
            if len(best) == size - 1:
                break
    return best


def _sizes(anchor: Waiting, lowest: int, highest: int) -> range:
    """The game sizes the anchor may sit at, largest first."""
    return range(min(anchor.max_players, highest), max(anchor.min_players, lowest) - 1, -1)


def _people_game(anchor: Waiting, others: Sequence[Waiting], lowest: int, highest: int) -> Formed | None:
    """The largest game of people alone around `anchor`; None when it can be in none now."""
    for size in _sizes(anchor, lowest, highest):
        people = _fits(anchor, others, size, with_bots=False)
        if len(people) == size - 1:
            return Formed(entries=(anchor.entry_id, *(entry.entry_id for entry in people)))
    return None


def _bots_game(anchor: Waiting, others: Sequence[Waiting], lowest: int, highest: int) -> Formed | None:
    """With its bots due, the game around `anchor` with the most people and the fewest bots; None when
    they are not due (or it asked for none)."""
    if anchor.bot is None or not anchor.bots_due:
        return None
    best: tuple[int, int, list[Waiting]] | None = None
    for size in _sizes(anchor, lowest, highest):
        people = _fits(anchor, others, size, with_bots=True)
        score = (len(people), -size)
        if best is None or score > (best[0], best[1]):
            best = (len(people), -size, people)
    if best is None:
        return None
    people, size = best[2], -best[1]
    return Formed(
        entries=(anchor.entry_id, *(entry.entry_id for entry in people)),
        bots=(anchor.bot,) * (size - 1 - len(people)),
    )


def form_games(waiting: Sequence[Waiting], lowest: int, highest: int) -> list[Formed]:
    """The games to start now from these entries, oldest first (`waiting` is in the order they
    joined), for a game of `lowest..highest` players: disjoint, each compatible, and none left that
    could be formed from the entries not placed; games of people alone before any with bots."""
    left = list(waiting)
    order = {entry.entry_id: number for number, entry in enumerate(waiting)}
    formed: list[Formed] = []
    for game_around in (_people_game, _bots_game):
        index = 0
        while index < len(left):
            anchor = left[index]
            game = game_around(anchor, left[:index] + left[index + 1 :], lowest, highest)
            if game is None:
                index += 1  # never in such a game with these entries, nor with fewer of them
                continue
            # The seats follow the order the people joined in.
            formed.append(Formed(entries=tuple(sorted(game.entries, key=order.__getitem__)), bots=game.bots))
            placed = set(game.entries)
            # The game may take entries tried as anchors before (a game with bots takes any that asked
            # for bots): the next anchor is the first entry not tried yet, wherever that leaves it.
            index = sum(1 for entry in left[:index] if entry.entry_id not in placed)
            left = [entry for entry in left if entry.entry_id not in placed]
    return formed
