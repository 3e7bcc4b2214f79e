"""Forum topics of a forum supergroup: create, edit, close, reopen, delete, each leaving the service message the
members see; a topic's id is the id of the message that created it."""

from __future__ import annotations

from typing import Any

from .base import THREAD_NOT_FOUND, Base
from .world import ApiError, Chat, Topic

ICON_COLORS = (0x6FB9F0, 0xFFD67E, 0xCB86DB, 0x8EEE98, 0xFF93B2, 0xFB6F5F)  # the only ones createForumTopic takes
TOPIC_NOT_MODIFIED = "Bad Request: TOPIC_NOT_MODIFIED"


class TopicMethods(Base):
    def forum(self, p: dict[str, Any]) -> Chat:
        chat = self.chat(p["chat_id"])
        if not chat.is_forum:
            raise ApiError(400, "Bad Request: the chat is not a forum")
        return chat

    def topic(self, chat: Chat, p: dict[str, Any], right: str = "can_manage_topics") -> Topic:
        """The topic named by message_thread_id, which the bot may manage (its own topic, or with the right)."""
        topic = chat.topics.get(p["message_thread_id"])
        if topic is None:
            raise ApiError(400, THREAD_NOT_FOUND)
        if topic.creator != self.w.bot_id or right != "can_manage_topics":
            self.need_right(chat, right, "manage topics" if right == "can_manage_topics" else "delete the topic")
        return topic

    def create_topic(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self.forum(p)
        self.need_right(chat, "can_manage_topics", "create a topic")
        color = p.get("icon_color", ICON_COLORS[0])
        if color not in ICON_COLORS:
            raise ApiError(400, "Bad Request: TOPIC_ICON_COLOR_INVALID")  # the spec lists the six allowed colours
        created = {"name": p["name"], "icon_color": color}
        if p.get("icon_custom_emoji_id"):
            created["icon_custom_emoji_id"] = p["icon_custom_emoji_id"]
        msg = self.service(chat, {"forum_topic_created": created}, None)
        topic = Topic(msg.message_id, p["name"], color, self.w.bot_id, p.get("icon_custom_emoji_id"))
        chat.topics[topic.thread_id] = topic
        self.note("topic", "createForumTopic", chat, f"created {topic.name}", topic.thread_id)
        return topic.as_api()

    def edit_topic(self, p: dict[str, Any]) -> bool:
        chat = self.forum(p)
        topic = self.topic(chat, p)
        name = p.get("name") or topic.name  # "If not specified or empty, the current name … will be kept"
        emoji = topic.icon_custom_emoji_id if "icon_custom_emoji_id" not in p else p["icon_custom_emoji_id"] or None
        if (name, emoji) == (topic.name, topic.icon_custom_emoji_id):
            raise ApiError(400, TOPIC_NOT_MODIFIED)
        edited: dict[str, Any] = {}
        if name != topic.name:
            edited["name"] = name
        if emoji != topic.icon_custom_emoji_id:
            edited["icon_custom_emoji_id"] = emoji or ""
        topic.name, topic.icon_custom_emoji_id = name, emoji
        self.service(chat, {"forum_topic_edited": edited}, topic.thread_id)
        self.note("topic", "editForumTopic", chat, f"renamed {name}", topic.thread_id)
        return True

    def close_topic(self, p: dict[str, Any]) -> bool:
        return self._set_closed(p, True)

    def reopen_topic(self, p: dict[str, Any]) -> bool:
        return self._set_closed(p, False)

    def _set_closed(self, p: dict[str, Any], closed: bool) -> bool:
        chat = self.forum(p)
        topic = self.topic(chat, p)
        if topic.closed == closed:
            raise ApiError(400, TOPIC_NOT_MODIFIED)
        topic.closed = closed
        self.service(chat, {"forum_topic_closed" if closed else "forum_topic_reopened": {}}, topic.thread_id)
        verb = "closed" if closed else "reopened"
        self.note("topic", "closeForumTopic" if closed else "reopenForumTopic", chat, verb, topic.thread_id)
        return True

    def delete_topic(self, p: dict[str, Any]) -> bool:
        """The topic and every message in it are gone; its id is then unknown."""
        chat = self.forum(p)
        topic = self.topic(chat, p, "can_delete_messages")
        del chat.topics[topic.thread_id]
        for msg in [m for m in chat.messages.values() if m.thread_id == topic.thread_id]:
            del chat.messages[msg.message_id]
            if chat.pinned == msg.message_id:
                chat.pinned = None
        self.note("topic", "deleteForumTopic", chat, f"deleted {topic.name}", topic.thread_id)
        return True
