"""Record golden logs: play fixed scenarios against a running kaiten over HTTP, one JSON file each.

A deliberate script, never run by the test suite (see tests/golden/README.md). It speaks only the
documented REST contract (`../shared/API.md`), so it records any kaiten version from 0.1.0 on:

    python tests/golden/record.py --url http://127.0.0.1:8391 --out tests/golden/0.1.0 \\
        --recorded-by "kaiten 0.1.0 (commit 7c66c80)"

Each scenario creates a game with a fixed seed and its seats (`POST /v1/games`). Bots move inside the
server; the script plays the human seats: while the game runs it asks each human seat, lowest first,
for its legal commands and sends one of them, chosen by the scenario's own `random.Random(human_seed)`:
first a kind of command uniformly (the command's type and which fields it fills, see `kind`), then
one command of that kind uniformly, so rare rich commands (chopsticks, spoon, Derby cards...) are as
likely as a plain pick. Once the game is finished it reads the whole log as a spectator
(`GET /v1/games/{id}/events`, pages joined) and the spectator's table view (`GET /v1/games/{id}`).

A re-run against the same code gives the same files except for the game's id and the timestamps.
An existing file is never overwritten: a golden log is history.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

FORMAT = "kaiten-golden/1"
EVENTS_PAGE = 500
#: Far more commands than any scenario's human seats send.
MAX_COMMANDS = 20_000

CHOOSER = (
    "random.Random(human_seed); while the game runs, the lowest human seat with legal commands "
    "(GET /legal-commands) sends one: a kind (type and filled fields, lists by length) uniformly "
    "among the kinds listed, in order of first appearance, then a command of that kind uniformly"
)


def human(name: str, player_id: str | None = None) -> dict[str, Any]:
    return {"name": name} if player_id is None else {"name": name, "player_id": player_id}


def bot(name: str) -> dict[str, Any]:
    return {"bot": name}


G, R = bot("greedy"), bot("random")


@dataclass(frozen=True)
class Scenario:
    name: str
    game: str
    seed: int
    seats: Sequence[dict[str, Any]]
    options: dict[str, Any] = field(default_factory=dict)
    #: Seeds the choices of the human seats.
    human_seed: int = 0
    description: str = ""

    def create_body(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": len(self.seats),
            "options": self.options,
            "seed": self.seed,
            "seats": list(self.seats),
        }

    def humans(self) -> list[int]:
        return [seat for seat, request in enumerate(self.seats) if "bot" not in request]


CUSTOM_MENU = {
    "roll": "uramaki",
    "appetizers": ["eel", "edamame", "tempura"],
    "specials": ["takeout-box", "soy-sauce"],
    "dessert": "pudding",
}

#: Chopsticks with miso soup: a person may play two miso soups in one turn.
CHOPSTICKS_MISO_MENU = {
    "roll": "maki",
    "appetizers": ["miso-soup", "tempura", "dumpling"],
    "specials": ["chopsticks", "spoon"],
    "dessert": "green-tea-ice-cream",
}
#: A takeout box with wasabi and uramaki on the table.
TAKEOUT_WASABI_MENU = {
    "roll": "uramaki",
    "appetizers": ["miso-soup", "tempura", "sashimi"],
    "specials": ["wasabi", "takeout-box"],
    "dessert": "pudding",
}

SCENARIOS: tuple[Scenario, ...] = (
    # --- Sushi Go! (2-5 players at 0.1.0) ----------------------------------------------------------
    Scenario("sushi-go-2p-bots", "sushi-go", 101, [G, R]),
    Scenario("sushi-go-3p-bots", "sushi-go", 102, [R, G, G]),
    Scenario(
        "sushi-go-4p-humans",
        "sushi-go",
        103,
        [human("Alice", "golden-alice"), G, human("Bob"), R],
        human_seed=1100,
        description="two people; chopsticks pairs",
    ),
    Scenario("sushi-go-5p-bots", "sushi-go", 104, [G, R, G, R, G]),
    # --- Sushi Go Party! (2-8 players) ------------------------------------------------------------
    Scenario(
        "party-2p-dinner-for-two-2p-variant-humans",
        "sushi-go-party",
        201,
        [human("Alice", "golden-alice"), human("Bob", "golden-bob")],
        {"menu": "dinner-for-two", "two_player_variant": True},
        human_seed=1200,
        description="menu and special order played by people; the 2-player variant",
    ),
    Scenario("party-2p-my-first-meal", "sushi-go-party", 202, [G, R], {"menu": "my-first-meal"}),
    Scenario(
        "party-2p-random-2p-variant-pass-both-ways",
        "sushi-go-party",
        203,
        [R, G],
        {"menu": "random", "two_player_variant": True, "pass_both_ways": True},
    ),
    Scenario("party-3p-party-sampler", "sushi-go-party", 204, [G, R, G], {"menu": "party-sampler"}),
    Scenario(
        "party-3p-first-player-human",
        "sushi-go-party",
        205,
        [human("Alice"), G, R],
        {"menu": "first-player"},
        human_seed=1205,
        description="the first player (a person) picks a suggested menu",
    ),
    Scenario(
        "party-3p-chopsticks-miso-humans",
        "sushi-go-party",
        501,
        [human("Alice"), human("Bob"), human("Carol")],
        {"menu": CHOPSTICKS_MISO_MENU},
        human_seed=1501,
        description="round 3, turn 8: one person plays two miso soups (chopsticks) and nobody else plays one",
    ),
    Scenario(
        "party-3p-takeout-wasabi-humans",
        "sushi-go-party",
        603,
        [human("Alice"), G, human("Bob")],
        {"menu": TAKEOUT_WASABI_MENU},
        human_seed=1603,
        description="takeout boxes flip wasabi, alone and with a nigiri, and a nigiri alone",
    ),
    Scenario(
        "party-4p-master-menu-humans",
        "sushi-go-party",
        206,
        [human("Alice"), G, human("Bob"), R],
        {"menu": "master-menu"},
        human_seed=1213,
        description="spoon and takeout box played by people",
    ),
    Scenario(
        "party-4p-build-human",
        "sushi-go-party",
        207,
        [human("Alice"), R, G, R],
        {"menu": "build"},
        human_seed=1214,
        description="the first player (a person) builds a custom menu",
    ),
    Scenario(
        "party-5p-points-platter-human",
        "sushi-go-party",
        208,
        [G, human("Alice"), R, G, R],
        {"menu": "points-platter"},
        human_seed=1209,
        description="special order and the uramaki race with a person",
    ),
    Scenario(
        "party-5p-vote-humans",
        "sushi-go-party",
        231,
        [human("Alice"), R, human("Bob"), R, R],
        {"menu": "vote"},
        human_seed=1211,
        description="people and bots propose menus and vote",
    ),
    Scenario(
        "party-6p-sushi-go-pass-both-ways",
        "sushi-go-party",
        210,
        [G, R, G, R, G, R],
        {"menu": "sushi-go", "pass_both_ways": True},
    ),
    Scenario(
        "party-6p-custom-menu-human",
        "sushi-go-party",
        211,
        [R, G, R, human("Alice"), G, R],
        {"menu": CUSTOM_MENU},
        human_seed=1210,
        description="a custom menu given as the option; takeout box and soy sauce",
    ),
    Scenario(
        "party-7p-cutthroat-combo-pass-both-ways",
        "sushi-go-party",
        212,
        [G, R, G, R, G, R, G],
        {"menu": "cutthroat-combo", "pass_both_ways": True},
    ),
    Scenario("party-7p-vote-bots", "sushi-go-party", 215, [R, R, G, R, R, R, G], {"menu": "vote"}),
    Scenario(
        "party-8p-big-banquet-humans",
        "sushi-go-party",
        213,
        [human("Alice"), G, R, human("Bob"), G, R, G, R],
        {"menu": "big-banquet"},
        human_seed=1208,
        description="chopsticks and spoon with 8 players",
    ),
    Scenario("party-8p-random", "sushi-go-party", 214, [R, G, R, G, R, G, R, G], {"menu": "random"}),
    # --- Sushi Go! Spin Some for Dim Sum (2-6 players) --------------------------------------------
    Scenario(
        "spin-some-2p-humans",
        "spin-some-for-dim-sum",
        301,
        [human("Alice", "golden-alice"), human("Bob", "golden-bob")],
        human_seed=1301,
        description="rotations and the squishy bun played by people",
    ),
    Scenario("spin-some-3p-first-player-2", "spin-some-for-dim-sum", 302, [G, R, G], {"first_player": 2}),
    Scenario("spin-some-4p-bots", "spin-some-for-dim-sum", 303, [R, G, R, G]),
    Scenario(
        "spin-some-5p-human-first-player-1",
        "spin-some-for-dim-sum",
        304,
        [G, human("Alice"), R, G, R],
        {"first_player": 1},
        human_seed=1310,
    ),
    Scenario("spin-some-6p-first-player-5", "spin-some-for-dim-sum", 305, [G, R, G, R, G, R], {"first_player": 5}),
    # --- Dim Sum Derby (3-4 players) --------------------------------------------------------------
    Scenario("dim-sum-derby-3p-bots", "dim-sum-derby", 401, [G, R, G]),
    Scenario(
        "dim-sum-derby-3p-humans-first-player-1",
        "dim-sum-derby",
        402,
        [G, human("Alice", "golden-alice"), human("Bob")],
        {"first_player": 1},
        human_seed=1439,
    ),
    Scenario("dim-sum-derby-4p-first-player-2", "dim-sum-derby", 403, [R, G, R, G], {"first_player": 2}),
    Scenario(
        "dim-sum-derby-4p-humans",
        "dim-sum-derby",
        404,
        [human("Alice"), G, human("Bob"), R],
        human_seed=1417,
        description="every action and Derby card played by people",
    ),
)


def kind(command: dict[str, Any]) -> tuple[Any, ...]:
    """A command's type and the fields it fills (lists by length, values by JSON type)."""
    parts: list[tuple[Any, ...]] = []
    for key, value in sorted(command.items()):
        if key == "type" or value is None:
            continue
        if isinstance(value, list):
            parts.append((key, "list", len(value)))
        else:
            parts.append((key, type(value).__name__))
    return (command["type"], *parts)


