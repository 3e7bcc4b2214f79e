"""Fixtures for the Telegram tests: a fake Bot API server per test (skipped when the spec is not beside the repo),
and the whole stack around it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from fake_bot_api import FakeBotApi  # noqa: E402
from fake_bot_api.fixtures import fake_api, no_rate_limits  # noqa: E402
from telegram_stack import Stack, scaled_limits  # noqa: E402

from service.settings import get_settings  # noqa: E402
from tests.e2e.chat_transcript import transcripts  # noqa: E402

__all__ = ["fake_api", "no_rate_limits", "stack", "transcripts"]


@pytest.fixture
def stack(
    backbone_pg: Any, redis_url: str, fake_api: FakeBotApi, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Stack]:
    fake_api.world.limits = scaled_limits()
    running = Stack(fake_api, redis_url, tmp_path)
    for key in ("TELEGRAM_TOKEN", "TELEGRAM_BASE_URL", "CELERY_BROKER_URL"):
        monkeypatch.setenv(key, running.env[key])
    get_settings.cache_clear()
    running.start()
    fake_api.wait(lambda: fake_api.calls["getUpdates"] > 0, 30, "the gateway's first poll")
    try:
        yield running
    finally:
        running.stop()
