"""Ending live streams when the server is told to stop.

uvicorn waits for every open response to finish before it runs the app's shutdown, and an event
stream only ends when the game does: without help, stopping a server with a subscriber waits out the
graceful timeout and then cancels the stream with an error. On the exit signal this stops the
services' background parts first (the notifier among them), which ends every stream cleanly; then
uvicorn's own handler runs as before.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from kaiten.api.bootstrap import Services

EXIT_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def streams_end_on_exit_signal(services: Services) -> Iterator[None]:
    # Signal handlers can only be set from the main thread (servers run there; in-thread test servers
    # do not, and need none of this).
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    loop = asyncio.get_running_loop()
    stopping: set[asyncio.Task[None]] = set()
    previous: dict[int, Any] = {sig: signal.getsignal(sig) for sig in EXIT_SIGNALS}

    def stop_background() -> None:
        task = loop.create_task(services.stop())
        stopping.add(task)
        task.add_done_callback(stopping.discard)

    def on_exit(sig: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(stop_background)
        handler: Callable[[int, FrameType | None], Any] | int | None = previous[sig]
        if callable(handler):
            handler(sig, frame)

    for sig in EXIT_SIGNALS:
        signal.signal(sig, on_exit)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
