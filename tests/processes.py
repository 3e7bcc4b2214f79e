"""Stopping the processes tests start (a Celery worker and its pool, in their own process group)."""

from __future__ import annotations

import os
import signal
import subprocess


def stop_group(proc: subprocess.Popen) -> None:
    """SIGTERM the process's group, then SIGKILL it if it has not exited within 10 s."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)
