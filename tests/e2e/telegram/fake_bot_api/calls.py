"""Raw Bot API calls to the fake server, for tests of the server itself (JSON, form and multipart bodies)."""

from __future__ import annotations

import json
from typing import Any

import httpx

from .server import FakeBotApi


def call(api: FakeBotApi, method: str, **params: Any) -> dict[str, Any]:
    return httpx.post(f"{api.base_url}{api.token}/{method}", json=params, timeout=30).json()


def form_call(api: FakeBotApi, method: str, files: dict[str, bytes] | None = None, **params: Any) -> dict[str, Any]:
    """Form-encoded, or multipart with `files` (each part named as given, for `attach://<name>`)."""
    data = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
    parts = {name: (f"{name}.png", body, "image/png") for name, body in (files or {}).items()}
    return httpx.post(f"{api.base_url}{api.token}/{method}", data=data, files=parts or None, timeout=30).json()


def keyboard(rows: list[list[str]]) -> dict[str, Any]:
    return {"inline_keyboard": [[{"text": d, "callback_data": d} for d in row] for row in rows]}
