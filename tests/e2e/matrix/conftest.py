"""One real Synapse per test session (about 2 s to start), plus helpers to log real nio clients in."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import matrix_homeserver  # noqa: E402
import matrix_players  # noqa: E402

from tests.e2e.chat_transcript import transcripts  # noqa: E402

__all__ = ["homeserver", "transcripts"]


@pytest.fixture(scope="session")
def homeserver():
    matrix_players.STORE_ROOT = tempfile.mkdtemp(prefix="camelot-matrix-tests-")
    hs = matrix_homeserver.start()
    print(f"\nsynapse up in {hs.started_in:.2f}s at {hs.url}")
    yield hs
    hs.stop()
    shutil.rmtree(matrix_players.STORE_ROOT, ignore_errors=True)
