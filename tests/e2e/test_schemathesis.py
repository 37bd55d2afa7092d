"""schemathesis, a real API fuzzer, against `kaiten serve` on PostgreSQL: 0 failures.

It reads openapi/openapi.json, generates requests for every operation (valid and invalid), sends
them to a serving process with a real game's id and a seat token, and runs all of its checks on
the answers: status codes, content types, headers and bodies as documented, invalid requests
refused, valid ones accepted.

It runs on one store, PostgreSQL (the production store, and the stricter: it refuses NUL in text):
the documented shapes do not depend on the store, and what does (a store's own failures) is what
`test_no_server_errors.py` hunts on both stores, every route. On SQLite too it cost a minute of a
suite that must stay under ten on two cores.

One setting is ours: a valid request may be refused with 409 or 422, which are the rules' answers
(it is not your turn; that card is not in your hand; that command is another game's: the command
schema covers every game's). Every such refusal is documented on its operation with its codes.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import plain_http
from tests.e2e.play import finished
from tests.e2e.servers import OPEN, ServerProcess

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
#: Examples per operation and phase: enough to find schema drift, bounded to keep the suite short.
MAX_EXAMPLES = int(os.environ.get("KAITEN_SCHEMATHESIS_EXAMPLES", "5"))

CONFIG = """\
request-timeout = 10

[parameters]
"path.game_id" = "{game_id}"
"path.game" = "sushi-go"

[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]

# The stream of a running game never ends: the stream is tried on a finished one.
[[operations]]
include-operation-id = "streamEvents"
parameters = {{ "path.game_id" = "{finished_id}" }}

# A player's stream never ends either (it follows all their games to come): each example would wait out
# the request timeout. It is tried for a player nobody enrolled, whose answer is the document's 404.
[[operations]]
include-operation-id = "streamPlayer"
parameters = {{ "path.player_id" = "nobody-enrolled-this-player" }}
"""


@pytest.fixture
async def server(postgres_url: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    # With an admin key, so that the admin API's routes answer as the document says (else: 404).
    environment = {**OPEN, "KAITEN_ADMIN_KEY": "schemathesis-admin-key-of-32-characters"}
    served = ServerProcess(postgres_url, tmp_path / "server.log", environment=environment)
    try:
        async with plain_http.async_client() as client:
            await served.wait_ready(client)
        yield served
    finally:
        served.kill()


async def finished_on(url: str, game_id: str) -> dict[str, Any]:
    async with plain_http.async_client(base_url=url) as client:
        return await finished(client, game_id)


def test_schemathesis_finds_no_failure(server: ServerProcess, tmp_path: Path) -> None:
    created = plain_http.post(
        f"{server.url}/v1/games",
        json={"game": "sushi-go", "players": 2, "seats": [{"name": "Ann"}, {"name": "Bo"}], "seed": 3},
    ).json()
    config = tmp_path / "schemathesis.toml"
    bots = plain_http.post(
        f"{server.url}/v1/games",
        json={"game": "sushi-go", "players": 2, "seats": [{"bot": "greedy"}, {"bot": "random"}], "seed": 3},
    ).json()
    # The bots play their game to its end in the background of the server.
    over = asyncio.run(finished_on(server.url, bots["id"]))
    assert over["status"] == "finished"
    config.write_text(CONFIG.format(game_id=created["id"], finished_id=over["id"]))
    st = Path(sys.executable).parent / "st"
    run = subprocess.run(
        [
            str(st),
            "--config-file",
            str(config),
            "--no-color",
            "run",
            str(DOCUMENT),
            "--url",
            server.url,
            "--header",
            f"Authorization: Bearer {created['tokens']['0']}",
            "--checks",
            "all",
            "--max-examples",
            str(MAX_EXAMPLES),
            "--seed",
            "1",
            "--workers",
            "1",
            "--suppress-health-check",
            "all",
            "--generation-database",
            "none",
        ],
        capture_output=True,
        text=True,
        # schemathesis keeps a cache of what it found in the folder it runs in.
        cwd=tmp_path,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
