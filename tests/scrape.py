"""Asking a process's own HTTP server (`service.observability.http`) as Prometheus and a probe would."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]  # (name, sorted labels) → value


def free_port() -> int:
    """A port nothing listens on (once the probe socket is closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port: int, path: str) -> tuple[int, str]:
    """(HTTP status, body) of a GET on 127.0.0.1; (0, "") when nothing answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=15) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()
    except OSError:
        return 0, ""


def samples(port: int) -> Samples:
    """Every sample of the process's /metrics."""
    status, text = get(port, "/metrics")
    assert status == 200, status
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
