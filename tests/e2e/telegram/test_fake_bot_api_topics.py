"""The fake Bot API's forum supergroups: topics the bot creates and manages, messages that stay in their topic,
and the refusals of the real server (no rights, no forum, closed, deleted and unknown topics)."""

from __future__ import annotations

from typing import Any

import pytest
from fake_bot_api import FORUM_BOT_RIGHTS, CannotSend, FakeBotApi
from fake_bot_api.calls import call, keyboard

pytestmark = pytest.mark.usefixtures("no_rate_limits")


@pytest.fixture
def forum(fake_api: FakeBotApi) -> Any:
    ann, bob = fake_api.add_user("Ann"), fake_api.add_user("Bob")
    return fake_api.add_group("Tables", [ann, bob], bot_rights=FORUM_BOT_RIGHTS, forum=True), ann, bob


def topic(api: FakeBotApi, chat_id: int, name: str) -> int:
    created = call(api, "createForumTopic", chat_id=chat_id, name=name)
    assert created["ok"], created
    return created["result"]["message_thread_id"]


def test_messages_land_in_their_topic_and_updates_say_which(fake_api: FakeBotApi, forum: Any) -> None:
    chat, ann, _ = forum
    assert call(fake_api, "getChat", chat_id=chat.id)["result"]["is_forum"] is True
    one, two = topic(fake_api, chat.id, "Table 1"), topic(fake_api, chat.id, "Table 2")
    assert 1 < one < two  # a topic's id is its creation message's; message 1 is the group's own creation
    board = call(
        fake_api, "sendMessage", chat_id=chat.id, message_thread_id=one, text="board 1", reply_markup=keyboard([["a"]])
    )["result"]
    assert board["message_thread_id"] == one and board["is_topic_message"] is True
    lobby = call(fake_api, "sendMessage", chat_id=chat.id, text="lobby")["result"]
    assert "message_thread_id" not in lobby  # the General topic
    assert [m.text for m in fake_api.messages(chat.id, thread_id=one)] == ["board 1"]
    assert [m.text for m in fake_api.messages(chat.id, thread_id=two)] == []
    assert [m.text for m in fake_api.messages(chat.id, thread_id=None)] == ["lobby"]
    assert [(r.thread_id, r.text) for r in fake_api.records(chat.id, "send")] == [(one, "board 1"), (None, "lobby")]

    fake_api.say(ann, chat.id, "/status", thread_id=two)
    fake_api.tap(ann, chat.id, board["message_id"], "a")
    updates = call(fake_api, "getUpdates")["result"]
    said = updates[-2]["message"]
    assert (said["message_thread_id"], said["is_topic_message"]) == (two, True)
    assert updates[-1]["callback_query"]["message"]["message_thread_id"] == one
    assert fake_api.rejected == []


def test_topics_need_a_forum_and_the_right(fake_api: FakeBotApi) -> None:
    ann = fake_api.add_user("Ann")
    plain = fake_api.add_group("Plain", [ann], bot_rights=FORUM_BOT_RIGHTS)
    no_right = fake_api.add_group("Forum", [ann], forum=True)  # the default rights lack can_manage_topics
    assert call(fake_api, "createForumTopic", chat_id=plain.id, name="T")["description"] == (
        "Bad Request: the chat is not a forum"
    )
    refused = call(fake_api, "createForumTopic", chat_id=no_right.id, name="T")
    assert refused["description"] == "Bad Request: not enough rights to create a topic"
    colour = call(fake_api, "createForumTopic", chat_id=no_right.id, name="T", icon_color=0x123456)
    assert colour["error_code"] == 400
    long_name = call(fake_api, "createForumTopic", chat_id=no_right.id, name="T" * 129)
    assert "1-128 characters" in long_name["description"]
    thread = call(fake_api, "sendMessage", chat_id=plain.id, message_thread_id=5, text="x")
    assert thread["description"] == "Bad Request: message thread not found"
    with pytest.raises(CannotSend):
        fake_api.say(ann, plain.id, "hi", thread_id=5)
    assert no_right.topics == {} and fake_api.records(plain.id) == []


