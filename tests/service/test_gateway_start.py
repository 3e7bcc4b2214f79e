"""A gateway that lacks its platform's settings says what is missing and exits non-zero, instead of crash-looping
with a traceback (a Matrix-only deployment has no TELEGRAM_TOKEN; compose starts each gateway only in its profile)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLATFORM_SETTINGS = ("TELEGRAM_TOKEN", "TELEGRAM_WEBHOOK_URL", "MATRIX_HOMESERVER", "MATRIX_USER", "MATRIX_PASSWORD")


@pytest.mark.parametrize(
    ("flag", "words"),
    [
        ("--telegram", "TELEGRAM_TOKEN is not set"),
        ("--matrix", "set MATRIX_HOMESERVER, MATRIX_USER and MATRIX_PASSWORD"),
    ],
)
def test_a_gateway_without_its_settings_says_so_and_exits_non_zero(tmp_path, flag, words):
    env = {k: v for k, v in os.environ.items() if k not in PLATFORM_SETTINGS}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    run = subprocess.run(
        [sys.executable, "-m", "service.cli", "serve", flag], env=env, cwd=tmp_path, capture_output=True, text=True,
        timeout=120,
    )
    assert run.returncode != 0
    assert words in run.stderr
    assert "Traceback" not in run.stderr
