"""The turn clock every game may be created with (the `clock` option).

A seat gets `turn_seconds` for each turn and, once those run out, draws on its bank of
`bank_seconds` for the whole game; a turn that overruns leaves the bank smaller. The domain never reads
a clock and knows no time: the services time the turns (services/clocks.py) from when the log's events
were recorded, and the time a timeout fired is written into its event as a fact.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

OnTimeout = Literal["bot", "skip"]


class ClockOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The `clock` option every game takes: a turn's time, a bank for the whole game, and what
    happens when both run out (the greedy bot moves for the seat, or the game's default move)."""

    turn_seconds: Annotated[int, msgspec.Meta(ge=1, le=30 * 24 * 3600)]
    bank_seconds: Annotated[int, msgspec.Meta(ge=0, le=30 * 24 * 3600)] = 0
    on_timeout: OnTimeout = "bot"
