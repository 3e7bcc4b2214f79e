"""The Bot API methods the fake server implements, with the real server's answers and error texts.

Each handler takes the validated, decoded parameters and returns the `result`, or raises ApiError. Methods in the
spec but not here answer 501 and count as a rejection, so a test notices when the gateway uses something new.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

from .spec import FilePart, visible_text
from .world import ALL_PERMISSIONS, ApiError, Chat, Message, Record, World

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
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
DELETE_WINDOW = 48 * 3600
UPDATE_KINDS = ("message", "edited_message", "callback_query", "my_chat_member", "chat_member")


class Methods:
    def __init__(self, world: World) -> None:
        self.w = world
        self.handlers: dict[str, Callable[[dict[str, Any]], Any]] = {
            "getMe": lambda p: self.w.bot,
            "logOut": lambda p: True,
            "close": lambda p: True,
            "setMyCommands": lambda p: True,
            "deleteMyCommands": lambda p: True,
            "sendMessage": self.send_message,
            "sendPhoto": self.send_photo,
            "editMessageText": self.edit_text,
            "editMessageCaption": self.edit_caption,
            "editMessageMedia": self.edit_media,
            "editMessageReplyMarkup": self.edit_markup,
            "deleteMessage": self.delete_message,
            "pinChatMessage": self.pin,
            "unpinChatMessage": self.unpin,
            "setChatPermissions": self.set_permissions,
            "getChat": self.get_chat,
            "getChatMember": self.get_chat_member,
            "getChatAdministrators": self.get_admins,
            "answerCallbackQuery": self.answer_callback,
            "setWebhook": self.set_webhook,
            "deleteWebhook": self.delete_webhook,
            "getWebhookInfo": self.webhook_info,
        }

    # --- helpers --------------------------------------------------------------------------------------------
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
        self.w.records.append(
            Record(
                action,
                method,
                chat.id,
                msg.message_id if msg else None,
                text,
                msg.reply_markup if msg else None,
                self.w.now(),
            )
        )

    def own_message(self, chat: Chat, message_id: int, verb: str) -> Message:
        msg = chat.messages.get(message_id)
        if msg is None:
            raise ApiError(400, f"Bad Request: message to {verb} not found")
        if verb == "edit" and msg.from_id != self.w.bot["id"]:
            raise ApiError(400, "Bad Request: message can't be edited")
        return msg

    def target(self, p: dict[str, Any]) -> tuple[Chat, Message]:
        if "inline_message_id" in p:
            raise ApiError(400, "Bad Request: inline messages are not used by this bot")
        if "chat_id" not in p or "message_id" not in p:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        chat = self.chat(p["chat_id"])
        return chat, self.own_message(chat, p["message_id"], "edit")

    # --- sending --------------------------------------------------------------------------------------------
    def send_message(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self.chat(p["chat_id"])
        shown = self.text(p, "text", 1, 4096)
        entities = self.entities(p, "entities", shown)
        self.rate("sendMessage", chat, shown)
        msg = Message(
            chat.next_id(),
            chat.id,
            self.w.bot["id"],
            int(self.w.now()),
            text=p["text"],
            parse_mode=p.get("parse_mode"),
            reply_markup=self.markup(p),
            entities=entities,
        )
        chat.messages[msg.message_id] = msg
        self.record("send", "sendMessage", chat, msg, shown)
        return self.w.message_api(chat, msg)

    def send_photo(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self.chat(p["chat_id"])
        shown = self.text(p, "caption", 0, 1024)
        photo = p["photo"]
        if not isinstance(photo, FilePart):
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        self.rate("sendPhoto", chat)
        msg = Message(
            chat.next_id(),
            chat.id,
            self.w.bot["id"],
            int(self.w.now()),
            caption=p.get("caption"),
            parse_mode=p.get("parse_mode"),
            photo=photo.data,
            reply_markup=self.markup(p),
        )
        chat.messages[msg.message_id] = msg
        self.record("send", "sendPhoto", chat, msg, shown)
        return self.w.message_api(chat, msg)

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
        chat, msg = self.target(p)
        media = p["media"]
        if media.get("type") != "photo" or msg.photo is None:
            raise ApiError(400, "Bad Request: this fake server edits photos into photos only")
        ref = media["media"]
        if not ref.startswith("attach://"):
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        data = p["_attachments"][ref[len("attach://") :]].data
        shown = self.text(media, "caption", 0, 1024)
        markup = self.markup(p)
        if data == msg.photo and media.get("caption") == msg.caption and markup == msg.reply_markup:
            raise ApiError(400, NOT_MODIFIED)
        self.rate("editMessageMedia", chat)
        msg.photo, msg.caption, msg.reply_markup, msg.edit_date = data, media.get("caption"), markup, int(self.w.now())
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

    def delete_message(self, p: dict[str, Any]) -> bool:
        chat = self.chat(p["chat_id"])
        msg = self.own_message(chat, p["message_id"], "delete")
        if msg.from_id != self.w.bot["id"] and not (chat.bot_rights or {}).get("can_delete_messages"):
            raise ApiError(400, "Bad Request: message can't be deleted")
        if self.w.now() - msg.date > DELETE_WINDOW:
            raise ApiError(400, "Bad Request: message can't be deleted for everyone")
        del chat.messages[msg.message_id]
        if chat.pinned == msg.message_id:
            chat.pinned = None
        self.record("delete", "deleteMessage", chat, None, "")
        return True

    # --- group administration -------------------------------------------------------------------------------
    def need_right(self, chat: Chat, right: str, what: str) -> None:
        if chat.is_group and not (chat.bot_rights or {}).get(right):
            raise ApiError(400, f"Bad Request: not enough rights to {what}")

    def pin(self, p: dict[str, Any]) -> bool:
        chat = self.chat(p["chat_id"])
        self.need_right(chat, "can_pin_messages", "manage pinned messages in the chat")
        self.own_message(chat, p["message_id"], "pin")
        chat.pinned = p["message_id"]
        self.record("pin", "pinChatMessage", chat, chat.messages[chat.pinned], "")
        return True

    def unpin(self, p: dict[str, Any]) -> bool:
        chat = self.chat(p["chat_id"])
        self.need_right(chat, "can_pin_messages", "manage pinned messages in the chat")
        chat.pinned = None
        return True

    def set_permissions(self, p: dict[str, Any]) -> bool:
        chat = self.chat(p["chat_id"])
        if not chat.is_group:
            raise ApiError(400, "Bad Request: method is available for supergroup and channel chats only")
        self.need_right(chat, "can_restrict_members", "restrict/unrestrict chat member")
        new = {k: bool(p["permissions"].get(k, False)) for k in ALL_PERMISSIONS}
        if new == chat.permissions:
            raise ApiError(400, "Bad Request: CHAT_NOT_MODIFIED")
        chat.permissions = new
        self.w.records.append(
            Record(
                "permissions",
                "setChatPermissions",
                chat.id,
                None,
                "can_send_messages=" + str(new["can_send_messages"]),
                None,
                self.w.now(),
            )
        )
        return True

    def member(self, chat: Chat, user_id: int) -> dict[str, Any]:
        if user_id == self.w.bot["id"]:
            rights = chat.bot_rights
            if rights is None:
                return {"status": "member", "user": self.w.bot}
            base = {
                k: False
                for k in (
                    "can_be_edited",
                    "is_anonymous",
                    "can_manage_chat",
                    "can_delete_messages",
                    "can_manage_video_chats",
                    "can_restrict_members",
                    "can_promote_members",
                    "can_change_info",
                    "can_invite_users",
                    "can_post_stories",
                    "can_edit_stories",
                    "can_delete_stories",
                )
            }
            return {"status": "administrator", "user": self.w.bot, **base, "can_pin_messages": False, **rights}
        status = chat.members.get(user_id)
        if status is None or user_id not in self.w.users:
            return (
                {"status": "left", "user": self.w.users[user_id].as_api()}
                if user_id in self.w.users
                else {"status": "left", "user": {"id": user_id, "is_bot": False, "first_name": "?"}}
            )
        user = self.w.users[user_id].as_api()
        if status == "creator":
            return {"status": "creator", "user": user, "is_anonymous": False}
        if status == "administrator":
            return self.member_admin(user)
        return {"status": "member", "user": user}

    @staticmethod
    def member_admin(user: dict[str, Any]) -> dict[str, Any]:
        rights = dict.fromkeys(
            (
                "can_manage_chat",
                "can_delete_messages",
                "can_manage_video_chats",
                "can_restrict_members",
                "can_change_info",
                "can_invite_users",
                "can_post_stories",
                "can_edit_stories",
                "can_delete_stories",
            ),
            True,
        )
        return {
            "status": "administrator",
            "user": user,
            "can_be_edited": False,
            "is_anonymous": False,
            "can_promote_members": False,
            **rights,
        }

    def get_chat(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self.chat(p["chat_id"])
        gifts = dict.fromkeys(
            ("unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription", "gifts_from_channels"), False
        )
        out = {**chat.as_api(), "accent_color_id": 0, "max_reaction_count": 11, "accepted_gift_types": gifts}
        if chat.is_group:
            out["permissions"] = dict(chat.permissions)
        return out

    def get_chat_member(self, p: dict[str, Any]) -> dict[str, Any]:
        chat = self.chat(p["chat_id"])
        return self.member(chat, p["user_id"])

    def get_admins(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        chat = self.chat(p["chat_id"])
        ids = [u for u, s in chat.members.items() if s in ("creator", "administrator")]
        if chat.bot_rights is not None:
            ids.append(self.w.bot["id"])
        return [self.member(chat, u) for u in ids]

    # --- updates --------------------------------------------------------------------------------------------
    def answer_callback(self, p: dict[str, Any]) -> bool:
        query = self.w.callbacks.get(p["callback_query_id"])
        if query is None:
            raise ApiError(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        if query["answered_at"] is not None:
            raise ApiError(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        query["answered_at"] = self.w.now()
        query["answer"] = p.get("text", "")
        query["alert"] = p.get("show_alert", False)
        return True

    def set_webhook(self, p: dict[str, Any]) -> bool:
        url = p["url"]
        if not url:
            return self.delete_webhook(p)
        host = urlparse(url).hostname
        if host not in ("127.0.0.1", "localhost"):
            raise ApiError(400, "Bad Request: bad webhook: this fake server only delivers to loopback")
        if p.get("drop_pending_updates"):
            self.w.confirmed = self.w.updates[-1]["update_id"] + 1 if self.w.updates else 0
        self.w.webhook = {
            "url": url,
            "secret_token": p.get("secret_token"),
            "allowed_updates": p.get("allowed_updates"),
        }
        return True

    def delete_webhook(self, p: dict[str, Any]) -> bool:
        self.w.webhook = None
        if p.get("drop_pending_updates"):
            self.w.confirmed = self.w.updates[-1]["update_id"] + 1 if self.w.updates else 0
        return True

    def webhook_info(self, p: dict[str, Any]) -> dict[str, Any]:
        pending = sum(1 for u in self.w.updates if u["update_id"] >= self.w.confirmed)
        url = self.w.webhook["url"] if self.w.webhook else ""
        return {"url": url, "has_custom_certificate": False, "pending_update_count": pending}

    def pending_updates(self, offset: int | None, limit: int, allowed: list[str] | None) -> list[dict[str, Any]]:
        """Updates at or after `offset` (which confirms everything before it), filtered by `allowed`."""
        if offset is not None and offset > 0:
            self.w.confirmed = max(self.w.confirmed, offset)
        kinds = set(allowed) if allowed else set(UPDATE_KINDS) - {"chat_member"}
        out = [u for u in self.w.updates if u["update_id"] >= self.w.confirmed and set(u) & kinds]
        return out[:limit]
