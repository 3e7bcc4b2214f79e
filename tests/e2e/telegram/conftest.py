"""Fixtures for the Telegram tests: a fake Bot API server per test (skipped when the spec is not beside the repo)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from fake_bot_api import FakeBotApi, spec_path  # noqa: E402


@pytest.fixture
def fake_api() -> Iterator[FakeBotApi]:
    if spec_path() is None:
        pytest.skip("shared/telegram-bot-api/api.json is not beside the repository (set CAMELOT_TELEGRAM_SPEC)")
    with FakeBotApi() as api:
        yield api
