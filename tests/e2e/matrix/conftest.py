"""One real Synapse per test session (about 2 s to start), plus helpers to log real nio clients in."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import matrix_homeserver  # noqa: E402


@pytest.fixture(scope="session")
def homeserver():
    hs = matrix_homeserver.start()
    print(f"\nsynapse up in {hs.started_in:.2f}s at {hs.url}")
    yield hs
    hs.stop()
