"""The pytest fixtures both Telegram test folders use (imported by their conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .limits import RateLimits
from .server import FakeBotApi
from .spec import spec_path


@pytest.fixture
def fake_api() -> Iterator[FakeBotApi]:
    """A fresh fake Telegram per test; skipped when the spec is not beside the repository."""
    if spec_path() is None:
        pytest.skip("shared/telegram-bot-api/api.json is not beside the repository (set CAMELOT_TELEGRAM_SPEC)")
    with FakeBotApi() as api:
        yield api


@pytest.fixture
def no_rate_limits(fake_api: FakeBotApi) -> None:
    """For tests of anything but the limits: lifts them (`pytestmark = pytest.mark.usefixtures("no_rate_limits")`)."""
    fake_api.world.limits = RateLimits.lifted()
