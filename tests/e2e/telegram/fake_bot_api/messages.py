"""Sending, editing and deleting messages: texts, photos (uploaded or by file_id), captions and inline keyboards,
in forum topics too, with the real server's answers and error texts."""

from __future__ import annotations

from typing import Any

from .base import NOT_MODIFIED, Base
from .spec import FilePart, visible_text
from .world import ApiError, Chat, Message

DELETE_WINDOW = 48 * 3600
WRONG_FILE = "Bad Request: wrong file identifier/HTTP URL specified"
UNDELETABLE_SERVICE = ("forum_topic_created", "supergroup_chat_created", "group_chat_created")


class MessageMethods(Base):
    def send_message(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self.chat(p["chat_id"])
        thread_id = self.thread(chat, p)
        shown = self.text(p, "text", 1, 4096)
        entities = self.entities(p, "entities", shown)
        self.may_post(chat, "can_send_messages", "text messages")
        self.rate("sendMessage", chat, shown)
        msg = Message(
            chat.next_id(),
            chat.id,
            self.w.bot_id,
            int(self.w.now()),
            text=p["text"],
            parse_mode=p.get("parse_mode"),
            reply_markup=self.markup(p),
            entities=entities,
            thread_id=thread_id,
        )
        chat.messages[msg.message_id] = msg
        self.record("send", "sendMessage", chat, msg, shown)
        return self.w.message_api(chat, msg)

    def send_photo(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self.chat(p["chat_id"])
        thread_id = self.thread(chat, p)
        shown = self.text(p, "caption", 0, 1024)
        self.entities(p, "caption_entities", shown)
        photo_id, data = self.photo(p["photo"], p["_attachments"])
        self.may_post(chat, "can_send_photos", "photos")
        self.rate("sendPhoto", chat, shown)
        msg = Message(
            chat.next_id(),
            chat.id,
            self.w.bot_id,
            int(self.w.now()),
            caption=p.get("caption"),
            parse_mode=p.get("parse_mode"),
            photo=data,
            photo_id=photo_id,
            reply_markup=self.markup(p),
            thread_id=thread_id,
        )
        chat.messages[msg.message_id] = msg
        self.record("send", "sendPhoto", chat, msg, shown)
        return self.w.message_api(chat, msg)

    def send_document(self, p: dict[str, Any]) -> dict[str, Any]:
        """An uploaded file (a file_id or URL is not needed by the service), with its caption."""
        chat = self.chat(p["chat_id"])
        thread_id = self.thread(chat, p)
        shown = self.text(p, "caption", 0, 1024)
        self.entities(p, "caption_entities", shown)
        given = p["document"]
        if not isinstance(given, FilePart):
            raise ApiError(400, WRONG_FILE)
        self.may_post(chat, "can_send_documents", "documents")
        self.rate("sendDocument", chat, shown)
        msg = Message(
            chat.next_id(),
            chat.id,
            self.w.bot_id,
            int(self.w.now()),
            caption=p.get("caption"),
            parse_mode=p.get("parse_mode"),
            document=(given.filename, given.data),
            thread_id=thread_id,
        )
        chat.messages[msg.message_id] = msg
        self.record("send", "sendDocument", chat, msg, shown)
        return self.w.message_api(chat, msg)

    def photo(self, given: Any, attachments: dict[str, FilePart]) -> tuple[str, bytes]:
        """An upload (the part itself, or `attach://<name>` in an InputMedia) or a file_id this bot received; an
        HTTP URL would be fetched by Telegram, which this offline server cannot do."""
        if isinstance(given, FilePart):
            return self.w.store_file(given.data), given.data
        if given.startswith("attach://") and given[len("attach://") :] in attachments:
            data = attachments[given[len("attach://") :]].data
            return self.w.store_file(data), data
        if given in self.w.files:
            return given, self.w.files[given]
        raise ApiError(400, WRONG_FILE)

    # --- editing --------------------------------------------------------------------------------------------
    def edit_text(self, p: dict[str, Any]) -> dict[str, Any]:
        chat, msg = self.target(p)
        if "text" not in p:
            raise ApiError(400, "Bad Request: text is empty")
        if msg.text is None:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        shown = self.text(p, "text", 1, 4096)
        entities = self.entities(p, "entities", shown)
        markup = self.markup(p)
        if shown == visible_text(msg.text, msg.parse_mode) and markup == msg.reply_markup and entities == msg.entities:
            raise ApiError(400, NOT_MODIFIED)
        self.rate("editMessageText", chat, shown)
        msg.text, msg.parse_mode, msg.reply_markup, msg.entities, msg.edit_date = (
            p["text"],
            p.get("parse_mode"),
            markup,
            entities,
            int(self.w.now()),
        )
        self.record("edit", "editMessageText", chat, msg, shown)
        return self.w.message_api(chat, msg)

    def edit_caption(self, p: dict[str, Any]) -> dict[str, Any]:
        chat, msg = self.target(p)
        if msg.photo is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        shown = self.text(p, "caption", 0, 1024)
        markup = self.markup(p)
        if p.get("caption") == msg.caption and markup == msg.reply_markup:
            raise ApiError(400, NOT_MODIFIED)
        self.rate("editMessageCaption", chat)
        msg.caption, msg.parse_mode, msg.reply_markup, msg.edit_date = (
            p.get("caption"),
            p.get("parse_mode"),
            markup,
            int(self.w.now()),
        )
        self.record("edit", "editMessageCaption", chat, msg, shown)
        return self.w.message_api(chat, msg)

    def edit_media(self, p: dict[str, Any]) -> dict[str, Any]:
        """A photo replaces a photo, or (Bot API 10) a text message; other media kinds are not modelled."""
        chat, msg = self.target(p)
        media = p["media"]
        if media.get("type") != "photo":
            raise ApiError(501, f"Not Implemented: editMessageMedia to {media.get('type')} is not modelled")
        if msg.photo is None and msg.text is None:
            raise ApiError(400, "Bad Request: there is no media in the message to edit")
        shown = self.text(media, "caption", 0, 1024)
        self.entities(media, "caption_entities", shown)
        photo_id, data = self.photo(media["media"], p["_attachments"])
        markup = self.markup(p)
        if data == msg.photo and media.get("caption") == msg.caption and markup == msg.reply_markup:
            raise ApiError(400, NOT_MODIFIED)
        self.rate("editMessageMedia", chat, shown)
        msg.photo, msg.photo_id, msg.caption, msg.parse_mode = (
            data,
            photo_id,
            media.get("caption"),
            media.get("parse_mode"),
        )
        msg.text, msg.entities, msg.reply_markup, msg.edit_date = None, None, markup, int(self.w.now())
        self.record("edit", "editMessageMedia", chat, msg, shown)
        return self.w.message_api(chat, msg)

    def edit_markup(self, p: dict[str, Any]) -> dict[str, Any]:
        chat, msg = self.target(p)
        markup = self.markup(p)
        if markup == msg.reply_markup:
            raise ApiError(400, NOT_MODIFIED)
        self.rate("editMessageReplyMarkup", chat)
        msg.reply_markup, msg.edit_date = markup, int(self.w.now())
        self.record(
            "edit", "editMessageReplyMarkup", chat, msg, visible_text(msg.text or msg.caption or "", msg.parse_mode)
        )
        return self.w.message_api(chat, msg)

    # --- deleting -------------------------------------------------------------------------------------------
    def delete_message(self, p: dict[str, Any]) -> bool:
        chat = self.chat(p["chat_id"])
        msg = self.own_message(chat, p["message_id"], "delete")
        if not self.may_delete(chat, msg):
            raise ApiError(400, "Bad Request: message can't be deleted")
        if self.w.now() - msg.date > DELETE_WINDOW:
            raise ApiError(400, "Bad Request: message can't be deleted for everyone")
        self.remove(chat, msg)
        self.record("delete", "deleteMessage", chat, None, "")
        return True

    def may_delete(self, chat: Chat, msg: Message) -> bool:
        """deleteMessage's documented rules: its own messages anywhere, incoming ones in private chats, any in a
        basic group where it is an admin or in a supergroup with can_delete_messages; never a chat's or a topic's
        creation notice."""
        if any(k in (msg.service or {}) for k in UNDELETABLE_SERVICE):
            return False
        if msg.from_id == self.w.bot_id or chat.type == "private":
            return True
        if chat.type == "group":
            return chat.bot_rights is not None
        return bool((chat.bot_rights or {}).get("can_delete_messages"))

    @staticmethod
    def remove(chat: Chat, msg: Message) -> None:
        del chat.messages[msg.message_id]
        if chat.pinned == msg.message_id:
            chat.pinned = None
