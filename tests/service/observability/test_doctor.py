"""`camelot doctor` says in words what is wrong, and exits 1 when anything is: a missing or refused token, an
unmigrated database, a stopped Redis, settings that cannot go together; everything fine exits 0. The Telegram token
is checked with getMe through TELEGRAM_BASE_URL (the fake Bot API)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from service import doctor
from service.settings import get_settings
from tests.scrape import free_port

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "e2e" / "telegram"))

from fake_bot_api import FakeBotApi  # noqa: E402
from fake_bot_api.spec import spec_path  # noqa: E402


@pytest.fixture
def bot_api() -> Iterator[FakeBotApi]:
    if spec_path() is None:
        pytest.skip("shared/telegram-bot-api/api.json is not beside the repository")
    with FakeBotApi(bot_username="camelot_doctor_bot") as api:
        yield api


@pytest.fixture
def telegram(bot_api: FakeBotApi, monkeypatch: pytest.MonkeyPatch) -> FakeBotApi:
    monkeypatch.setenv("TELEGRAM_TOKEN", bot_api.token)
    monkeypatch.setenv("TELEGRAM_BASE_URL", bot_api.base_url)
    get_settings.cache_clear()
    return bot_api


def findings() -> dict[str, tuple[bool, str]]:
    return {r.name: (r.ok, r.detail) for r in doctor.diagnose()}


def camelot_doctor() -> subprocess.CompletedProcess[str]:
    """The command as an operator runs it, in this test's environment."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "doctor"], env=env, capture_output=True, text=True, timeout=120
    )


def test_all_fine_exits_0_and_names_the_bot(backbone_pg, telegram):
    run = camelot_doctor()
    assert run.returncode == 0, run.stdout + run.stderr
    assert "@camelot_doctor_bot" in run.stdout and "everything is in order" in run.stdout
    assert telegram.calls["getMe"] >= 1


def test_a_missing_token_is_said_in_words(backbone_pg, monkeypatch):
    for var in ("TELEGRAM_TOKEN", "TELEGRAM_WEBHOOK_URL", "MATRIX_HOMESERVER", "MATRIX_USER", "MATRIX_PASSWORD"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TELEGRAM_WEBHOOK_URL", "https://bot.example.org/hook")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", "s3cret")
    get_settings.cache_clear()
    ok, detail = findings()["telegram"]
    assert not ok and detail.startswith("TELEGRAM_TOKEN is not set")
    run = camelot_doctor()
    assert run.returncode == 1 and "TELEGRAM_TOKEN is not set" in run.stdout


def test_no_platform_at_all_is_said_in_words(backbone_pg, monkeypatch):
    for var in ("TELEGRAM_TOKEN", "TELEGRAM_WEBHOOK_URL", "MATRIX_HOMESERVER", "MATRIX_USER", "MATRIX_PASSWORD"):
        monkeypatch.delenv(var, raising=False)
    get_settings.cache_clear()
    ok, detail = findings()["settings"]
    assert not ok and "no chat platform is configured: set TELEGRAM_TOKEN" in detail


def test_a_token_telegram_refuses_is_said_in_words(backbone_pg, bot_api, monkeypatch):
    monkeypatch.setenv("TELEGRAM_TOKEN", "999:not-the-bots-token")
    monkeypatch.setenv("TELEGRAM_BASE_URL", bot_api.base_url)
    get_settings.cache_clear()
    ok, detail = findings()["telegram"]
    assert not ok and "refused TELEGRAM_TOKEN (Unauthorized)" in detail
    assert "not-the-bots-token" not in detail


def test_an_unmigrated_database_is_said_in_words(telegram, tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'new.sqlite3'}")
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    get_settings.cache_clear()
    run = camelot_doctor()
    assert run.returncode == 1
    line = next(line for line in run.stdout.splitlines() if " database " in line)
    assert line.startswith("WRONG") and "is at revision none" in line and "run `camelot migrate`" in line


def test_a_stopped_redis_is_said_in_words(backbone_pg, telegram, monkeypatch):
    monkeypatch.setenv("REDIS_URL", f"redis://:hunter2@127.0.0.1:{free_port()}/0")
    get_settings.cache_clear()
    run = camelot_doctor()
    assert run.returncode == 1
    line = next(line for line in run.stdout.splitlines() if " redis " in line)
    assert line.startswith("WRONG") and "cannot reach Redis at redis://:***@127.0.0.1" in line
    assert "Connection refused" in line and "hunter2" not in run.stdout
    assert "1 problem(s) found" in run.stdout


def test_settings_that_cannot_go_together_are_named(backbone_pg, telegram, monkeypatch):
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
    monkeypatch.delenv("REDIS_URL")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_URL", "http://bot.example.org/hook")
    monkeypatch.setenv("DEFAULT_LANGUAGE", "de")
    get_settings.cache_clear()
    ok, detail = findings()["settings"]
    assert not ok
    for words in ("without TELEGRAM_WEBHOOK_SECRET", "must be an https:// URL", "without REDIS_URL", "'de' is none"):
        assert words in detail


def test_an_unreadable_setting_is_named_and_nothing_else_is_tried(monkeypatch):
    monkeypatch.setenv("METRICS_PORT", "lots")
    results = doctor.diagnose()
    assert [r.name for r in results] == ["settings"]
    assert not results[0].ok and "METRICS_PORT" in results[0].detail
