"""Log lines of every process (structlog): plain tracebacks, without local variables.

structlog's default renderer prints rich tracebacks with every frame's locals when `rich` is installed, and in the
gateways and workers a local can be a decrypted direct message, a hand or a secret choice. Configured on import of
`service`, so no process (or test) logs with the default.
"""

from __future__ import annotations

import logging

import structlog


def configure(level: int = logging.INFO) -> None:
    """Log lines at `level` and above (the terminal game wants warnings only: its screen is the game)."""
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(level),
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.StackInfoRenderer(),
            structlog.dev.set_exc_info,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.dev.ConsoleRenderer(colors=False, exception_formatter=structlog.dev.plain_traceback),
        ]
    )
