"""Scoring: a round's points from the tableaus, the desserts at the end of the game, the calculator.

Tableau entries are `(card id, slug it scores as, wasabi card id it sits on or -1)` in play order.
Breakdowns are keyed by category: the card type that scores (`nigiri` includes the wasabi bonus,
`takeout-box` the face-down cards); a game's breakdowns carry every scoring category of its menu.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kaiten.domain.engine import RuleViolation, SeatScore, seat_score
from kaiten.domain.majority import most_and_fewest
from kaiten.domain.sushi_go_party.cards import (
    APPETIZERS,
    COLOUR,
    DESSERT_SLUGS,
    DESSERTS,
    FACE_DOWN,
    FACE_DOWN_POINTS,
    FRUIT_ICONS,
    MAKI_ICONS,
    MAX_PLAYERS,
    NIGIRI_POINTS,
    ONIGIRI_SHAPES,
    ROLLS,
    SLUG_TYPE,
    URAMAKI_GOAL,
    URAMAKI_ICONS,
    URAMAKI_PLACES,
)
from kaiten.domain.sushi_go_party.commands import ScoreRequest
from kaiten.domain.sushi_go_party.options import MenuSpec, resolve_menu

Entry = tuple[int, str, int]

DUMPLING_POINTS: tuple[int, ...] = (0, 1, 3, 6, 10, 15)
TOFU_POINTS: tuple[int, ...] = (0, 2, 6)
FRUIT_POINTS: tuple[int, ...] = (-2, 0, 1, 3, 6, 10)
#: Category of each slug that scores (specials that never score themselves are absent).
_CATEGORY: dict[str, str] = {
    slug: kind
    for slug, kind in SLUG_TYPE.items()
    if kind not in ("chopsticks", "spoon", "menu", "takeout-box", "special-order", "wasabi")
}
_CATEGORY[FACE_DOWN] = "takeout-box"
_CATEGORY["wasabi"] = "nigiri"
#: Specials that score as a category of their own.
SCORING_SPECIALS: frozenset[str] = frozenset({"tea", "soy-sauce", "takeout-box"})


#: Every category a breakdown may have; a game's breakdowns have those of its menu.
CATEGORIES: tuple[str, ...] = ("nigiri", *ROLLS, *APPETIZERS, "tea", "soy-sauce", "takeout-box", *DESSERTS)


def menu_categories(menu: MenuSpec) -> tuple[str, ...]:
    """The breakdown categories of a game with this menu."""
    specials = tuple(name for name in menu.specials if name in SCORING_SPECIALS)
    return ("nigiri", menu.roll, *menu.appetizers, *specials, menu.dessert)


# --- single rules ---------------------------------------------------------------------------------


def dumpling_points(count: int) -> int:
    return DUMPLING_POINTS[min(count, 5)]


def eel_points(count: int) -> int:
    return 0 if count == 0 else -3 if count == 1 else 7


def tofu_points(count: int) -> int:
    return TOFU_POINTS[count] if count < 3 else 0


def onigiri_points(counts: Sequence[int]) -> int:
    """Sets of different shapes, 1/4/9/16 for 1/2/3/4 shapes; taking the largest sets first is best."""
    c = sorted(counts, reverse=True) + [0] * (4 - len(counts))
    return 16 * c[3] + 9 * (c[2] - c[3]) + 4 * (c[1] - c[2]) + (c[0] - c[1])


def fruit_points(icons: Sequence[int]) -> int:
    """Per fruit kind (watermelon, pineapple, orange): 0/1/2/3/4/5+ icons score -2/0/1/3/6/10."""
    return sum(FRUIT_POINTS[min(count, 5)] for count in icons)


def green_tea_points(count: int) -> int:
    return 12 * (count // 4)


def ranked_points(values: Sequence[int], awards: Sequence[int]) -> list[int]:
    """Maki: places by distinct positive totals (dense: a tie does not use up the next place); every
    tied seat gets the place's full points."""
    points = [0] * len(values)
    distinct = sorted({value for value in values if value > 0}, reverse=True)
    for place, value in enumerate(distinct[: len(awards)]):
        for seat, own in enumerate(values):
            if own == value:
                points[seat] = awards[place]
    return points


def maki_points(icons: Sequence[int], players_count: int) -> list[int]:
    return ranked_points(icons, (6, 4, 2) if players_count >= 6 else (6, 3))


def most_fewest_points(counts: Sequence[int], bonus: int, players_count: int) -> list[int]:
    """Temaki (4) and pudding (6): most +bonus, fewest (0 counts) -bonus, ties get full points; no
    penalty with 2 players; nobody scores when every count is equal."""
    points = [0] * len(counts)
    most, fewest = most_and_fewest(counts)
    for seat in most:
        points[seat] = bonus
    if players_count != 2:
        for seat in fewest:
            points[seat] = -bonus
    return points


