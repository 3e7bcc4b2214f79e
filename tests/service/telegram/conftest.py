"""The gateway's tests talk to the fake Bot API server that lives with the end-to-end tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "e2e" / "telegram"))

from fake_bot_api import FakeBotApi, RateLimits  # noqa: E402
from fake_bot_api.fixtures import fake_api  # noqa: E402

from service.chat import floods, registry  # noqa: E402
from service.settings import get_settings  # noqa: E402
from service.telegram.adapter import TelegramAdapter  # noqa: E402

__all__ = ["fake_api", "telegram_backbone", "telegram_local"]


@pytest.fixture(autouse=True)
def fresh_flood_counts() -> Iterator[None]:
    """The fake's user ids repeat from test to test: each test's gateway counts a person's taps and commands from
    zero (a backbone fixture also flushes the Redis that counts them), under this test's settings."""
    get_settings.cache_clear()
    floods.reset()
    yield
    floods.reset()


@pytest.fixture
def telegram_backbone(
    backbone_pg: object, toy_game: str, fake_api: FakeBotApi, monkeypatch: pytest.MonkeyPatch
) -> Iterator[FakeBotApi]:
    """The backbone in this process (PostgreSQL, Redis, the toy game), delivering through a TelegramAdapter to the
    fake server, rate limits off on both sides."""
    for var in ("TELEGRAM_CHAT_INTERVAL", "TELEGRAM_GROUP_INTERVAL", "TELEGRAM_GLOBAL_INTERVAL"):
        monkeypatch.setenv(var, "0")
    get_settings.cache_clear()
    fake_api.world.limits = RateLimits(per_chat=(100, 1.0), per_group=(100, 60.0), overall=(100, 1.0))
    adapter = TelegramAdapter(fake_api.token, fake_api.base_url)
    registry.register("telegram", lambda: adapter)
    yield fake_api
    get_settings.cache_clear()


@pytest.fixture
def telegram_local(
    backbone_local: object, fake_api: FakeBotApi, monkeypatch: pytest.MonkeyPatch
) -> Iterator[FakeBotApi]:
    """The embedded backbone (SQLite, in-process tasks) delivering through the configured TelegramAdapter to the fake
    server, rate limits off on both sides."""
    fake_api.world.limits = RateLimits(per_chat=(100, 1.0), per_group=(100, 60.0), overall=(100, 1.0))
    for var in ("TELEGRAM_CHAT_INTERVAL", "TELEGRAM_GROUP_INTERVAL", "TELEGRAM_GLOBAL_INTERVAL"):
        monkeypatch.setenv(var, "0")
    monkeypatch.setenv("TELEGRAM_TOKEN", fake_api.token)
    monkeypatch.setenv("TELEGRAM_BASE_URL", fake_api.base_url)
    get_settings.cache_clear()
    registry.register("telegram", TelegramAdapter)
    yield fake_api
    registry.register("telegram", TelegramAdapter)  # drop the instance bound to this test's fake server