def choose(rng: random.Random, commands: Sequence[dict[str, Any]]) -> dict[str, Any]:
    by_kind: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for command in commands:
        by_kind.setdefault(kind(command), []).append(command)
    kinds = list(by_kind)
    return rng.choice(by_kind[rng.choice(kinds)])


class Recorder:
    def __init__(self, client: httpx.Client) -> None:
        self.client = client

    def _json(self, response: httpx.Response) -> Any:
        if response.is_error:
            raise RuntimeError(
                f"{response.request.method} {response.request.url} → {response.status_code}: {response.text}"
            )
        return response.json()

    def get(self, path: str, token: str | None = None, **params: Any) -> Any:
        headers = {} if token is None else {"authorization": f"Bearer {token}"}
        return self._json(self.client.get(path, headers=headers, params=params))

    def post(self, path: str, body: Any, token: str | None = None, if_match: int | None = None) -> Any:
        headers = {} if token is None else {"authorization": f"Bearer {token}"}
        if if_match is not None:
            headers["if-match"] = f'"{if_match}"'
        return self._json(self.client.post(path, json=body, headers=headers))

    def play(self, scenario: Scenario) -> dict[str, Any]:
        created = self.post("/v1/games", scenario.create_body())
        game_id = created["id"]
        tokens = {int(seat): token for seat, token in created.get("tokens", {}).items()}
        if sorted(tokens) != scenario.humans():
            raise RuntimeError(f"{scenario.name}: tokens for seats {sorted(tokens)}, expected {scenario.humans()}")
        rng = random.Random(scenario.human_seed)
        sent: list[dict[str, Any]] = []
        while len(sent) < MAX_COMMANDS:
            for seat in scenario.humans():
                legal = self.get(f"/v1/games/{game_id}/legal-commands", tokens[seat])
                if legal["commands"]:
                    command = choose(rng, legal["commands"])
                    version = legal["version"]
                    self.post(f"/v1/games/{game_id}/commands", command, tokens[seat], if_match=version)
                    sent.append({"seat": seat, "after_version": version, "command": command})
                    break
            else:
                break
        table = self.get(f"/v1/games/{game_id}")
        if table["status"] != "finished":
            raise RuntimeError(f"{scenario.name}: the game is {table['status']}, awaiting {table['awaiting']}")
        return {
            "scenario": {
                "name": scenario.name,
                "description": scenario.description,
                "create": scenario.create_body(),
                "humans": {"seats": scenario.humans(), "human_seed": scenario.human_seed, "chooser": CHOOSER},
                "sent": sent,
            },
            "events": self.events(game_id),
            "final_view": table,
        }

    def events(self, game_id: str) -> list[dict[str, Any]]:
        """The whole log as a spectator sees it, pages joined."""
        events: list[dict[str, Any]] = []
        while True:
            after = events[-1]["version"] if events else 0
            page = self.get(f"/v1/games/{game_id}/events", after=after, limit=EVENTS_PAGE)
            events.extend(page["events"])
            if not page["events"] or events[-1]["version"] >= page["last_version"]:
                break
        versions = [event["version"] for event in events]
        if versions != list(range(1, len(events) + 1)):
            raise RuntimeError(f"game {game_id}: the log's versions are not 1..{len(events)}")
        return events


