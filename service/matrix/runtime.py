"""Wiring for `camelot serve --matrix`: one process reads the rooms and sends every Matrix message.

Matrix messages are sent only by the gateway's own device, which holds the end-to-end keys, so direct rooms are
encrypted whatever the topology (when matrix-nio has its e2e extra). Without a Celery broker the gateway also
plays the moves in-process; with one, workers play them and the gateway consumes the Matrix deliver tasks
from its own queue (`workers.deliveries`), as every gateway does.
"""

from __future__ import annotations

import asyncio
import signal
from contextlib import suppress

import structlog
from sqlalchemy import select

from service.chat import registry
from service.chat.base import Inbound
from service.delivery.leases import Lease, say_standing_by
from service.matrix import health, inbound
from service.matrix.adapter import MatrixAdapter
from service.matrix.choices import ChoiceMaps
from service.matrix.client import connect, encryption_available
from service.matrix.gateway import Gateway
from service.matrix.login_store import LoginStore
from service.play import dispatch, queue
from service.play.queue import enqueue
from service.play.scans import sweep_outbox
from service.render.i18n import t
from service.sessions import get_sessions
from service.settings import Settings, get_settings
from service.store import ensure_migrated, outbox, session_scope
from service.store.models import ProcessedUpdate, User

log = structlog.get_logger(__name__)


def _explain(key: str) -> str:
    return t(get_settings().default_language, f"notice.{key}")


def _submit(cmd: Inbound) -> None:
    """Runs on the gateway's hand-off thread: in-process tasks call back into the adapter on the gateway's loop. What
    the precheck refuses is answered at once in a direct room, as Telegram answers a tap, and ignored in a group."""
    early = dispatch.precheck(cmd)
    if early is not None:
        dispatch.refuse(cmd, early)
        return
    dispatch.submit(cmd)


def _processed(event_ids: list[str]) -> set[str]:
    """The events the backbone has recorded as processed (an id too long for the column is stored hashed and
    not found here: the backbone then drops it as a duplicate itself)."""
    if not event_ids:
        return set()
    with session_scope() as s:
        found = s.scalars(
            select(ProcessedUpdate.update_id).where(
                ProcessedUpdate.platform == inbound.PLATFORM, ProcessedUpdate.update_id.in_(event_ids)
            )
        )
        return set(found)


def _direct_owner(room: str) -> str | None:
    """The Matrix user whose direct chat the backbone has recorded `room` to be (it sends their panels there)."""
    with session_scope() as s:
        return s.scalar(
            select(User.platform_id).where(User.platform == inbound.PLATFORM, User.direct_chat == room).limit(1)
        )


def _answer(room: str, user: str, key: str) -> None:
    """A short notice to a player, through the outbox like everything else (rate limits, retries)."""
    with session_scope() as s:
        outbox.add(s, "matrix", room, "send", {"text": _explain(key)})
    enqueue("deliver", platform="matrix", chat=room)


async def serve(stop: asyncio.Event | None = None) -> None:
    """Log in (once, then from the store), register the adapter, and sync until stopped (SIGTERM/SIGINT)."""
    settings = get_settings()
    if not (settings.matrix_homeserver and settings.matrix_user):
        raise SystemExit("set MATRIX_HOMESERVER, MATRIX_USER and MATRIX_PASSWORD (see service/matrix/README.md)")
    ensure_migrated()
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    lease = await _sync_alone(settings.matrix_user, stop)
    if lease is None and stop.is_set():
        return
    try:
        await _serve(settings, stop)
    finally:
        if lease is not None:
            lease.release()


async def _sync_alone(user: str, stop: asyncio.Event) -> Lease | None:
    """Take the account's sync lease (with Redis sessions): one sync consumer per account, as one device holds its
    keys. A second gateway says so and stands by until the first one's lease lapses (None if stopped meanwhile);
    one that loses its lease (stalled past it) stops."""
    if not get_settings().redis_url:
        return None
    loop = asyncio.get_running_loop()
    lease = Lease(f"sync:matrix:{user}", on_lost=lambda: loop.call_soon_threadsafe(stop.set))
    if await asyncio.to_thread(lease.take):
        return lease
    say_standing_by(lease, "syncs this Matrix account (one sync consumer per account)")
    while not await asyncio.to_thread(lease.take):
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), lease.ttl / 3)
        if stop.is_set():
            return None
    log.info("lease.taken_over", lease=lease.name)
    return lease


async def _serve(settings: Settings, stop: asyncio.Event) -> None:
    encrypt = encryption_available()
    client, login = await connect(
        settings.matrix_homeserver, settings.matrix_user, settings.matrix_password, settings.matrix_store_path,
        encryption=encrypt,
    )
    choices = ChoiceMaps(get_sessions())
    adapter = MatrixAdapter(client, choices, explain=_explain, encrypt_direct=encrypt)
    registry.register("matrix", lambda: adapter)
    gateway = Gateway(
        client, LoginStore(settings.matrix_store_path), login, adapter, choices,
        submit=_submit, answer=_answer, handled=_processed, direct_owner=_direct_owner,
    )
    health.serve()
    deliveries = queue.broker().consume_deliveries("matrix") if settings.celery_broker_url else None
    log.info("matrix.gateway_started", user=login.user_id, device=login.device_id, encryption=encrypt)
    try:
        if deliveries is not None:
            deliveries.start()
        # What a killed predecessor left pending (its deliver task died with it) is sent first.
        await gateway.run(stop, first=lambda: sweep_outbox("matrix"))
    finally:
        if deliveries is not None:
            await deliveries.stop()
        await client.close()
        log.info("matrix.gateway_stopped")


def run() -> None:
    asyncio.run(serve())
