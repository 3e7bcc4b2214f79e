"""A logged-in matrix-nio client: restored from the stored login when there is one, else a fresh login.

The client never retries on its own (429 and timeouts come back to the caller), so the outbox's rate
limits and backoff stay in charge; the sync loop handles its own retries.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path

from nio import AsyncClient, AsyncClientConfig, LocalProtocolError, LoginResponse, WhoamiResponse
from nio.crypto import ENCRYPTION_ENABLED

from service.matrix.login_store import LoginStore, StoredLogin

DEVICE_NAME = "camelot-bot"
# matrix-nio logs each response it parses at DEBUG, sync timelines included (the bot's direct messages: hands,
# loyalties): kept at INFO whatever the process's level.
logging.getLogger("nio").setLevel(logging.INFO)


def client_config(encryption: bool) -> AsyncClientConfig:
    return AsyncClientConfig(
        max_limit_exceeded=0,
        max_timeouts=0,
        request_timeout=30,
        encryption_enabled=encryption and ENCRYPTION_ENABLED,
        store_sync_tokens=False,
    )


def encryption_available() -> bool:
    """True when matrix-nio was installed with its e2e extra (vodozemac/olm bindings importable)."""
    return bool(ENCRYPTION_ENABLED)


async def connect(
    homeserver: str, user: str, password: str | None, store_path: str | Path, *, encryption: bool = True
) -> tuple[AsyncClient, StoredLogin]:
    """Log in once and reuse the token and device afterwards; an invalidated token triggers one new login."""
    store = LoginStore(store_path)
    crypto_dir = Path(store_path) / "crypto"
    crypto_dir.mkdir(parents=True, exist_ok=True)
    saved = store.load()
    same_account = saved is not None and saved.homeserver == homeserver and user in (saved.user_id, _localpart(saved))
    if same_account:
        client = AsyncClient(homeserver, saved.user_id, saved.device_id, str(crypto_dir), client_config(encryption))
        client.restore_login(saved.user_id, saved.device_id, saved.access_token)
        check = await client.whoami()
        if isinstance(check, WhoamiResponse):
            return client, saved
        await client.close()
        if check.status_code != "M_UNKNOWN_TOKEN":  # a server problem, not a revoked login: do not make a new device
            raise RuntimeError(f"Matrix homeserver refused the stored login check: {check}")
    if not password:
        raise RuntimeError("no stored Matrix login and no MATRIX_PASSWORD to log in with")
    client = AsyncClient(homeserver, user, store_path=str(crypto_dir), config=client_config(encryption))
    response = await client.login(password, device_name=DEVICE_NAME)
    if not isinstance(response, LoginResponse):
        await client.close()
        raise RuntimeError(f"Matrix login failed: {response}")
    # The sync position belongs to the account, not the device: keep it so nothing is processed twice.
    next_batch = saved.next_batch if same_account else None
    login = StoredLogin(homeserver, response.user_id, response.device_id, response.access_token, next_batch)
    store.save(login)
    return client, login


def _localpart(login: StoredLogin) -> str:
    return login.user_id.removeprefix("@").split(":", 1)[0]


async def keep_keys(client: AsyncClient) -> None:
    """The end-to-end housekeeping nio's `sync_forever` does between syncs: upload, query and claim keys."""
    if client.olm is None:
        return
    # The adapter may do the same work at the same moment (before an encrypted send): nio then says "not needed".
    with contextlib.suppress(LocalProtocolError):
        if client.should_upload_keys:
            await client.keys_upload()
        if client.should_query_keys:
            await client.keys_query()
        if client.should_claim_keys:
            await client.keys_claim(client.get_users_for_key_claiming())
    await client.send_to_device_messages()