def test_closed_deleted_and_unknown_topics_refuse_messages(fake_api: FakeBotApi, forum: Any) -> None:
    chat, ann, _ = forum
    table = topic(fake_api, chat.id, "Table 1")
    kept = call(fake_api, "sendMessage", chat_id=chat.id, message_thread_id=table, text="board")["result"]
    assert call(fake_api, "closeForumTopic", chat_id=chat.id, message_thread_id=table)["ok"]
    again = call(fake_api, "closeForumTopic", chat_id=chat.id, message_thread_id=table)
    assert again["description"] == "Bad Request: TOPIC_NOT_MODIFIED"
    closed = call(fake_api, "sendMessage", chat_id=chat.id, message_thread_id=table, text="late")
    assert closed["description"] == "Bad Request: TOPIC_CLOSED"
    with pytest.raises(CannotSend, match="closed"):
        fake_api.say(ann, chat.id, "hello?", thread_id=table)
    assert call(fake_api, "reopenForumTopic", chat_id=chat.id, message_thread_id=table)["ok"]
    assert call(fake_api, "sendMessage", chat_id=chat.id, message_thread_id=table, text="open again")["ok"]
    service = [next(iter(m.service)) for m in chat.messages.values() if m.service and m.thread_id == table]
    assert service == ["forum_topic_created", "forum_topic_closed", "forum_topic_reopened"]

    chat.bot_rights = {**FORUM_BOT_RIGHTS, "can_delete_messages": False}
    no_right = call(fake_api, "deleteForumTopic", chat_id=chat.id, message_thread_id=table)
    assert no_right["description"] == "Bad Request: not enough rights to delete the topic"
    chat.bot_rights = dict(FORUM_BOT_RIGHTS)
    assert call(fake_api, "deleteForumTopic", chat_id=chat.id, message_thread_id=table)["ok"]
    assert fake_api.messages(chat.id, thread_id=table) == []
    gone = call(fake_api, "sendMessage", chat_id=chat.id, message_thread_id=table, text="x")
    assert gone["description"] == "Bad Request: message thread not found"
    edit = call(fake_api, "editMessageText", chat_id=chat.id, message_id=kept["message_id"], text="y")
    assert edit["description"] == "Bad Request: message to edit not found"
    unknown = call(fake_api, "editForumTopic", chat_id=chat.id, message_thread_id=999, name="x")
    assert unknown["description"] == "Bad Request: message thread not found"


def test_editing_a_topic_needs_the_right_unless_the_bot_made_it(fake_api: FakeBotApi, forum: Any) -> None:
    chat, ann, _ = forum
    own = topic(fake_api, chat.id, "Table 1")
    theirs = fake_api.add_topic(ann, chat.id, "Chat").thread_id  # Ann is the group's creator
    assert call(fake_api, "getUpdates")["result"][-1]["message"]["forum_topic_created"]["name"] == "Chat"
    chat.bot_rights = {k: v for k, v in FORUM_BOT_RIGHTS.items() if k != "can_manage_topics"}
    assert call(fake_api, "editForumTopic", chat_id=chat.id, message_thread_id=own, name="Table 1 (ended)")["ok"]
    assert chat.topics[own].name == "Table 1 (ended)"
    same = call(fake_api, "editForumTopic", chat_id=chat.id, message_thread_id=own, name="")
    assert same["description"] == "Bad Request: TOPIC_NOT_MODIFIED"  # an empty name keeps the name
    refused = call(fake_api, "closeForumTopic", chat_id=chat.id, message_thread_id=theirs)
    assert refused["description"] == "Bad Request: not enough rights to manage topics"
    assert not chat.topics[theirs].closed
    bob = fake_api.add_user("Bob2")
    fake_api.join(bob, chat.id)
    with pytest.raises(CannotSend):
        chat.permissions["can_manage_topics"] = False
        fake_api.add_topic(bob, chat.id, "Mine")
