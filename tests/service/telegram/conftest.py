"""The gateway's tests talk to the fake Bot API server that lives with the end-to-end tests."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "e2e" / "telegram"))

from fake_bot_api.fixtures import fake_api  # noqa: E402

__all__ = ["fake_api"]
