"""What the game routes take alike: the game's id in the path and the use cases. The caller is not a
dependency: routes read it from the request (api/auth.py `credential`, `presented`), so a route's use
case is its one dependency, which Litestar resolves inline (two of one depth it resolves in a task
group of their own, a tenth of a command's cost).
"""

from __future__ import annotations

from typing import Annotated

from litestar.di import NamedDependency
from litestar.params import HeaderParameter, PathParameter

from kaiten.services.games import Games

GameId = Annotated[str, PathParameter(description="The game's UUID")]
GamesDep = NamedDependency[Games]
#: Where an event stream resumes (an EventSource sends it on reconnecting): the `id` of the last message
#: received. Stated in the schema, checked by `resume_point` (whose refusal has its own code).
LastEventId = Annotated[
    str | None,
    HeaderParameter(
        name="Last-Event-ID",
        required=False,
        description="resume after this message: the `id` of the last one received",
        schema_extra={"pattern": "^[0-9]{1,10}$", "maxLength": 10},
    ),
]
