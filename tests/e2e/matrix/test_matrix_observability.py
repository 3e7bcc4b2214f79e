"""The Matrix gateway process (`camelot serve --matrix`) answers /healthz, /readyz and /metrics, and is ready once its
sync with a real Synapse runs; `camelot doctor`'s Matrix check says who the bot is with its stored login, and in words
what is wrong without one or with a refused one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from matrix_homeserver import free_port
from matrix_players import scratch

from service.matrix import health
from service.matrix.login_store import LoginStore, StoredLogin
from service.observability import checks
from service.settings import get_settings
from tests.scrape import get

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[3]


def test_the_gateway_process_is_ready_while_it_syncs(backbone_pg, homeserver, tmp_path):
    user, password = homeserver.register("bot_observed")
    port = free_port()
    env = dict(
        os.environ,
        MATRIX_HOMESERVER=homeserver.url,
        MATRIX_USER=user,
        MATRIX_PASSWORD=password,
        MATRIX_STORE_PATH=str(tmp_path / "store"),
        METRICS_PORT=str(port),
        METRICS_PORTS="1",
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    )
    log = (tmp_path / "matrix.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--matrix"], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 60
        while (status := get(port, "/readyz"))[0] != 200:
            assert proc.poll() is None and time.monotonic() < deadline, (status, (tmp_path / "matrix.log").read_text())
            time.sleep(0.3)
        ready = json.loads(status[1])
        assert ready["checks"]["matrix"]["detail"].startswith("last successful sync")
        assert set(ready["checks"]) == {"database", "redis", "broker", "matrix"}
        assert get(port, "/healthz") == (200, '{"alive": true}')
        metrics = get(port, "/metrics")[1]
        assert 'camelot_process{role="matrix"} 1.0' in metrics
        assert 'camelot_outbox_backlog{platform="matrix"}' in metrics
    finally:
        proc.terminate()
        proc.wait(20)


def test_a_sync_that_stopped_long_ago_is_not_ready():
    check = checks.recent("test.sync", 0.05, "successful sync")
    with pytest.raises(checks.Problem, match="no successful sync yet"):
        check()
    checks.heartbeat("test.sync")
    assert check().startswith("last successful sync")
    time.sleep(0.1)
    with pytest.raises(checks.Problem, match="was 0 s ago"):
        check()
    assert health.SYNC_WITHIN > 30 + 60  # the long poll (gateway.POLL_MS) and the longest backoff


def test_doctor_checks_the_account(homeserver, monkeypatch):
    user, password = homeserver.register("bot_doctor")
    store = scratch("doctor-")
    for name, value in {
        "MATRIX_HOMESERVER": homeserver.url,
        "MATRIX_USER": user,
        "MATRIX_PASSWORD": password,
        "MATRIX_STORE_PATH": store,
    }.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    assert "no stored login yet: the gateway logs in as" in health.token_check()
    token = homeserver.tokens[user]
    LoginStore(store).save(StoredLogin(homeserver.url, user, "DEVICE1", token))
    assert health.token_check().startswith(f"{user} (device DEVICE1)")
    LoginStore(store).save(StoredLogin(homeserver.url, user, "DEVICE1", "revoked-token"))
    with pytest.raises(checks.Problem, match="refused the stored login"):
        health.token_check()

    monkeypatch.setenv("MATRIX_HOMESERVER", f"http://127.0.0.1:{free_port()}")
    get_settings.cache_clear()
    with pytest.raises(checks.Problem, match="cannot reach the homeserver"):
        health.token_check()
