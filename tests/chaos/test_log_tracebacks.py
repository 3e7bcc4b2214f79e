"""A traceback in a log line shows where it failed, never the values of local variables: in the gateways and
workers those can be a decrypted direct message, a hand or a button's secret choice. As text and as JSON
(`LOG_FORMAT=json`), from structlog and from the libraries' standard-library loggers."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
import structlog

from service.logs import configure, json_root_handler

WORD = "".join(["SEC", "RET"])  # built at run time: a traceback's source lines must not contain it


def fail(hand: list[str]) -> None:
    secret = WORD + "-merlin-and-the-grail"  # noqa: F841 - a local a rich traceback would print
    raise ValueError("boom")


@pytest.fixture
def root_logger() -> Iterator[logging.Logger]:
    """The root logger, its handlers and level put back after the test (JSON logs replace them)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield root
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)
    configure(fmt="text")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_an_exception_logged_with_structlog_shows_no_local_values(capsys, root_logger, fmt):
    configure(fmt=fmt)
    log = structlog.get_logger("camelot.test")
    try:
        fail([WORD + "-hand-card"])
    except ValueError:
        log.exception("test.failed", game=7)
    out = capsys.readouterr().out
    assert "test.failed" in out and "ValueError: boom" in out and "fail" in out
    assert WORD not in out
    if fmt == "json":
        line = json.loads(out)
        assert line["event"] == "test.failed" and line["game"] == 7 and line["level"] == "error"
        assert line["exception"].startswith("Traceback") and line["exception"].endswith("ValueError: boom")


def test_a_librarys_exception_in_json_logs_shows_no_local_values(root_logger):
    text = io.StringIO()
    json_root_handler(logging.INFO, stream=text)
    try:
        fail([WORD + "-hand-card"])
    except ValueError:
        logging.getLogger("telegram.ext.Application").exception("an update failed")
    logging.getLogger("httpx").debug("below the level: not written")
    lines = [json.loads(line) for line in text.getvalue().splitlines()]
    assert len(lines) == 1 and WORD not in text.getvalue()
    assert lines[0]["logger"] == "telegram.ext.Application" and lines[0]["event"] == "an update failed"
    assert lines[0]["exception"].endswith("ValueError: boom")