def dump(document: dict[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a running kaiten, e.g. http://127.0.0.1:8391")
    parser.add_argument("--out", type=Path, help="the directory for the files")
    parser.add_argument("--recorded-by", help='the server\'s version and commit, e.g. "kaiten 0.1.0 (commit 7c66c80)"')
    parser.add_argument("--only", action="append", default=[], help="record only this scenario (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the scenarios and exit")
    args = parser.parse_args(argv)
    if args.list:
        for scenario in SCENARIOS:
            print(scenario.name)
        return 0
    if args.url is None or args.out is None or args.recorded_by is None:
        parser.error("--url, --out and --recorded-by are required")
    chosen = [s for s in SCENARIOS if not args.only or s.name in args.only]
    unknown = set(args.only) - {s.name for s in SCENARIOS}
    if unknown:
        parser.error(f"no scenario {sorted(unknown)}")
    existing = [s.name for s in chosen if (args.out / f"{s.name}.json").exists()]
    if existing:
        parser.error(f"refusing to overwrite golden logs (history): {existing}")
    args.out.mkdir(parents=True, exist_ok=True)
    with httpx.Client(base_url=args.url, timeout=60) as client:
        recorder = Recorder(client)
        for scenario in chosen:
            document = {"format": FORMAT, "recorded_by": args.recorded_by, **recorder.play(scenario)}
            path = args.out / f"{scenario.name}.json"
            path.write_text(dump(document), encoding="utf-8")
            humans = len(document["scenario"]["sent"])
            print(f"{path}: {len(document['events'])} events, {humans} human commands", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
