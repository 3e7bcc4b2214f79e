"""`camelot serve --telegram` in webhook mode, as a process: it registers its webhook with the secret token, and
updates pushed by (fake) Telegram reach the backbone (embedded defaults: SQLite, tasks in-process)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from typing import Any

import pytest
from fake_bot_api import FakeBotApi, RateLimits
from telegram_stack import CAMELOT

pytestmark = pytest.mark.e2e


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_webhook_mode_end_to_end(backbone_local: Any, fake_api: FakeBotApi, tmp_path: Any) -> None:
    fake_api.world.limits = RateLimits(per_chat=(100, 1.0), per_group=(100, 60.0), overall=(100, 1.0))
    port = free_port()
    env = {
        **os.environ,
        "TELEGRAM_TOKEN": fake_api.token,
        "TELEGRAM_BASE_URL": fake_api.base_url,
        "TELEGRAM_WEBHOOK_URL": f"http://127.0.0.1:{port}/tg-hook",
        "TELEGRAM_WEBHOOK_SECRET": "s3cret-token",
        "TELEGRAM_WEBHOOK_PORT": str(port),
        "TELEGRAM_CHAT_INTERVAL": "0",
        "TELEGRAM_GROUP_INTERVAL": "0",
        "TELEGRAM_GLOBAL_INTERVAL": "0",
    }
    log = (tmp_path / "gateway.log").open("wb")
    gateway = subprocess.Popen(
        [sys.executable, "-c", CAMELOT, "serve", "--telegram"], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        hook = fake_api.wait(lambda: fake_api.world.webhook, 30, "setWebhook")
        assert hook["url"].endswith("/tg-hook") and hook["secret_token"] == "s3cret-token"
        ann, bob = fake_api.add_user("Ann"), fake_api.add_user("Bob")
        group = fake_api.add_group("Table", [ann, bob])
        fake_api.say(ann, group.id, "/newgame cards 3")
        fake_api.wait(
            lambda: any("start=join" in str(m.reply_markup) for m in fake_api.messages(group.id)),
            30,
            "the lobby, through the webhook",
        )
        assert fake_api.webhook_deliveries == 1 and fake_api.calls["getUpdates"] == 0
    finally:
        gateway.terminate()
        gateway.wait(15)
    assert fake_api.rejected == [] and fake_api.throttled == []