def place_groups(values: Sequence[int], minimum: int) -> list[list[int]]:
    """Seats with value >= minimum, grouped by equal value, highest first."""
    distinct = sorted({value for value in values if value >= minimum}, reverse=True)
    return [[seat for seat, own in enumerate(values) if own == value] for value in distinct]


def award_places(values: Sequence[int], minimum: int, claimed: int) -> tuple[list[int], int, list[int]]:
    """Uramaki places from `claimed` on, to seats by value (>= minimum), highest first. Tied seats all
    get the place's points and use up as many places as they are (competition ranking).

    Returns (points per seat, places claimed after, the seats that scored).
    """
    points = [0] * len(values)
    scorers: list[int] = []
    for group in place_groups(values, minimum):
        if claimed >= len(URAMAKI_PLACES):
            break
        for seat in group:
            points[seat] += URAMAKI_PLACES[claimed]
            scorers.append(seat)
        claimed += len(group)
    return points, min(claimed, len(URAMAKI_PLACES)), scorers


def uramaki_race(icons: Sequence[int], claimed: int) -> tuple[list[int], int, list[int]]:
    """At the end of a turn: seats with 10+ icons claim the next places, more icons first."""
    return award_places(icons, URAMAKI_GOAL, claimed)


def uramaki_round_end(icons: Sequence[int], claimed: int) -> list[int]:
    """At round end the unclaimed places go to the most remaining icons (at least 1)."""
    return award_places(icons, 1, claimed)[0]


# --- a round --------------------------------------------------------------------------------------


def _count(entries: Sequence[Entry]) -> tuple[dict[str, int], int]:
    """(slug counts, nigiri points) of one tableau."""
    counts: dict[str, int] = {}
    nigiri = 0
    for _, slug, on in entries:
        counts[slug] = counts.get(slug, 0) + 1
        value = NIGIRI_POINTS.get(slug)
        if value is not None:
            if on >= 0 and all(entry[0] != on or entry[1] == "wasabi" for entry in entries):
                value *= 3
            nigiri += value
    return counts, nigiri


def _colours(counts: dict[str, int]) -> dict[str, int]:
    colours: dict[str, int] = {}
    for slug, count in counts.items():
        colour = COLOUR.get(slug)
        if colour is not None:
            colours[colour] = colours.get(colour, 0) + count
    return colours


def _icons(counts: dict[str, int], table: dict[str, int]) -> int:
    return sum([table[slug] * count for slug, count in counts.items() if slug in table])


