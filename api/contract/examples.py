"""Request body examples for the OpenAPI document: what an integrating app would send."""

from __future__ import annotations

from typing import Any

#: By operation id: named example bodies.
BODY_EXAMPLES: dict[str, dict[str, Any]] = {
    "createGame": {
        "person_and_two_bots": {
            "game": "sushi-go",
            "players": 3,
            "seed": 7,
            "seats": [{"name": "Alice", "player_id": "app-user-17"}, {"bot": "greedy"}, {"bot": "random"}],
        },
        "open_party_game": {"game": "sushi-go-party", "players": 5, "options": {"menu": "master-menu"}},
        "a_day_a_turn": {
            "game": "sushi-go",
            "players": 2,
            "options": {"clock": {"turn_seconds": 86400, "bank_seconds": 172800, "on_timeout": "bot"}},
            "seats": [{"name": "Alice", "player_id": "app-user-17"}, {"name": "Bob", "player_id": "app-user-18"}],
        },
    },
    "takeSeat": {"person": {"name": "Alice", "player_id": "app-user-17"}, "bot": {"bot": "greedy"}},
    "sendCommand": {
        "sushi_go_pick": {"type": "pick", "cards": [17]},
        "sushi_go_chopsticks": {"type": "pick", "cards": [17, 42]},
        "spin_some_rotate": {"type": "rotate", "steps": -2},
    },
    "createWebhook": {
        "turns_and_end": {
            "url": "https://app.example/kaiten-hook",
            "events": ["turn", "finished"],
            "secret": "a-long-random-shared-secret",
        }
    },
    "scoreTableaus": {
        "sushi_go": {
            "players": [
                {"cards": ["wasabi", "squid-nigiri"], "desserts": ["pudding"]},
                {"cards": ["tempura", "tempura", "maki-3"], "desserts": []},
            ],
            "end_of_game": True,
        },
    },
}


def media_examples(operation_id: str) -> dict[str, Any]:
    """The operation's body examples as an OpenAPI media type's `examples`."""
    return {
        name: {"summary": name.replace("_", " "), "value": value}
        for name, value in BODY_EXAMPLES.get(operation_id, {}).items()
    }
