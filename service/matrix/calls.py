"""How the Matrix adapter calls the homeserver: nio's answers and network errors mapped to the outbox's retry
classes (429 → RateLimited, network/5xx → TransientError, other refusals → PermanentError), and the raw
client-server calls nio has no (robust) method for."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiohttp import ClientError
from nio import AsyncClient, ErrorResponse

from service.chat.base import PermanentError, RateLimited, TransientError


def failure(resp: ErrorResponse) -> Exception:
    """The outbox's exception for a homeserver's refusal."""
    status = resp.transport_response.status if resp.transport_response is not None else 0
    if status == 429 or resp.status_code == "M_LIMIT_EXCEEDED":
        return RateLimited((resp.retry_after_ms or 1000) / 1000)
    if status >= 500 or status == 0:
        return TransientError(f"{resp.status_code}: {resp.message}")
    return PermanentError(f"{resp.status_code}: {resp.message}")


def forbidden(resp: Any) -> bool:
    return isinstance(resp, ErrorResponse) and resp.status_code == "M_FORBIDDEN"


@asynccontextmanager
async def network() -> AsyncIterator[None]:
    """Network failures and timeouts inside the block become TransientError (the outbox retries them)."""
    try:
        yield
    except (ClientError, TimeoutError) as exc:
        raise TransientError(f"network: {exc!r}") from exc


async def raw_call(client: AsyncClient, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A client-server API call nio has no (robust) method for; `path` starts after `/_matrix/client`."""
    headers = {"Authorization": f"Bearer {client.access_token}", "Content-Type": "application/json"}
    data = json.dumps(body) if body is not None else None
    async with network():
        resp = await client.send(method, "/_matrix/client" + path, data, headers)
        status = resp.status
        text = await resp.text()
    if status == 429:
        raise RateLimited(json.loads(text).get("retry_after_ms", 1000) / 1000)
    if status >= 500:
        raise TransientError(text)
    if status >= 400:
        raise PermanentError(text)
    return json.loads(text) if text else {}
