"""The test's side of the fake Telegram: people who open the bot, talk in groups and topics, tap buttons (also on
inline messages), join, leave and are promoted; and what the test reads back (records, messages, waits).

Everything here is synchronous and thread-safe (the world's lock); each change wakes the server's long polls. A
person's app refuses what Telegram's would (CannotSend): nothing refused ever becomes an update for the bot.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlparse

from .commands import menu
from .topics import ICON_COLORS
from .world import MEMBER_STATUSES, Chat, Message, Topic, User, World

if TYPE_CHECKING:
    from .methods import Methods

_PAYLOAD = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
DEFAULT_BOT_RIGHTS = {"can_restrict_members": True, "can_pin_messages": True, "can_delete_messages": True}
FORUM_BOT_RIGHTS = {**DEFAULT_BOT_RIGHTS, "can_manage_topics": True}


class CannotSend(Exception):
    """A user's Telegram app would not let them send here (restricted, not a member, a closed topic)."""


class People:
    world: World
    methods: Methods

    def _notify(self) -> None:  # the server's: wakes long polls and the webhook pusher
        raise NotImplementedError

    # --- the cast -------------------------------------------------------------------------------------------
    def add_user(self, first_name: str, username: str | None = None, language_code: str | None = "en") -> User:
        with self.world.lock:
            return self.world.new_user(first_name, username, language_code)

    def add_group(
        self,
        title: str,
        members: list[User],
        admins: list[User] = (),  # type: ignore[assignment]
        bot_rights: dict[str, bool] | None = DEFAULT_BOT_RIGHTS,
        basic: bool = False,
        forum: bool = False,
    ) -> Chat:
        """A supergroup with the bot in it (`basic`: a basic group, which `migrate` upgrades; `forum`: a forum
        supergroup, whose topics the bot creates); `bot_rights=None` leaves the bot a plain member."""
        with self.world.lock:
            chat = self.world.new_group(title, basic)
            for user in members:
                chat.members[user.id] = "member"
            for user in admins:
                chat.members[user.id] = "administrator"
            creator = (list(admins) or members)[0] if members or admins else None
            if creator is not None:
                chat.members[creator.id] = "creator"
            chat.bot_rights = dict(bot_rights) if bot_rights is not None else None
            if forum:
                chat.is_forum = True  # message 1 is the group's creation, as in Telegram: topic ids start above it
                self.methods.service(chat, {"supergroup_chat_created": True}, None, creator.id if creator else None)
            return chat

    def migrate(self, chat_id: int, by: User) -> Chat:
        """`by` upgrades a basic group to a supergroup, as Telegram does (e.g. when an admin is given some rights):
        a new chat id with the same members, permissions and bot rights, a service message in each chat
        (`migrate_to_chat_id` in the old one, `migrate_from_chat_id` in the new one; a bot gets both even in
        privacy mode), and from then on the old id answers 400 with `migrate_to_chat_id`. The old messages stay
        with the old id."""
        with self.world.lock:
            old = self.world.chats[chat_id]
            if old.type != "group" or old.migrated_to is not None:
                raise ValueError(f"{old.title} is not a basic group")
            new = self.world.new_group(old.title or "")
            new.members, new.permissions = dict(old.members), dict(old.permissions)
            new.bot_rights = dict(old.bot_rights) if old.bot_rights is not None else None
            old.migrated_to = new.id
            for chat, fields in ((old, {"migrate_to_chat_id": new.id}), (new, {"migrate_from_chat_id": old.id})):
                msg = self.methods.service(chat, fields, None, by.id)
                self.world.push_update("message", self.world.message_api(chat, msg))
        self._notify()
        return new

    def add_topic(self, user: User, chat_id: int, name: str) -> Topic:
        """A member creates a topic in their app (admins, or anyone while the group lets members manage topics)."""
        with self.world.lock:
            chat = self.world.chats[chat_id]
            if not chat.is_forum or not chat.may(user.id, "can_manage_topics", self.world.now()):
                raise CannotSend(f"{user.first_name} may not create topics in {chat.title}")
            created = {"name": name, "icon_color": ICON_COLORS[0]}
            msg = self.methods.service(chat, {"forum_topic_created": created}, None, user.id)
            topic = chat.topics[msg.message_id] = Topic(msg.message_id, name, ICON_COLORS[0], user.id)
            self.world.push_update("message", self.world.message_api(chat, msg))
        self._notify()
        return topic

    # --- membership -----------------------------------------------------------------------------------------
    def join(self, user: User, chat_id: int) -> None:
        """The user joins the group (by its link): the service message every member sees, and a chat_member update
        for an admin bot that asked for them."""
        self._membership(user, chat_id, "member", {"new_chat_members": [user.as_api()]})

    def leave(self, user: User, chat_id: int) -> None:
        self._membership(user, chat_id, None, {"left_chat_member": user.as_api()})

    def promote(self, user: User, chat_id: int) -> None:
        """An admin makes the member an administrator (any restriction of theirs goes, as in Telegram)."""
        self._membership(user, chat_id, "administrator", None)

    def _membership(self, user: User, chat_id: int, status: str | None, service: dict[str, Any] | None) -> None:
        with self.world.lock:
            chat = self.world.chats[chat_id]
            member = chat.members.get(user.id) in MEMBER_STATUSES
            if member == (status == "member"):
                raise ValueError(f"{user.first_name}: {'already' if member else 'not'} a member of {chat.title}")
            old = self.methods.member(chat, user.id)
            if status is None:
                chat.members.pop(user.id, None)
            else:
                chat.members[user.id] = status
            if status == "administrator":
                chat.restrictions.pop(user.id, None)
            if service is not None:
                msg = self.methods.service(chat, service, None, user.id)
                self.world.push_update("message", self.world.message_api(chat, msg))  # bots get service messages
            if chat.bot_rights is not None:
                changed = {
                    "chat": chat.as_api(),
                    "from": user.as_api(),
                    "date": int(self.world.now()),
                    "old_chat_member": old,
                    "new_chat_member": self.methods.member(chat, user.id),
                }
                self.world.push_update("chat_member", changed)
        self._notify()

    # --- talking --------------------------------------------------------------------------------------------
    def say(self, user: User, chat_id: int, text: str, thread_id: int | None = None) -> dict[str, Any]:
        """The user sends `text` in a chat (a group, one of its topics, or their direct chat with the bot)."""
        with self.world.lock:
            if chat_id == user.id:
                user.started = True
                chat = self.world.private_chat(user)
            else:
                chat = self.world.chats[chat_id]
                if chat.migrated_to is not None:
                    raise CannotSend(f"{chat.title} is now the supergroup {chat.migrated_to}")
                refused = chat.refusal(user.id, self.world.now(), thread_id)
                if refused:
                    raise CannotSend(f"{user.first_name} may not send in {chat.title}: {refused}")
            entities = None
            command = re.match(r"^/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?", text)
            if command:
                entities = [{"type": "bot_command", "offset": 0, "length": command.end()}]
            msg = Message(chat.next_id(), chat.id, user.id, int(self.world.now()), text=text, entities=entities)
            msg.thread_id = thread_id
            chat.messages[msg.message_id] = msg
            payload = self.world.message_api(chat, msg)
            addressed = command and (command.group(1) in (None, "@" + self.world.bot["username"]))
            mentioned = f"@{self.world.bot['username']}" in text
            if addressed or mentioned or self.world.sees_all_messages(chat):
                self.world.push_update("message", payload)
        self._notify()
        return payload

    def open_bot(self, user: User, payload: str | None = None) -> dict[str, Any]:
        """The user opens the bot's direct chat (Start), with a deep-link payload if any."""
        if payload is not None and not _PAYLOAD.match(payload):
            raise ValueError(f"invalid deep-link payload {payload!r}")
        return self.say(user, user.id, "/start" + (f" {payload}" if payload else ""))

    def open_link(self, user: User, url: str) -> dict[str, Any]:
        """Follow a t.me link to this bot, as a phone would."""
        parsed = urlparse(url)
        if parsed.hostname != "t.me" or parsed.path.strip("/") != self.world.bot["username"]:
            raise ValueError(f"not a link to this bot: {url}")
        start = parse_qs(parsed.query).get("start")
        return self.open_bot(user, start[0] if start else None)

    # --- tapping --------------------------------------------------------------------------------------------
    def buttons(self, chat_id: int, message_id: int) -> list[dict[str, Any]]:
        with self.world.lock:
            msg = self.world.chats[chat_id].messages.get(message_id)
            markup = msg.reply_markup if msg else None
            return [b for row in (markup or {}).get("inline_keyboard", []) for b in row]

    def tap(self, user: User, chat_id: int, message_id: int, data: str, forge: bool = False) -> str:
        """Tap the button with callback `data` on a bot message; `forge` sends data no button carries. Only
        members see a group's messages (a restricted member still may tap)."""
        with self.world.lock:
            chat = self.world.chats[chat_id]
            msg = chat.messages.get(message_id)
            if msg is None:
                raise LookupError("no such message")
            if not forge and data not in (b.get("callback_data") for b in self.buttons(chat_id, message_id)):
                raise LookupError(f"no button with data {data!r}")
            if chat.is_group and chat.members.get(user.id) not in MEMBER_STATUSES:
                raise CannotSend("not a member")
            query = {"message": self.world.message_api(chat, msg), "chat_instance": str(abs(chat.id))}
            query_id = self._callback(user, data, query)
        self._notify()
        return query_id

    def tap_inline(self, user: User, data: str, inline_message_id: str = "AQAAAInline") -> str:
        """A tap on a button of an inline message (sent via inline mode): the query has no `message`, only the
        inline message's id."""
        with self.world.lock:
            query_id = self._callback(
                user, data, {"inline_message_id": inline_message_id, "chat_instance": f"i{inline_message_id}"}
            )
        self._notify()
        return query_id

    def _callback(self, user: User, data: str, where: dict[str, Any]) -> str:
        query_id = self.world.new_callback_id()
        self.world.callbacks[query_id] = {
            "user": user.id,
            "data": data,
            "at": self.world.now(),
            "answered_at": None,
            "answer": None,
        }
        self.world.push_update("callback_query", {"id": query_id, "from": user.as_api(), **where, "data": data})
        return query_id

    def answer(self, query_id: str, timeout: float = 10.0) -> str:
        """The text the bot answered a tap with (waits for the answer); LookupError if the answer was refused."""
        query = self.world.callbacks[query_id]
        self.wait(lambda: query["answered_at"] is not None or query.get("refused"), timeout, f"tap {query_id} answer")
        if query["answered_at"] is None:
            raise LookupError(f"the answer to {query_id} was refused: the query was too old")
        return query["answer"] or ""

    # --- reading back ---------------------------------------------------------------------------------------
    def wait(self, predicate: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
        deadline = time.monotonic() + timeout
        while True:
            with self.world.lock:
                value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out waiting for {what}")
            time.sleep(0.02)

    def records(self, chat_id: int | None = None, action: str | None = None) -> list[Any]:
        with self.world.lock:
            return [
                r
                for r in self.world.records
                if (chat_id is None or r.chat_id == chat_id) and (action is None or r.action == action)
            ]

    def messages(self, chat_id: int, thread_id: int | None | bool = False) -> list[Message]:
        """The chat's current messages from the bot, oldest first (service messages aside); `thread_id` keeps
        one topic's (None: the General topic's)."""
        with self.world.lock:
            chat = self.world.chats[chat_id]
            return [
                m
                for m in chat.messages.values()
                if m.from_id == self.world.bot_id
                and m.service is None
                and (thread_id is False or m.thread_id == thread_id)
            ]

    def commands_menu(self, user: User, chat_id: int) -> list[dict[str, str]]:
        """The command menu the user's app shows in that chat (the user's language first)."""
        with self.world.lock:
            chat = self.world.chats[chat_id] if chat_id != user.id else self.world.private_chat(user)
            return menu(self.world.commands, chat, user.id, user.language_code or "")

    def advance_clock(self, seconds: float) -> None:
        with self.world.lock:
            self.world.clock_offset += seconds
