"""Leases held by this process: a delivery shard while a gateway sends for it, a bot's long poll, a Matrix
account's sync. Each is taken in the shared sessions (`Sessions.lease`) under this process's holder id, renewed
by one keeper thread every third of `LEASE_SECONDS`, and given up when done. A process that dies (SIGKILL runs no
`finally`) stops renewing, and its leases lapse within `LEASE_SECONDS`: nobody has to clear them at start-up, so a
gateway starting beside live ones never takes what they hold.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from types import TracebackType

import structlog

from service.sessions import get_sessions
from service.settings import get_settings

log = structlog.get_logger(__name__)
_holder: tuple[int, str] | None = None  # (pid, id): a forked child is a holder of its own


def holder_id() -> str:
    """This process's part of a holder id: host, pid and a random part (a restarted process never reuses its
    leases); each `Lease` adds its own."""
    global _holder
    if _holder is None or _holder[0] != os.getpid():
        _holder = (os.getpid(), f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}")
    return _holder[1]


class Lease:
    """`with Lease(name): …` holds lease `name` for the block (TimeoutError if another live holder keeps it past
    `wait` seconds). `lost` turns True when a renewal finds it gone (this process stalled past the lease, and
    another took it), and `on_lost` is called then: the holder must stop what the lease guards."""

    def __init__(self, name: str, wait: float = 0.0, on_lost: Callable[[], None] | None = None) -> None:
        self.name, self.wait, self.on_lost = name, wait, on_lost
        self.holder = f"{holder_id()}:{secrets.token_hex(4)}"  # each holding its own: threads exclude each other
        self.ttl = get_settings().lease_seconds
        self.lost = False
        self.renewed = 0.0  # monotonic time of the last successful take or renewal

    def take(self) -> bool:
        """Try once: True if this process holds the lease now (kept renewed from then on)."""
        if not get_sessions().locks.lease(self.name, self.holder, self.ttl):
            return False
        self.renewed, self.lost = time.monotonic(), False
        _keeper.add(self)
        return True

    def __enter__(self) -> Lease:
        deadline = time.monotonic() + self.wait
        while not self.take():
            if time.monotonic() >= deadline:
                raise TimeoutError(f"lease {self.name} is held by {get_sessions().locks.lease_holder(self.name)}")
            time.sleep(min(0.1, self.ttl / 10))
        return self

    def __exit__(self, *exc: tuple[type[BaseException] | None, BaseException | None, TracebackType | None]) -> None:
        self.release()

    def release(self) -> None:
        _keeper.discard(self)
        if not self.lost:
            get_sessions().locks.drop_lease(self.name, self.holder)

    def renew(self) -> None:
        """The keeper's renewal. A Redis error is tried again next time, until the lease would have lapsed."""
        try:
            held = get_sessions().locks.lease(self.name, self.holder, self.ttl)
        except Exception as exc:  # Redis down a moment: the lease may still be ours
            log.warning("lease.renewal_failed", lease=self.name, error=str(exc))
            held = time.monotonic() - self.renewed < self.ttl
        else:
            if held:
                self.renewed = time.monotonic()
        if not held:
            self.lost = True
            _keeper.discard(self)
            log.error("lease.lost", lease=self.name, holder=self.holder)
            if self.on_lost is not None:
                self.on_lost()


def stand_by(name: str, what: str, on_lost: Callable[[], None] | None = None) -> Lease:
    """Wait until lease `name` is this process's and return it (held until released). Says once, in words, that
    another live process holds it (`what`: what the lease allows, e.g. "polls this bot"), then waits for it."""
    lease = Lease(name, on_lost=on_lost)
    if lease.take():
        return lease
    say_standing_by(lease, what)
    while not lease.take():
        time.sleep(lease.ttl / 3)
    log.info("lease.taken_over", lease=name)
    return lease


def say_standing_by(lease: Lease, what: str) -> None:
    log.warning(
        "lease.standing_by",
        lease=lease.name,
        holder=get_sessions().locks.lease_holder(lease.name),
        detail=f"another process {what}; this one stands by and takes over within {lease.ttl:.0f} s of its end",
    )


class _Keeper:
    """One thread renewing every lease this process holds, every third of the shortest lease's time."""

    def __init__(self) -> None:
        self._held: set[Lease] = set()
        self._mutex = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, lease: Lease) -> None:
        with self._mutex:
            self._held.add(lease)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="lease-keeper", daemon=True)
                self._thread.start()
        self._wake.set()  # a shorter lease than those held may need an earlier renewal

    def discard(self, lease: Lease) -> None:
        with self._mutex:
            self._held.discard(lease)

    def _run(self) -> None:
        while True:
            with self._mutex:
                period = min((lease.ttl for lease in self._held), default=3.0) / 3
            self._wake.wait(period)
            self._wake.clear()
            with self._mutex:
                held = list(self._held)
            now = time.monotonic()
            for lease in held:
                if now - lease.renewed >= lease.ttl / 3 - 0.01:
                    lease.renew()


_keeper = _Keeper()
