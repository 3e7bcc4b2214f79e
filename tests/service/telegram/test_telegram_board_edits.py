"""Keeping the group readable: the board is one pinned message, and board changes queued faster than Telegram lets
the bot edit end in one edit with the newest board, not one edit per change (the outbox supersedes a waiting edit
of the same message)."""

from __future__ import annotations

from fake_bot_api import FakeBotApi

from service.delivery.senders import deliver_chat
from service.store import outbox, session_scope


def queue_boards(chat: str, texts: list[str]) -> None:
    for text in texts:
        with session_scope() as s:
            outbox.upsert_if_changed(s, "telegram", chat, "board:1", {"text": text}, is_group=True)


def test_a_burst_of_board_changes_is_one_send_then_one_edit(telegram_local: FakeBotApi) -> None:
    api = telegram_local
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
