"""A group upgraded to a supergroup mid-game: the gateway follows the upgrade's service messages, the adapter the
400 answer that carries the new id; either way the game's chat moves and nothing queued is lost."""

from __future__ import annotations

from typing import Any

from fake_bot_api import FakeBotApi, User
from sqlalchemy import func, select
from telegram_gateway_runner import GatewayThread
from test_telegram_gateway import RecordingBackbone

from service.callback import Choice, unpack
from service.chat.base import Inbound
from service.play import lobby
from service.play.dispatch import submit
from service.sessions import get_sessions
from service.store import outbox, session_scope
from service.store.chats import move_chat
from service.store.models import Chat, GameRow, OutboxRow
from service.store.outbox import shard_of
from service.telegram.adapter import user_key
from service.telegram.migration import follow, permissions_key


def test_the_gateway_follows_the_upgrades_service_messages(fake_api: FakeBotApi) -> None:
    rec = RecordingBackbone()
    ann = fake_api.add_user("Ann")
    group = fake_api.add_group("Table", [ann], basic=True)
    with GatewayThread(fake_api.token, fake_api.base_url, rec.backbone()):
        new = fake_api.migrate(group.id, ann)
        fake_api.wait(lambda: len(rec.migrated) == 2, 10, "both service messages")
    assert rec.migrated == [(str(group.id), str(new.id))] * 2  # said in the old chat and in the new one
    assert new.type == "supergroup" and new.members == group.members and rec.submitted == []


def open_direct_chats(api: FakeBotApi, *users: User) -> None:
    for user in users:
        api.open_bot(user)
        get_sessions().ui.set("user", user_key(str(user.id)), {"dm": True})


def tap_panel(api: FakeBotApi, user: User, update_id: str) -> None:
    """The user taps the first choice of the newest panel in their direct chat (handed to the backbone here)."""
    data = next(
        b["callback_data"]
        for m in reversed(api.messages(user.id))
        for row in (m.reply_markup or {}).get("inline_keyboard", [])
        for b in row
        if isinstance(unpack(b.get("callback_data", "")), Choice)
    )
    submit(Inbound("telegram", str(user.id), str(user.id), update_id, "tap", text=data, user_name=user.first_name))


def outbox_counts() -> dict[str, int]:
    with session_scope() as s:
        rows = s.execute(select(OutboxRow.status, func.count()).group_by(OutboxRow.status))
        return dict(rows.all())


def test_the_first_refused_send_moves_the_game_to_the_supergroup(telegram_backbone: FakeBotApi) -> None:
    api = telegram_backbone
    ann, bob = api.add_user("Ann"), api.add_user("Bob")
    open_direct_chats(api, ann, bob)
    group = api.add_group("Table", [ann, bob], basic=True)
    game_id = lobby.create_and_start("telegram", str(group.id), "toy", {}, [str(ann.id), str(bob.id)], 0, seed=4)
    old_board = group.pinned
    assert old_board is not None
    new = api.migrate(group.id, ann)  # no gateway runs: the outbox finds out by itself

    tap_panel(api, ann, "u1")
    upgraded = [e for e in api.errors if "upgraded to a supergroup" in e[2]]
    assert upgraded and all(e[1] == 400 for e in upgraded)
    with session_scope() as s:
        chat = s.get(Chat, s.get(GameRow, game_id).chat_id)
        assert chat.platform_id == str(new.id)  # the game's own chat row, now with the new id
        assert s.scalar(select(func.count()).select_from(Chat).where(Chat.is_group)) == 1
    assert outbox_counts().keys() == {"sent"}  # nothing pending, nothing failed: the refused rows went to the new id
    board = new.pinned
    assert board is not None and [r.action for r in api.records(new.id) if r.message_id == board][:1] == ["send"]
    assert len(group.messages) >= 1 and group.pinned == old_board  # the old chat is untouched since

    tap_panel(api, bob, "u2")
    board_records = [r.action for r in api.records(new.id) if r.message_id == board]
    assert board_records.count("send") == 1 and "edit" in board_records  # edited in place in the supergroup
    assert outbox_counts().keys() == {"sent"} and api.rejected == []


def test_following_twice_is_harmless_and_merges_a_chat_seen_first_under_the_new_id(telegram_backbone: Any) -> None:
    with session_scope() as s:
        s.add_all(
            [Chat(platform="telegram", platform_id="-5", language="it"), Chat(platform="telegram", platform_id="-1005")]
        )
        s.flush()
        old_id = s.scalar(select(Chat.id).where(Chat.platform_id == "-5"))
        s.add(GameRow(kind="toy", seed=1, chat_id=old_id))
        outbox.add(s, "telegram", "-5", "send", {"text": "hello"}, is_group=True)
    get_sessions().ui.set("chat", permissions_key("-5"), {"can_send_messages": True})
    assert follow("-5", "-1005") == 1
    assert follow("-5", "-1005") == 0
    with session_scope() as s:
        assert move_chat(s, "telegram", "-5", "-1005") == 0
        (chat,) = s.scalars(select(Chat)).all()
        assert (chat.platform_id, chat.language) == ("-1005", "it")
        assert s.scalar(select(GameRow.chat_id)) == chat.id
        assert s.execute(select(OutboxRow.chat, OutboxRow.shard)).one() == ("-1005", shard_of("-1005"))
    assert get_sessions().ui.get("chat", permissions_key("-1005")) == {"can_send_messages": True}
    assert get_sessions().ui.get("chat", permissions_key("-5")) is None
