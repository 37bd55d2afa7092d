"""JSON encoding of one game's events and commands, with one reused encoder and decoder per game."""

from __future__ import annotations

from functools import cache
from typing import Any, Union

import msgspec

from kaiten.domain.catalog import get_game
from kaiten.domain.engine import AnyGame, RuleViolation
from kaiten.domain.lobby import LOBBY_EVENTS
from kaiten.services.errors import ServiceError
from kaiten.services.ports import StoredEvent
from kaiten.services.upcasting import current_version, upcast

_encoder = msgspec.json.Encoder()
_object_decoder = msgspec.json.Decoder(dict[str, Any])


class _FirstEvent(msgspec.Struct):
    """What every shape of GameCreated has: the game whose codec reads the rest of the log."""

    game: str


_first_event_decoder = msgspec.json.Decoder(_FirstEvent)


class GameCodec:
    def __init__(self, game: AnyGame) -> None:
        self.game = game
        event_union: Any = Union[(*LOBBY_EVENTS, *game.event_types)]
        self._events = msgspec.json.Decoder(event_union)
        self._commands = msgspec.json.Decoder(game.command_type)
        self._score_requests = msgspec.json.Decoder(game.score_request_type)

    def encode_event(self, event: Any) -> bytes:
        return _encoder.encode(event)

    def schema_version(self, event: Any) -> int:
        """The schema version `encode_event` writes for this event."""
        return current_version(self.game.id, type(event).__name__)

    def decode_event(self, event_type: str, schema_version: int, data: bytes) -> Any:
        """An event as stored; an older `schema_version` of its type is upcast first."""
        if schema_version != current_version(self.game.id, event_type):
            data = _encoder.encode(upcast(self.game.id, event_type, schema_version, _object_decoder.decode(data)))
        return self._events.decode(data)

    def decode_stored(self, stored: StoredEvent) -> Any:
        return self.decode_event(stored.type, stored.schema_version, stored.data)

    def decode_command(self, body: bytes) -> Any:
        return _decode(self._commands, body, "invalid-command", f"a {self.game.name} command")

    def decode_score_request(self, body: bytes) -> Any:
        return _decode(self._score_requests, body, "invalid-score-request", f"a {self.game.name} score request")


def _decode(decoder: msgspec.json.Decoder[Any], body: bytes, code: str, what: str) -> Any:
    """JSON that is not what the game takes breaks a rule (`code`); text that is no JSON is malformed."""
    try:
        return decoder.decode(body)
    except msgspec.ValidationError as exc:
        raise RuleViolation(code, f"not {what}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ServiceError("malformed", "malformed-request", f"the body is not JSON: {exc}") from None


@cache
def codec_for(game_id: str) -> GameCodec:
    return GameCodec(get_game(game_id))


def game_of_log(first_event_data: bytes) -> str:
    """Every log starts with GameCreated, which names the game whose codec reads the rest."""
    return _first_event_decoder.decode(first_event_data).game


def to_json_object(value: Any) -> dict[str, Any]:
    """A struct as a JSON object, without its type tag (the envelope carries the type)."""
    builtins = msgspec.to_builtins(value)
    if isinstance(builtins, dict):
        builtins.pop("type", None)
        return builtins
    return {"value": builtins}
