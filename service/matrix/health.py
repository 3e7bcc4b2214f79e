"""The Matrix gateway seen from outside: ready while its syncs succeed (each one beats `checks.heartbeat(SYNC)` in
`service.matrix.gateway`; a long poll returns within POLL_MS, a failing one backs off up to a minute), and
`camelot doctor`'s check of the account (whoami with the stored login; without one, the homeserver answers and
MATRIX_PASSWORD is there for the first login)."""

from __future__ import annotations

import asyncio

from aiohttp import ClientError, ClientSession, ClientTimeout
from nio import AsyncClient, WhoamiResponse

from service.matrix.client import client_config
from service.matrix.login_store import LoginStore
from service.observability import checks, http
from service.settings import get_settings

NAME = "matrix"
SYNC = "matrix.sync"
SYNC_WITHIN = 120.0  # seconds: a long poll (`gateway.POLL_MS`, 30 s), a failed one's longest backoff (60 s), slack


def serve() -> None:
    """The gateway's /metrics, /healthz and /readyz, ready while it syncs (called before its first sync)."""
    checks.register(NAME, checks.recent(SYNC, SYNC_WITHIN, "successful sync"))
    http.serve(NAME)


def token_check() -> str:
    """The bot's account as the homeserver sees it, or what is wrong in words."""
    settings = get_settings()
    if not (settings.matrix_homeserver and settings.matrix_user):
        raise checks.Problem("set MATRIX_HOMESERVER and MATRIX_USER (and MATRIX_PASSWORD for the first login)")
    try:
        return asyncio.run(_account(settings.matrix_homeserver, settings.matrix_user, settings.matrix_password))
    except (ClientError, TimeoutError, OSError) as exc:
        where = settings.matrix_homeserver
        raise checks.Problem(f"cannot reach the homeserver {where}: {exc or type(exc).__name__}") from None


async def _account(homeserver: str, user: str, password: str | None) -> str:
    saved = LoginStore(get_settings().matrix_store_path).load()
    if saved is None or saved.homeserver != homeserver:
        versions = f"{homeserver.rstrip('/')}/_matrix/client/versions"
        timeout = ClientTimeout(total=checks.CONNECT_TIMEOUT * 2)
        async with ClientSession(timeout=timeout) as http_client, http_client.get(versions) as response:
            if response.status != 200:
                raise checks.Problem(f"{homeserver} is not a Matrix homeserver (HTTP {response.status})")
        if not password:
            raise checks.Problem("no stored login and no MATRIX_PASSWORD: the gateway could not log in")
        return f"{homeserver} answers; no stored login yet: the gateway logs in as {user} at its first start"
    client = AsyncClient(homeserver, saved.user_id, saved.device_id, config=client_config(encryption=False))
    client.restore_login(saved.user_id, saved.device_id, saved.access_token)
    try:
        answer = await client.whoami()
    finally:
        await client.close()
    if not isinstance(answer, WhoamiResponse):
        raise checks.Problem(f"the homeserver refused the stored login: {answer.message} ({answer.status_code})")
    return f"{answer.user_id} (device {saved.device_id}) at {homeserver}"
