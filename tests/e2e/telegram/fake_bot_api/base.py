"""What every method of the fake server checks the same way: the chat, the sending rate, texts and entities, the
bot's rights, the target message and topic; and the record each change leaves for tests."""

from __future__ import annotations

from typing import Any

from .spec import visible_text
from .world import ApiError, Chat, Message, Record, World

RATE_LIMITED_METHODS = {
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "copyMessage",
    "forwardMessage",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
}
THREAD_NOT_FOUND = "Bad Request: message thread not found"
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)


class Base:
    def __init__(self, world: World) -> None:
        self.w = world

    def chat(self, chat_id: Any) -> Chat:
        chat = self.w.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None and chat_id in self.w.users:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if chat.migrated_to is not None:
            raise ApiError(
                400, "Bad Request: group chat was upgraded to a supergroup chat", migrate_to_chat_id=chat.migrated_to
            )
        if chat.type == "private":
            assert chat.user is not None
            if chat.user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not chat.user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    def rate(self, method: str, chat: Chat, text: str = "") -> None:
        if method not in RATE_LIMITED_METHODS:
            return
        wait = self.w.limits.take(chat.id, chat.is_group, self.w.now())
        if wait is not None:
            self.w.throttled.append((method, chat.id, wait, self.w.now(), text[:40]))
            raise ApiError(429, f"Too Many Requests: retry after {wait}", retry_after=wait)

    def need_right(self, chat: Chat, right: str, what: str) -> None:
        if chat.is_group and not (chat.bot_rights or {}).get(right):
            raise ApiError(400, f"Bad Request: not enough rights to {what}")

    def may_post(self, chat: Chat, right: str, what: str) -> None:
        """A bot that is not an admin sends under the group's default permissions, like any member."""
        if chat.is_group and chat.bot_rights is None and not chat.permissions.get(right, False):
            raise ApiError(400, f"Bad Request: not enough rights to send {what} to the chat")

    def thread(self, chat: Chat, p: dict[str, Any]) -> int | None:
        """The open forum topic a send names in message_thread_id (None: the General topic or no topics)."""
        thread_id = p.get("message_thread_id")
        if thread_id is None:
            return None
        topic = chat.topics.get(thread_id) if chat.is_forum else None
        if topic is None:
            raise ApiError(400, THREAD_NOT_FOUND)
        if topic.closed:
            raise ApiError(400, "Bad Request: TOPIC_CLOSED")
        return thread_id

    @staticmethod
    def markup(p: dict[str, Any]) -> dict[str, Any] | None:
        markup = p.get("reply_markup")
        return markup if markup and "inline_keyboard" in markup else None

    @staticmethod
    def text(p: dict[str, Any], key: str, low: int, high: int) -> str:
        shown = visible_text(p.get(key, ""), p.get("parse_mode"))
        if not low <= len(shown) <= high:
            if low and not shown.strip():
                raise ApiError(
                    400,
                    f"Bad Request: {key} must be non-empty"
                    if key == "text"
                    else "Bad Request: message caption is empty",
                )
            raise ApiError(400, f"Bad Request: {key} is too long")
        return shown

    @staticmethod
    def entities(p: dict[str, Any], key: str, text: str) -> list[dict[str, Any]] | None:
        """Explicit entities, checked as the real server does: each within the text, counted in UTF-16 code
        units; a text_mention names its user, a text_link its URL. Anything else is 400 "can't parse entities"."""
        entities = p.get(key)
        if not entities:
            return None
        size = len(text.encode("utf-16-le")) // 2
        for i, entity in enumerate(entities):
            start, length = entity["offset"], entity["length"]
            if start < 0 or length <= 0 or start + length > size:
                raise ApiError(
                    400,
                    f"Bad Request: can't parse entities: entity {i} ({start}+{length}) is outside the text "
                    f"of {size} UTF-16 code units",
                )
            needs = {"text_mention": "user", "text_link": "url"}.get(entity["type"])
            if needs and not entity.get(needs):
                raise ApiError(400, f"Bad Request: can't parse entities: {entity['type']} entity {i} without {needs}")
        return entities

    def record(self, action: str, method: str, chat: Chat, msg: Message | None, text: str) -> None:
        if msg is not None:
            msg.revision += 1
            if action == "edit":
                msg.edits += 1
        self.w.records.append(
            Record(
                action,
                method,
                chat.id,
                msg.message_id if msg else None,
                text,
                msg.reply_markup if msg else None,
                self.w.now(),
                msg.thread_id if msg else None,
            )
        )

    def note(self, action: str, method: str, chat: Chat, text: str, thread_id: int | None = None) -> None:
        """A record of a change that is not a message (permissions, restrictions, topics)."""
        self.w.records.append(Record(action, method, chat.id, None, text, None, self.w.now(), thread_id))

    def own_message(self, chat: Chat, message_id: int, verb: str) -> Message:
        msg = chat.messages.get(message_id)
        if msg is None:
            raise ApiError(400, f"Bad Request: message to {verb} not found")
        if verb == "edit" and msg.from_id != self.w.bot_id:
            raise ApiError(400, "Bad Request: message can't be edited")
        return msg

    def target(self, p: dict[str, Any]) -> tuple[Chat, Message]:
        if "inline_message_id" in p:
            raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")  # this bot sends no inline messages
        if "chat_id" not in p or "message_id" not in p:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        chat = self.chat(p["chat_id"])
        return chat, self.own_message(chat, p["message_id"], "edit")

    def service(self, chat: Chat, fields: dict[str, Any], thread_id: int | None, by: int | None = None) -> Message:
        """A service message in the chat (a topic created, closed, a member left…), by the bot unless `by`."""
        msg = Message(chat.next_id(), chat.id, by or self.w.bot_id, int(self.w.now()), service=fields)
        msg.thread_id = msg.message_id if "forum_topic_created" in fields else thread_id
        chat.messages[msg.message_id] = msg
        return msg
