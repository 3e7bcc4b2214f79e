"""Which adapter serves which platform. Gateways register a factory at import/start-up; the outbox asks here.

`register("telegram", lambda: TelegramAdapter(...))`; `get_adapter("telegram")` builds it once per process.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable

from service.chat.base import ChatAdapter

_factories: dict[str, Callable[[], ChatAdapter]] = {}
_instances: dict[str, ChatAdapter] = {}


def register(platform: str, factory: Callable[[], ChatAdapter]) -> None:
    """Register (or replace) the factory for `platform`; a replaced platform's cached adapter is dropped."""
    _factories[platform] = factory
    _instances.pop(platform, None)


def get_adapter(platform: str) -> ChatAdapter:
    if platform not in _instances:
        if platform not in _factories:
            _import_gateway(platform)
        if platform not in _factories:
            raise LookupError(f"no chat adapter registered for {platform!r}")
        _instances[platform] = _factories[platform]()
    return _instances[platform]


def _import_gateway(platform: str) -> None:
    """A worker runs no gateway: importing `service.<platform>` lets a package that registers its adapter on
    import (service.telegram) do so."""
    if platform.isidentifier():
        with contextlib.suppress(ImportError):
            importlib.import_module(f"service.{platform}")


def unregister(platform: str) -> None:
    _factories.pop(platform, None)
    _instances.pop(platform, None)
