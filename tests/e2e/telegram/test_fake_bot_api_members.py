"""The fake Bot API's members: getChatMember answered from the world, people joining and leaving, one member
restricted (and the world refusing what that member's app would refuse), and deleting other people's messages."""

from __future__ import annotations

from typing import Any

import pytest
from fake_bot_api import FORUM_BOT_RIGHTS, CannotSend, FakeBotApi
from fake_bot_api.calls import call, keyboard
from fake_bot_api.permissions import ALL_PERMISSIONS

MUTED = {"can_send_messages": False}
FREE = dict.fromkeys(ALL_PERMISSIONS, True)

pytestmark = pytest.mark.usefixtures("no_rate_limits")


@pytest.fixture
def hall(fake_api: FakeBotApi) -> Any:
    """A supergroup: Guinevere created it, Lancelot is an admin, Ann and Bob are members; Carl is outside."""
    guin, lance = fake_api.add_user("Guinevere"), fake_api.add_user("Lancelot")
    ann, bob, carl = fake_api.add_user("Ann"), fake_api.add_user("Bob"), fake_api.add_user("Carl")
    chat = fake_api.add_group("Hall", [guin, ann, bob], admins=[lance])
    chat.members[guin.id] = "creator"
    chat.members[lance.id] = "administrator"
    return chat, guin, lance, ann, bob, carl


def status(api: FakeBotApi, chat_id: int, user_id: int) -> dict[str, Any]:
    answer = call(api, "getChatMember", chat_id=chat_id, user_id=user_id)
    assert answer["ok"], answer
    return answer["result"]


def test_members_are_answered_from_the_world(fake_api: FakeBotApi, hall: Any) -> None:
    chat, guin, lance, ann, bob, carl = hall
    assert [status(fake_api, chat.id, u.id)["status"] for u in (guin, lance, ann, carl)] == [
        "creator",
        "administrator",
        "member",
        "left",
    ]
    with pytest.raises(CannotSend, match="not a member"):
        fake_api.say(carl, chat.id, "/join")
    board = call(fake_api, "sendMessage", chat_id=chat.id, text="lobby", reply_markup=keyboard([["L1:join"]]))
    with pytest.raises(CannotSend):
        fake_api.tap(carl, chat.id, board["result"]["message_id"], "L1:join")
    before = len(fake_api.world.updates)
    fake_api.join(carl, chat.id)
    fake_api.leave(ann, chat.id)
    assert status(fake_api, chat.id, carl.id)["status"] == "member"
    assert status(fake_api, chat.id, ann.id)["status"] == "left"
    with pytest.raises(CannotSend):
        fake_api.say(ann, chat.id, "/status")
    with pytest.raises(ValueError):
        fake_api.leave(ann, chat.id)
    news = fake_api.world.updates[before:]
    assert [next(k for k in u if k != "update_id") for u in news] == [
        "message",
        "chat_member",
        "message",
        "chat_member",
    ]
    assert news[0]["message"]["new_chat_members"][0]["id"] == carl.id
    assert news[2]["message"]["left_chat_member"]["id"] == ann.id
    assert (
        news[3]["chat_member"]["old_chat_member"]["status"],
        news[3]["chat_member"]["new_chat_member"]["status"],
    ) == (
        "member",
        "left",
    )
    polled = call(fake_api, "getUpdates")["result"]  # chat_member only when asked for, as in Telegram
    assert "chat_member" not in {k for u in polled for k in u}
    asked = call(fake_api, "getUpdates", allowed_updates=["chat_member"])["result"]
    assert len(asked) == 2 and fake_api.rejected == []


