"""Wiring: `run()` for `camelot serve --matrix`, and the adapter factory worker processes use.

Embedded default (no Celery broker): the gateway process also runs the moves and the outbox, so one Matrix
device does everything and direct rooms are end-to-end encrypted when matrix-nio has its e2e extra.
With a broker, Celery workers deliver through `worker_adapter()`: the gateway's stored login (same access
token and device, so repeated transaction ids stay idempotent) without the crypto store, so direct rooms
are then created unencrypted, and an encrypted room is never written to in plaintext.
"""

from __future__ import annotations

import asyncio
import signal

import structlog
from nio import AsyncClient

from service import dispatch
from service.chat import registry
from service.chat.base import Inbound
from service.matrix.adapter import MatrixAdapter
from service.matrix.choices import ChoiceMaps
from service.matrix.client import client_config, connect, encryption_available
from service.matrix.gateway import Gateway
from service.matrix.login_store import LoginStore
from service.render.i18n import t
from service.sessions import get_sessions
from service.settings import get_settings
from service.store import ensure_migrated, outbox, session_scope
from workers.queue import enqueue

log = structlog.get_logger(__name__)
PRECHECK_NOTICES = {"over": "game_over"}  # precheck answer → notice key (others are named alike)


def _explain(key: str) -> str:
    return t(get_settings().default_language, f"notice.{key}")


def worker_adapter() -> MatrixAdapter:
    """The adapter of a process that only delivers (a Celery worker): reuses the gateway's stored login."""
    settings = get_settings()
    login = LoginStore(settings.matrix_store_path).load()
    if login is None:
        raise LookupError("no stored Matrix login: start `camelot serve --matrix` once first")
    client = AsyncClient(login.homeserver, login.user_id, login.device_id, config=client_config(False))
    client.restore_login(login.user_id, login.device_id, login.access_token)
    return MatrixAdapter(client, ChoiceMaps(get_sessions()), explain=_explain)


def _submit(cmd: Inbound) -> None:
    """Runs on the gateway's hand-off thread: in-process tasks call back into the adapter on the gateway's loop."""
    early = dispatch.precheck(cmd)
    if early is not None:  # the cache already knows: answer at once, as Telegram answers a tap
        _answer(cmd.chat, cmd.user, PRECHECK_NOTICES.get(early, early))
        return
    dispatch.submit(cmd)


def _answer(room: str, user: str, key: str) -> None:
    """A short notice to a player, through the outbox like everything else (rate limits, retries)."""
    with session_scope() as s:
        outbox.enqueue(s, "matrix", room, "send", {"text": _explain(key)})
    enqueue("deliver", platform="matrix", chat=room)


async def serve(stop: asyncio.Event | None = None) -> None:
    """Log in (once, then from the store), register the adapter, and sync until stopped (SIGTERM/SIGINT)."""
    settings = get_settings()
    if not (settings.matrix_homeserver and settings.matrix_user):
        raise SystemExit("set MATRIX_HOMESERVER, MATRIX_USER and MATRIX_PASSWORD (see service/matrix/README.md)")
    ensure_migrated()
    in_process = not settings.celery_broker_url
    encrypt = in_process and encryption_available()
    client, login = await connect(
        settings.matrix_homeserver, settings.matrix_user, settings.matrix_password, settings.matrix_store_path,
        encryption=encrypt,
    )
    choices = ChoiceMaps(get_sessions())
    adapter = MatrixAdapter(client, choices, explain=_explain, encrypt_direct=encrypt)
    registry.register("matrix", lambda: adapter)
    gateway = Gateway(
        client, LoginStore(settings.matrix_store_path), login, adapter, choices, submit=_submit, answer=_answer
    )
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    log.info("matrix.gateway_started", user=login.user_id, device=login.device_id, encryption=encrypt)
    try:
        await gateway.run(stop)
    finally:
        await client.close()
        log.info("matrix.gateway_stopped")


def run() -> None:
    asyncio.run(serve())
