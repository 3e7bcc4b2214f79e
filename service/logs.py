"""Log lines of every process (structlog): plain tracebacks, without local variables; as text, or as one JSON object
a line with `LOG_FORMAT=json` (for a log shipper).

structlog's default renderer prints rich tracebacks with every frame's locals when `rich` is installed, and in the
gateways and workers a local can be a decrypted direct message, a hand or a secret choice. Configured on import of
`service`, so no process (or test) logs with the default. In JSON, an exception is its plain traceback as text
(`format_exc_info`), never structlog's dict tracebacks, which carry each frame's locals; the libraries' own log
lines (Celery, PTB, nio, through the standard library) go through the same renderer (`json_root_handler`).
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

import structlog
from pydantic import ValidationError

from service.settings import Settings

FOREIGN = (  # what a standard library record gets before it is rendered: its logger, its level, the time
    structlog.stdlib.add_logger_name,
    structlog.processors.add_log_level,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
)


def configure(level: int = logging.INFO, fmt: str | None = None, file: TextIO | None = None) -> None:
    """Log lines at `level` and above (the terminal game wants warnings only: its screen is the game), as `fmt`
    ("text" or "json"; by default LOG_FORMAT's), to `file` (default: standard output)."""
    fmt = fmt or _format()
    ending = (
        [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()]
        if fmt == "json"
        else [structlog.dev.ConsoleRenderer(colors=False, exception_formatter=structlog.dev.plain_traceback)]
    )
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(level),
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.StackInfoRenderer(),
            structlog.dev.set_exc_info,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            *ending,
        ],
        logger_factory=structlog.PrintLoggerFactory(file=file or sys.stdout),
        cache_logger_on_first_use=False,
    )
    if fmt == "json":
        json_root_handler(logging.getLogger().level or logging.WARNING)


def json_root_handler(level: int, stream: TextIO | None = None) -> logging.Handler:
    """The standard library's root logger writes JSON lines (its only handler): the libraries' records, rendered as
    the service's own. Returns the handler."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=list(FOREIGN),
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                structlog.processors.JSONRenderer(),
            ],
        )
    )
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler


def _format() -> str:
    """LOG_FORMAT, read without caching the settings (this runs on import of `service`); a malformed setting logs as
    text, and `camelot doctor` names it."""
    try:
        return Settings().log_format
    except ValidationError:
        return "text"
