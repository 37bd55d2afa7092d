"""Every process of `kaiten serve` logs JSON lines on stderr, at the level KAITEN_LOG_LEVEL names:
its own lines, the start-up lines, and the HTTP server's (granian's or uvicorn's), whose loggers
are given the same handler. Litestar is told to leave logging alone (api/app.py), or it puts its
own plain-text format in place of this one."""

from __future__ import annotations

import logging
import logging.config
from datetime import UTC, datetime
from typing import Any

import msgspec

#: The HTTP servers' own loggers: they go through kaiten's handler, and say only what goes wrong.
SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "_granian", "granian.access")


#: Every request writes a line: msgspec's encoder writes one in half the standard library's time.
#: What it cannot encode is written as its `str()`, as `json.dumps(line, default=str)` did.
_json = msgspec.json.Encoder(enc_hook=str)


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **getattr(record, "request", {}),
            **getattr(record, "fields", {}),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return _json.encode(line).decode()


def logging_config(level: str) -> dict[str, Any]:
    """A `logging.config.dictConfig` document: the one handler on stderr, for kaiten and the servers."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonLines}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {name: {"handlers": [], "level": "WARNING", "propagate": True} for name in SERVER_LOGGERS},
    }


def configure_logging(level: str) -> None:
    logging.config.dictConfig(logging_config(level))
    # What a record would gather and the JSON lines never show: the caller's frame, thread and process
    # (the logging HOWTO's "Optimization"). Every request writes a line.
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
