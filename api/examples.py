"""Request body examples for the OpenAPI document: what an integrating app would send."""

from __future__ import annotations

from typing import Any

from litestar.enums import RequestEncodingType
from litestar.openapi.spec import Example
from litestar.params import BodyKwarg


def json_body(description: str, **examples: dict[str, Any]) -> BodyKwarg:
    """A JSON body marker carrying named examples."""
    return BodyKwarg(
        media_type=RequestEncodingType.JSON,
        description=description,
        examples=[Example(id=name, summary=name.replace("_", " "), value=value) for name, value in examples.items()],
    )


CREATE_GAME = json_body(
    "The game, its player count, options and optionally a seed and the seats filled at creation.",
    person_and_two_bots={
        "game": "sushi-go",
        "players": 3,
        "seed": 7,
        "seats": [{"name": "Alice", "player_id": "app-user-17"}, {"bot": "greedy"}, {"bot": "random"}],
    },
    open_party_game={"game": "sushi-go-party", "players": 5, "options": {"menu": "master-menu"}},
)

TAKE_SEAT = json_body(
    "A person (a name, optionally the app's user id) or a bot.",
    person={"name": "Alice", "player_id": "app-user-17"},
    bot={"bot": "greedy"},
)

COMMAND = json_body(
    "One command, tagged by `type`; `legal-commands` lists every one the seat may send now.",
    sushi_go_pick={"type": "pick", "cards": [17]},
    sushi_go_chopsticks={"type": "pick", "cards": [17, 42]},
    spin_some_rotate={"type": "rotate", "steps": -2},
)

SCORE = json_body(
    "Tableaus to score; `cards` are slugs in play order (order matters for wasabi).",
    sushi_go={
        "players": [
            {"cards": ["wasabi", "squid-nigiri"], "desserts": ["pudding"]},
            {"cards": ["tempura", "tempura", "maki-3"], "desserts": []},
        ],
        "end_of_game": True,
    },
)
