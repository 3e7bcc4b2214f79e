"""Group administration: pins, the group's default permissions, one member's restrictions, and who is who
(getChat, getChatMember, getChatAdministrators answered from the world)."""

from __future__ import annotations

from typing import Any

from .base import Base
from .permissions import ALL_PERMISSIONS, Restriction, applied
from .world import ApiError, Chat

_ADMIN_RIGHTS = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
)


class AdminMethods(Base):
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
        new = applied(p["permissions"], p.get("use_independent_chat_permissions", False))
        if new == chat.permissions:
            raise ApiError(400, "Bad Request: CHAT_NOT_MODIFIED")
        chat.permissions = new
        self.note("permissions", "setChatPermissions", chat, "can_send_messages=" + str(new["can_send_messages"]))
        return True

    def restrict(self, p: dict[str, Any]) -> bool:
        """One member's permissions in a supergroup, on top of the group's defaults; all True lifts them."""
        chat = self.chat(p["chat_id"])
        user_id = p["user_id"]
        if chat.type != "supergroup":
            raise ApiError(400, "Bad Request: method is available only for supergroups")
        self.need_right(chat, "can_restrict_members", "restrict/unrestrict chat member")
        if user_id == self.w.bot_id:
            raise ApiError(400, "Bad Request: can't restrict self")
        if user_id not in self.w.users:
            raise ApiError(400, "Bad Request: user not found")
        if chat.members.get(user_id) == "creator":
            raise ApiError(400, "Bad Request: can't remove chat owner")
        if chat.members.get(user_id) == "administrator":
            raise ApiError(400, "Bad Request: user is an administrator of the chat")
        given = applied(p["permissions"], p.get("use_independent_chat_permissions", False))
        if all(given.values()):
            chat.restrictions.pop(user_id, None)
        else:
            until = Restriction.until_from(p.get("until_date"), self.w.now())
            chat.restrictions[user_id] = Restriction(given, until)
        text = f"user {user_id}: can_send_messages={given['can_send_messages']}"
        self.note("restrict", "restrictChatMember", chat, text)
        return True

    # --- who is who -----------------------------------------------------------------------------------------
    def member(self, chat: Chat, user_id: int) -> dict[str, Any]:
        if user_id == self.w.bot_id:
            return self.bot_member(chat)
        if user_id not in self.w.users:
            return {"status": "left", "user": {"id": user_id, "is_bot": False, "first_name": "?"}}
        user = self.w.users[user_id].as_api()
        status = chat.members.get(user_id)
        if status == "creator":
            return {"status": "creator", "user": user, "is_anonymous": False}
        if status == "administrator":
            return {
                "status": "administrator",
                "user": user,
                "can_be_edited": False,
                "is_anonymous": False,
                "can_promote_members": False,
                **dict.fromkeys(_ADMIN_RIGHTS, True),
            }
        restriction = chat.restriction(user_id, self.w.now())
        if restriction is not None:
            return {
                "status": "restricted",
                "user": user,
                "is_member": status == "member",
                **{k: restriction.permissions[k] for k in ALL_PERMISSIONS},
                "until_date": restriction.until,
            }
        return {"status": "member" if status == "member" else "left", "user": user}

    def bot_member(self, chat: Chat) -> dict[str, Any]:
        rights = chat.bot_rights
        if rights is None:
            return {"status": "member", "user": self.w.bot}
        base = dict.fromkeys(
            ("can_be_edited", "is_anonymous", "can_promote_members", *_ADMIN_RIGHTS),
            False,
        )
        return {"status": "administrator", "user": self.w.bot, **base, "can_pin_messages": False, **rights}

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
            ids.append(self.w.bot_id)
        return [self.member(chat, u) for u in ids]
