"""TelegramAdapter against the fake Bot API: what reaches Telegram, and how its refusals become our error kinds."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
from fake_bot_api import CannotSend, FakeBotApi, RateLimits

from service.callback import link_token, pack, pack_lobby
from service.chat.base import Button, PermanentError, RateLimited, TransientError
from service.sessions import MemorySessions
from service.telegram.adapter import TelegramAdapter, user_key


@pytest.fixture
def api(fake_api: FakeBotApi) -> FakeBotApi:
    fake_api.world.limits = RateLimits(per_chat=(100, 1.0), per_group=(100, 60.0), overall=(100, 1.0))
    return fake_api


@pytest.fixture
def adapter(api: FakeBotApi) -> TelegramAdapter:
    return TelegramAdapter(api.token, api.base_url, sessions=MemorySessions())


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_join_becomes_a_deep_link_and_choices_stay_callbacks(api: FakeBotApi, adapter: TelegramAdapter) -> None:
    ann = api.add_user("Ann")
    group = api.add_group("Table", [ann])
    buttons = [
        [Button("Join", pack_lobby(7, "join")), Button("Start", pack_lobby(7, "start"))],
        [Button("Fight", pack(7, 3, "fight:2"))],
    ]
    message_id = run(adapter.send_text(str(group.id), "New game", buttons))
    sent = api.buttons(group.id, int(message_id))
    assert sent[0] == {"text": "Join", "url": f"https://t.me/camelot_test_bot?start=join{link_token(7)}"}
    assert [b.get("callback_data") for b in sent[1:]] == [pack_lobby(7, "start"), pack(7, 3, "fight:2")]
    api.open_link(ann, sent[0]["url"])
    assert api.world.users[ann.id].started and api.rejected == []


def test_direct_chat_only_once_the_user_opened_the_bot(api: FakeBotApi, adapter: TelegramAdapter) -> None:
    bob = api.add_user("Bob")
    assert run(adapter.direct_chat(str(bob.id))) is None
    with pytest.raises(PermanentError, match="initiate conversation"):
        run(adapter.send_text(str(bob.id), "your hand"))
    api.open_bot(bob)
    adapter.sessions.ui.set("user", user_key(str(bob.id)), {"dm": True})
    chat = run(adapter.direct_chat(str(bob.id)))
    assert chat == str(bob.id)
    run(adapter.send_text(chat, "your hand"))
    assert [m.text for m in api.messages(bob.id)] == ["your hand"]


def test_edits_in_place_and_a_repeated_edit_is_not_an_error(api: FakeBotApi, adapter: TelegramAdapter) -> None:
    group = api.add_group("Table", [api.add_user("Ann")])
    mid = run(adapter.send_text(str(group.id), "board v1", [[Button("x", pack(1, 1, "pass"))]]))
    run(adapter.edit_text(str(group.id), mid, "board v2"))
    run(adapter.edit_text(str(group.id), mid, "board v2"))  # redelivered outbox row: already done
    assert [(m.text, m.reply_markup) for m in api.messages(group.id)] == [("board v2", None)]
    assert [r.action for r in api.records(group.id)] == ["send", "edit"]
    with pytest.raises(PermanentError, match="not found"):
        run(adapter.edit_text(str(group.id), "999", "x"))


def test_photos_are_uploaded_and_replaced(api: FakeBotApi, adapter: TelegramAdapter) -> None:
    group = api.add_group("Table", [api.add_user("Ann")])
    mid = run(adapter.send_photo(str(group.id), b"\x89PNG one", "board"))
    run(adapter.edit_photo(str(group.id), mid, b"\x89PNG two", "board " + "x" * 2000))
    (msg,) = api.messages(group.id)
    assert msg.photo == b"\x89PNG two" and len(msg.caption or "") == 1024
    assert api.rejected == []


def test_a_document_is_uploaded_with_its_name(api: FakeBotApi, adapter: TelegramAdapter) -> None:
    group = api.add_group("Table", [api.add_user("Ann")])
    run(adapter.send_document(str(group.id), "🔒 Ann: ...\n".encode(), "camelot-7.txt", "Game #7"))
    (msg,) = api.messages(group.id)
    assert msg.document == ("camelot-7.txt", "🔒 Ann: ...\n".encode()) and msg.caption == "Game #7"
    assert api.rejected == []


def test_delete_twice_is_harmless(api: FakeBotApi, adapter: TelegramAdapter) -> None:
    group = api.add_group("Table", [api.add_user("Ann")])
    mid = run(adapter.send_text(str(group.id), "old board"))
    run(adapter.delete(str(group.id), mid))
    run(adapter.delete(str(group.id), mid))
    assert api.messages(group.id) == []


def test_429_becomes_rate_limited_with_retry_after(fake_api: FakeBotApi) -> None:
    adapter = TelegramAdapter(fake_api.token, fake_api.base_url, sessions=MemorySessions())
    group = fake_api.add_group("Table", [fake_api.add_user("Ann")])

    async def twice() -> None:
        await adapter.send_text(str(group.id), "one")
        await adapter.send_text(str(group.id), "two")

    with pytest.raises(RateLimited) as caught:
        run(twice())
    assert caught.value.retry_after >= 1


def test_network_failure_is_transient() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again at once: nobody listens there
    adapter = TelegramAdapter("1:x", f"http://127.0.0.1:{port}/bot", sessions=MemorySessions())
    with pytest.raises(TransientError):
        run(adapter.send_text("1", "hello"))


def test_silence_restricts_members_and_restores_the_groups_own_permissions(
    api: FakeBotApi, adapter: TelegramAdapter
) -> None:
    ann, bob = api.add_user("Ann"), api.add_user("Bob")
    group = api.add_group("Table", [ann, bob])
    group.permissions["can_send_polls"] = False  # the group's own choice, to be kept
    assert run(adapter.set_silence(str(group.id), True)) is True
    assert run(adapter.set_silence(str(group.id), True)) is True  # repeated: nothing changes, no error
    with pytest.raises(CannotSend):
        api.say(bob, group.id, "I know who the traitor is")
    assert run(adapter.set_silence(str(group.id), False)) is True
    api.say(bob, group.id, "now I may speak")
    assert group.permissions["can_send_messages"] and not group.permissions["can_send_polls"]
    assert api.rejected == []


def test_without_admin_rights_silence_and_pin_say_false(api: FakeBotApi, adapter: TelegramAdapter) -> None:
    ann = api.add_user("Ann")
    group = api.add_group("Table", [ann], bot_rights=None)
    mid = run(adapter.send_text(str(group.id), "board"))
    assert run(adapter.pin(str(group.id), mid)) is False
    assert run(adapter.set_silence(str(group.id), True)) is False
    assert run(adapter.set_silence(str(group.id), False)) is False
    assert run(adapter.set_silence(str(group.id), True)) is False
    explained = [m.text for m in api.messages(group.id) if "administrator" in (m.text or "")]
    assert len(explained) == 1 and "ban users" in explained[0]  # said once, with how to grant the right
    api.say(ann, group.id, "still free")
    rights = api.add_group("Pinned", [ann])
    mid = run(adapter.send_text(str(rights.id), "board"))
    assert run(adapter.pin(str(rights.id), mid)) is True and rights.pinned == int(mid)


def test_one_adapter_serves_several_event_loops(api: FakeBotApi, adapter: TelegramAdapter) -> None:
    group = api.add_group("Table", [api.add_user("Ann")])
    run(adapter.send_text(str(group.id), "first loop"))
    run(adapter.send_text(str(group.id), "second loop"))
    assert [m.text for m in api.messages(group.id)] == ["first loop", "second loop"]


def test_overlong_and_empty_texts_still_arrive(api: FakeBotApi, adapter: TelegramAdapter) -> None:
    group = api.add_group("Table", [api.add_user("Ann")])
    mid = run(adapter.send_text(str(group.id), "x" * 5000))
    run(adapter.edit_text(str(group.id), mid, ""))
    long_one, *_ = [r.text for r in api.records(group.id)]
    assert len(long_one) == 4096 and long_one.endswith("…")
    assert api.messages(group.id)[0].text == "…" and api.rejected == []