_SOLO: dict[str, Callable[[dict[str, int]], int]] = {
    "tempura": lambda c: 5 * (c.get("tempura", 0) // 2),
    "sashimi": lambda c: 10 * (c.get("sashimi", 0) // 3),
    "dumpling": lambda c: dumpling_points(c.get("dumpling", 0)),
    "eel": lambda c: eel_points(c.get("eel", 0)),
    "tofu": lambda c: tofu_points(c.get("tofu", 0)),
    "onigiri": lambda c: onigiri_points([c.get(shape, 0) for shape in ONIGIRI_SHAPES]),
    "miso-soup": lambda c: 3 * c.get("miso-soup", 0),
    "tea": lambda c: c.get("tea", 0) * max(_colours(c).values()) if "tea" in c else 0,
    "takeout-box": lambda c: FACE_DOWN_POINTS * c.get(FACE_DOWN, 0),
}


def round_breakdowns(
    tableaus: Sequence[Sequence[Entry]],
    players_count: int,
    categories: Sequence[str],
    race_points: Sequence[int] | None = None,
    claimed: int = 0,
) -> list[dict[str, int]]:
    """Each tableau's round points by category (desserts score at the end of the game).

    `race_points`: uramaki points already scored this round; `claimed`: uramaki places claimed.
    """
    seats = [_count(entries) for entries in tableaus]
    counts = [seat[0] for seat in seats]
    out: list[dict[str, int]] = []
    for own, nigiri in seats:
        breakdown = dict.fromkeys(categories, 0)
        for category in categories:
            rule = _SOLO.get(category)
            if rule is not None:
                breakdown[category] = rule(own)
        if "nigiri" in breakdown:
            breakdown["nigiri"] = nigiri
        out.append(breakdown)
    for category in categories:
        if category == "maki":
            points = maki_points([_icons(own, MAKI_ICONS) for own in counts], players_count)
        elif category == "temaki":
            points = most_fewest_points([own.get("temaki", 0) for own in counts], 4, players_count)
        elif category == "uramaki":
            points = uramaki_round_end([_icons(own, URAMAKI_ICONS) for own in counts], claimed)
            if race_points:
                points = [a + b for a, b in zip(points, race_points, strict=True)]
        elif category == "edamame":
            edamame = [own.get("edamame", 0) for own in counts]
            with_edamame = sum(1 for count in edamame if count)
            points = [count * min(with_edamame - 1, 4) if count else 0 for count in edamame]
        elif category == "soy-sauce":
            distinct = [len(_colours(own)) for own in counts]
            most = max(distinct)
            points = [
                4 * own.get("soy-sauce", 0) if colours >= most else 0
                for own, colours in zip(counts, distinct, strict=True)
            ]
        else:
            continue
        for breakdown, value in zip(out, points, strict=True):
            breakdown[category] = value
    return out


def dessert_breakdowns(
    fridges: Sequence[Sequence[str]], players_count: int, desserts: Iterable[str]
) -> list[dict[str, int]]:
    """End of game: each seat's desserts (slugs) scored for the given dessert types."""
    out: list[dict[str, int]] = [{} for _ in fridges]
    for dessert in desserts:
        if dessert == "pudding":
            counts = [sum(1 for slug in fridge if slug == "pudding") for fridge in fridges]
            for breakdown, points in zip(out, most_fewest_points(counts, 6, players_count), strict=True):
                breakdown["pudding"] = points
        elif dessert == "green-tea-ice-cream":
            for breakdown, fridge in zip(out, fridges, strict=True):
                breakdown[dessert] = green_tea_points(sum(1 for slug in fridge if slug == dessert))
        elif dessert == "fruit":
            for breakdown, fridge in zip(out, fridges, strict=True):
                icons = [0, 0, 0]
                for slug in fridge:
                    for kind, count in enumerate(FRUIT_ICONS.get(slug, (0, 0, 0))):
                        icons[kind] += count
                breakdown["fruit"] = fruit_points(icons)
    return out


# --- the calculator -------------------------------------------------------------------------------


def entries_from_slugs(slugs: Sequence[str]) -> list[Entry]:
    """Entries for a list of slugs in play order (ids are positions); nigiri take the earliest free wasabi."""
    entries: list[Entry] = []
    free: list[int] = []
    for position, slug in enumerate(slugs):
        if slug not in SLUG_TYPE:
            raise RuleViolation("unknown-card", f"Sushi Go Party! has no card {slug!r}")
        on = -1
        if slug == "wasabi":
            free.append(position)
        elif slug in NIGIRI_POINTS and free:
            on = free.pop(0)
        entries.append((position, slug, on))
    return entries


def score_request(request: ScoreRequest) -> tuple[SeatScore, ...]:
    players = len(request.players)
    if not 1 <= players <= MAX_PLAYERS:
        raise RuleViolation("invalid-player-count", f"score 1 to {MAX_PLAYERS} players, not {players}")
    players_count = request.players_count if request.players_count is not None else max(players, 2)
    if not max(players, 2) <= players_count <= MAX_PLAYERS:
        raise RuleViolation(
            "invalid-player-count", f"players_count must be {max(players, 2)} to {MAX_PLAYERS}, not {players_count}"
        )
    menu = resolve_menu(request.menu, players_count) if request.menu is not None else None
    tableaus = [entries_from_slugs(player.cards) for player in request.players]
    fridges: list[list[str]] = []
    for player, entries in zip(request.players, tableaus, strict=True):
        for dessert in player.desserts:
            if dessert not in DESSERT_SLUGS:
                raise RuleViolation("not-a-dessert", f"{dessert!r} is not a dessert")
        fridges.append([*player.desserts, *(slug for _, slug, _ in entries if slug in DESSERT_SLUGS)])
    present = {SLUG_TYPE[slug] for entries in tableaus for _, slug, _ in entries}
    present |= {SLUG_TYPE[slug] for fridge in fridges for slug in fridge}
    scoring = {_CATEGORY[slug] for entries in tableaus for _, slug, _ in entries if slug in _CATEGORY}
    desserts = sorted(present & {"pudding", "green-tea-ice-cream", "fruit"})
    categories = sorted(scoring)
    if menu is not None:
        on_menu = menu_categories(menu)
        categories = [*on_menu, *(category for category in categories if category not in on_menu)]
        desserts = [menu.dessert, *(dessert for dessert in desserts if dessert != menu.dessert)]
    round_categories = [category for category in categories if category not in desserts]
    breakdowns = round_breakdowns(tableaus, players_count, round_categories)
    if request.end_of_game:
        for breakdown, extra in zip(breakdowns, dessert_breakdowns(fridges, players_count, desserts), strict=True):
            breakdown.update(extra)
    return tuple(seat_score(seat, breakdown) for seat, breakdown in enumerate(breakdowns))
