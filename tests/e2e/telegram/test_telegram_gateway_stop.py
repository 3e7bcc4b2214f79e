"""The Telegram gateway sends the outbox itself (with a broker): it stops cleanly, its delivery consumer with it."""

from __future__ import annotations

import signal
import time

from telegram_stack import Stack


def test_sigterm_stops_the_gateway_and_its_delivery_consumer_cleanly(stack: Stack) -> None:
    gateway = stack.procs["gateway"]
    log = stack.logs / "gateway.log"
    deadline = time.monotonic() + 30
    while "deliveries.consuming" not in log.read_text(errors="replace"):
        assert time.monotonic() < deadline, stack.log_tail()
        time.sleep(0.1)
    gateway.send_signal(signal.SIGTERM)
    assert gateway.wait(15) == 0, stack.log_tail()
