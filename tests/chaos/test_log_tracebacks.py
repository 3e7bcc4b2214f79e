"""A traceback in a log line shows where it failed, never the values of local variables: in the gateways and
workers those can be a decrypted direct message, a hand or a button's secret choice."""

from __future__ import annotations

import structlog

from service.logs import configure


def test_an_exception_logged_with_structlog_shows_no_local_values(capsys):
    configure()
    log = structlog.get_logger("camelot.test")

    word = "".join(["SEC", "RET"])  # built at run time: a traceback's source lines must not contain it

    def fail(hand: list[str]) -> None:
        secret = word + "-merlin-and-the-grail"  # noqa: F841 - a local a rich traceback would print
        raise ValueError("boom")

    try:
        fail([word + "-hand-card"])
    except ValueError:
        log.exception("test.failed", game=7)
    out = capsys.readouterr().out
    assert "test.failed" in out and "ValueError: boom" in out and "fail" in out
    assert word not in out
