"""The terminal as a chat platform: a ChatAdapter that prints, and a gateway loop that reads numbers.

The console plays through the same path as Telegram and Matrix (gateway → task → engine → outbox → adapter):
the loop turns the number a human types into an `Inbound` and hands it to `service.dispatch.submit`; what the
worker renders comes back through the outbox to `ConsoleAdapter`. Only the group and the human seats' direct
chats are printed; bots' direct chats are kept (so a human cannot read a bot's hand) but never shown.
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass, field
from typing import TextIO

from service.chat.base import Keyboard

PLATFORM = "console"
GROUP = "table"


def dm_chat(user: str) -> str:
    return f"dm:{user}"


@dataclass
class _Message:
    chat: str
    text: str
    buttons: Keyboard | None


@dataclass
class ConsoleAdapter:
    """Implements `service.chat.base.ChatAdapter` over a text stream.

    `humans` maps the direct chats printed to the name shown in their header. `choices[chat]` holds the
    buttons of the latest message with buttons in that chat: the numbers the human may type.
    """

    out: TextIO = field(default_factory=lambda: sys.stdout)
    humans: dict[str, str] = field(default_factory=dict)
    silenced: bool = False
    platform: str = PLATFORM
    messages: dict[str, _Message] = field(default_factory=dict)
    choices: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))

    def _visible(self, chat: str) -> bool:
        return chat == GROUP or chat in self.humans

    def _header(self, chat: str, edited: bool) -> str:
        where = "table" if chat == GROUP else f"to {self.humans.get(chat, chat)}"
        return f"── {where}{' (updated)' if edited else ''} ──"

    def _print(self, chat: str, text: str, buttons: Keyboard | None, edited: bool) -> None:
        if buttons:
            flat = [(b.label, b.data) for row in buttons for b in row]
            self.choices[chat] = flat
        elif chat in self.choices and not edited:
            pass  # a message without buttons leaves the last choices standing
        else:
            self.choices.pop(chat, None)
        if not self._visible(chat):
            return
        lines = [self._header(chat, edited), text]
        for i, (label, _) in enumerate(self.choices.get(chat, []) if buttons else [], start=1):
            lines.append(f"  {i:>2}. {label}")
        self.out.write("\n".join(lines) + "\n\n")
        self.out.flush()

    async def send_text(self, chat: str, text: str, buttons: Keyboard | None = None) -> str:
        message_id = str(next(self._ids))
        self.messages[message_id] = _Message(chat, text, buttons)
        self._print(chat, text, buttons, edited=False)
        return message_id

    async def edit_text(self, chat: str, message_id: str, text: str, buttons: Keyboard | None = None) -> None:
        old = self.messages.get(message_id)
        self.messages[message_id] = _Message(chat, text, buttons)
        if old is not None and old.text == text and old.buttons == buttons:
            return  # nothing new to show
        self._print(chat, text, buttons, edited=True)

    async def send_photo(self, chat: str, photo: bytes, caption: str = "", buttons: Keyboard | None = None) -> str:
        return await self.send_text(chat, f"[picture of the board, {len(photo)} bytes]\n{caption}".rstrip(), buttons)

    async def edit_photo(
        self, chat: str, message_id: str, photo: bytes, caption: str = "", buttons: Keyboard | None = None
    ) -> None:
        await self.edit_text(
            chat, message_id, f"[picture of the board, {len(photo)} bytes]\n{caption}".rstrip(), buttons
        )

    async def delete(self, chat: str, message_id: str) -> None:
        self.messages.pop(message_id, None)

    async def pin(self, chat: str, message_id: str) -> bool:
        return True

    async def set_silence(self, chat: str, on: bool) -> bool:
        self.silenced = on
        if self._visible(chat):
            self.out.write(
                ("── table: silence! no talking until it lifts ──" if on else "── table: silence lifted ──") + "\n\n"
            )
        return True

    async def direct_chat(self, user: str) -> str | None:
        return dm_chat(user)
