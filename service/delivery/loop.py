"""One event loop thread per process for the (async) chat adapters, usable from sync tasks and from code that is
itself inside an event loop (the console), so adapters keep one loop for their whole life."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")
_loop: asyncio.AbstractEventLoop | None = None
_mutex = threading.Lock()


def _get_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _mutex:
        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="adapter-loop", daemon=True).start()
        return _loop


def run(coro: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
    return asyncio.run_coroutine_threadsafe(coro, _get_loop()).result(timeout)
