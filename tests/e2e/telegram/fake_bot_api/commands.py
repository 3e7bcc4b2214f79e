"""The bot's command menus per scope and language (setMyCommands, getMyCommands, deleteMyCommands), and the menu a
given user sees in a given chat, chosen by the Bot API's documented order of scopes."""

from __future__ import annotations

import re
from typing import Any

from .base import Base
from .world import ApiError, Chat

_COMMAND = re.compile(r"^[a-z0-9_]{1,32}$")
_LANGUAGE = re.compile(r"^([a-z]{2})?$")
MAX_COMMANDS = 100
Scope = tuple[Any, ...]


class CommandMethods(Base):
    def scope(self, p: dict[str, Any]) -> Scope:
        """A scope as a key: (type,), (type, chat id) or (type, chat id, user id); chats must exist."""
        given = p.get("scope") or {"type": "default"}
        kind = given["type"]
        if "chat_id" not in given:
            return (kind,)
        chat = self.chat(given["chat_id"])
        if kind in ("chat_administrators", "chat_member") and not chat.is_group:
            raise ApiError(400, "Bad Request: can't use specified scope for a private chat")
        if kind == "chat_member":
            if given["user_id"] not in self.w.users:
                raise ApiError(400, "Bad Request: user not found")
            return (kind, chat.id, given["user_id"])
        return (kind, chat.id)

    @staticmethod
    def language(p: dict[str, Any]) -> str:
        code = p.get("language_code", "")
        if not _LANGUAGE.match(code):
            raise ApiError(400, "Bad Request: invalid language code specified")  # a two-letter ISO 639-1 code
        return code

    def set_commands(self, p: dict[str, Any]) -> bool:
        commands = p["commands"]
        if len(commands) > MAX_COMMANDS:
            raise ApiError(400, "Bad Request: too many commands")
        for command in commands:
            if not _COMMAND.match(command["command"]):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not command["description"].strip():
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        key = (self.scope(p), self.language(p))
        if commands:
            self.w.commands[key] = [{"command": c["command"], "description": c["description"]} for c in commands]
        else:
            self.w.commands.pop(key, None)  # an empty list is a deletion
        return True

    def get_commands(self, p: dict[str, Any]) -> list[dict[str, str]]:
        return list(self.w.commands.get((self.scope(p), self.language(p)), []))

    def delete_commands(self, p: dict[str, Any]) -> bool:
        self.w.commands.pop((self.scope(p), self.language(p)), None)
        return True


def menu(
    world_commands: dict[tuple[Scope, str], list[dict[str, str]]], chat: Chat, user_id: int, lang: str
) -> list[dict[str, str]]:
    """The first list set in the Bot API's order ("Determining list of commands"): in a direct chat the chat,
    all private chats, default; in a group the member, the chat's admins (admins only), the chat, all admins
    (admins only), all groups, default; each first with the user's language, then without."""
    if chat.is_group:
        admin = chat.is_admin(user_id)
        scopes: list[Scope] = [("chat_member", chat.id, user_id)]
        scopes += [("chat_administrators", chat.id)] if admin else []
        scopes += [("chat", chat.id)]
        scopes += [("all_chat_administrators",)] if admin else []
        scopes += [("all_group_chats",), ("default",)]
    else:
        scopes = [("chat", chat.id), ("all_private_chats",), ("default",)]
    for scope in scopes:
        for language in (lang, ""):
            found = world_commands.get((scope, language))
            if found:
                return list(found)
    return []
