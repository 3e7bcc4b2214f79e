"""Worker processes keep the garbage collector off their start-up heap (a full collection over it stalls moves)."""

from __future__ import annotations

import gc
import weakref

import pytest
from celery.signals import worker_process_init, worker_ready

from workers import app as worker_app


@pytest.mark.parametrize(
    ("signal", "handler"),
    [(worker_ready, worker_app._freeze_startup_heap), (worker_process_init, worker_app._fresh_connections)],
)
def test_a_started_worker_process_freezes_what_it_holds(signal, handler, backbone_pg):
    connected = [ref() if isinstance(ref, weakref.ref) else ref for _, ref in signal.receivers]
    assert handler in connected
    gc.unfreeze()
    try:
        assert gc.get_freeze_count() == 0
        handler()
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()