def test_one_member_restricted_cannot_send_and_nothing_reaches_the_bot(fake_api: FakeBotApi, hall: Any) -> None:
    chat, guin, lance, ann, bob, _ = hall
    assert call(fake_api, "restrictChatMember", chat_id=chat.id, user_id=bob.id, permissions=MUTED)["ok"]
    restricted = status(fake_api, chat.id, bob.id)
    assert (restricted["status"], restricted["is_member"], restricted["can_send_messages"]) == (
        "restricted",
        True,
        False,
    )
    before = len(fake_api.world.updates)
    with pytest.raises(CannotSend, match="restricted"):
        fake_api.say(bob, chat.id, "/status I know who the traitor is")
    assert len(fake_api.world.updates) == before  # the fake world delivered nothing
    assert all(m.text != "/status I know who the traitor is" for m in chat.messages.values())
    fake_api.say(ann, chat.id, "/status")  # others still talk
    board = call(fake_api, "sendMessage", chat_id=chat.id, text="board", reply_markup=keyboard([["x"]]))
    fake_api.tap(bob, chat.id, board["result"]["message_id"], "x")  # a restricted member still taps buttons
    assert call(fake_api, "restrictChatMember", chat_id=chat.id, user_id=bob.id, permissions=FREE)["ok"]
    assert status(fake_api, chat.id, bob.id)["status"] == "member"
    fake_api.say(bob, chat.id, "/status free again")

    polls_only = {"can_send_polls": True}  # implies can_send_messages unless the rights are independent
    call(fake_api, "restrictChatMember", chat_id=chat.id, user_id=bob.id, permissions=polls_only)
    fake_api.say(bob, chat.id, "/status")
    call(
        fake_api,
        "restrictChatMember",
        chat_id=chat.id,
        user_id=bob.id,
        permissions=polls_only,
        use_independent_chat_permissions=True,
    )
    with pytest.raises(CannotSend):
        fake_api.say(bob, chat.id, "/status")
    fake_api.leave(bob, chat.id)
    assert (status(fake_api, chat.id, bob.id)["status"], status(fake_api, chat.id, bob.id)["is_member"]) == (
        "restricted",
        False,
    )


def test_a_restriction_ends_at_its_until_date(fake_api: FakeBotApi, hall: Any) -> None:
    chat, _, _, ann, bob, _ = hall
    now = int(fake_api.world.now())
    call(fake_api, "restrictChatMember", chat_id=chat.id, user_id=ann.id, permissions=MUTED, until_date=now + 60)
    call(fake_api, "restrictChatMember", chat_id=chat.id, user_id=bob.id, permissions=MUTED, until_date=now + 10)
    assert status(fake_api, chat.id, ann.id)["until_date"] == now + 60
    assert status(fake_api, chat.id, bob.id)["until_date"] == 0  # under 30 s: forever
    fake_api.advance_clock(61)
    fake_api.say(ann, chat.id, "/status")
    with pytest.raises(CannotSend):
        fake_api.say(bob, chat.id, "/status")


def test_restrictions_are_refused_as_telegram_refuses_them(fake_api: FakeBotApi, hall: Any) -> None:
    chat, guin, lance, ann, _, _ = hall
    bot_id = fake_api.world.bot_id
    cases = [
        (chat.id, guin.id, "Bad Request: can't remove chat owner"),
        (chat.id, lance.id, "Bad Request: user is an administrator of the chat"),
        (chat.id, bot_id, "Bad Request: can't restrict self"),
        (chat.id, 424242, "Bad Request: user not found"),
    ]
    basic = fake_api.add_group("Basic", [ann], basic=True)
    cases.append((basic.id, ann.id, "Bad Request: method is available only for supergroups"))
    weak = fake_api.add_group("Weak", [ann], bot_rights={"can_pin_messages": True})
    cases.append((weak.id, ann.id, "Bad Request: not enough rights to restrict/unrestrict chat member"))
    for chat_id, user_id, description in cases:
        answer = call(fake_api, "restrictChatMember", chat_id=chat_id, user_id=user_id, permissions=MUTED)
        assert answer["description"] == description
    call(fake_api, "setChatPermissions", chat_id=chat.id, permissions=MUTED, use_independent_chat_permissions=True)
    fake_api.say(lance, chat.id, "admins are never restricted")
    assert fake_api.records(chat.id, "restrict") == []


def test_deleting_other_peoples_messages_needs_the_right(fake_api: FakeBotApi, hall: Any) -> None:
    chat, _, _, ann, _, _ = hall
    said = fake_api.say(ann, chat.id, "psst")["message_id"]
    chat.bot_rights = {"can_pin_messages": True}
    refused = call(fake_api, "deleteMessage", chat_id=chat.id, message_id=said)
    assert refused["description"] == "Bad Request: message can't be deleted"
    chat.bot_rights = {"can_delete_messages": True}
    assert call(fake_api, "deleteMessage", chat_id=chat.id, message_id=said)["ok"] and said not in chat.messages
    dm = fake_api.open_bot(ann)["message_id"]
    assert call(fake_api, "deleteMessage", chat_id=ann.id, message_id=dm)["ok"]  # incoming, in a private chat
    forum = fake_api.add_group("Forum", [ann], bot_rights=FORUM_BOT_RIGHTS, forum=True)
    topic = call(fake_api, "createForumTopic", chat_id=forum.id, name="T")["result"]["message_thread_id"]
    creation = call(fake_api, "deleteMessage", chat_id=forum.id, message_id=topic)
    assert creation["description"] == "Bad Request: message can't be deleted"
