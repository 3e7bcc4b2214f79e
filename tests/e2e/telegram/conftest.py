"""Fixtures for the Telegram tests: a fake Bot API server per test (skipped when the spec is not beside the repo)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from fake_bot_api.fixtures import fake_api  # noqa: E402

__all__ = ["fake_api"]
