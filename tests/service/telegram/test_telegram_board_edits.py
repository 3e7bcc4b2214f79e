"""Keeping the group readable: the board is one pinned message, and board changes queued faster than Telegram lets
the bot edit end in one edit with the newest board, not one edit per change (the outbox supersedes a waiting edit
of the same message)."""

from __future__ import annotations

from typing import Any

import pytest
from fake_bot_api import FakeBotApi, RateLimits

from service.chat import registry
from service.settings import get_settings
from service.store import outbox, session_scope
from service.telegram.adapter import TelegramAdapter
from workers.delivery import deliver_chat

FAST = {"TELEGRAM_CHAT_INTERVAL": "0", "TELEGRAM_GROUP_INTERVAL": "0", "TELEGRAM_GLOBAL_INTERVAL": "0"}


@pytest.fixture
def telegram(backbone_local: Any, fake_api: FakeBotApi, monkeypatch: pytest.MonkeyPatch) -> Any:
    fake_api.world.limits = RateLimits(per_chat=(100, 1.0), per_group=(100, 60.0), overall=(100, 1.0))
    for key, value in {**FAST, "TELEGRAM_TOKEN": fake_api.token, "TELEGRAM_BASE_URL": fake_api.base_url}.items():
        monkeypatch.setenv(key, value)
    get_settings.cache_clear()
    registry.register("telegram", TelegramAdapter)
    yield fake_api
    registry.register("telegram", TelegramAdapter)  # drop the instance bound to this test's fake server


def queue_boards(chat: str, texts: list[str]) -> None:
    for text in texts:
        with session_scope() as s:
            outbox.upsert_if_changed(s, "telegram", chat, "board:1", {"text": text}, is_group=True)


def test_a_burst_of_board_changes_is_one_send_then_one_edit(telegram: FakeBotApi) -> None:
    api = telegram
    group = api.add_group("Table", [api.add_user("Ann")])
    chat = str(group.id)
    queue_boards(chat, ["board 1", "board 2", "board 3"])
    deliver_chat("telegram", chat, True)
    queue_boards(chat, ["board 4", "board 5", "board 5", "board 6"])
    deliver_chat("telegram", chat, True)
    assert [(r.action, r.text) for r in api.records(group.id)] == [
        ("send", "board 3"),
        ("pin", ""),
        ("edit", "board 6"),
    ]
    (board,) = api.messages(group.id)
    assert board.text == "board 6" and group.pinned == board.message_id  # the board is pinned when it is sent
    assert api.rejected == [] and api.errors == []
