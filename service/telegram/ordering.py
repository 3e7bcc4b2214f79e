"""Updates of one chat in the order they came, other chats' at the same time.

With `concurrent_updates` PTB runs every update in a task of its own: a person's quick /start then /follow could
reach the backbone (and be answered) in the other order, when the first handler waits longer on its precheck or
its hand-off. `ChatOrder` is PTB's public hook for that (`BaseUpdateProcessor`): one lock per chat (in a direct chat
the chat is the person), so a chat's updates are handled one after the other, in the order PTB took them from
Telegram, while other chats' run concurrently. An update with no chat (none the gateway asks for) is not held.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

MAX_CONCURRENT = 256  # updates handled at once, those waiting for their chat's turn included


class ChatOrder(BaseUpdateProcessor):
    """Serialises the updates of each chat; a chat's lock lives while one of its updates is running or waiting."""

    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}  # chat id → (its lock, updates holding or awaiting it)

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        if chat is None:
            await coroutine
            return
        lock, users = self._locks.get(chat.id, (asyncio.Lock(), 0))
        self._locks[chat.id] = (lock, users + 1)
        try:
            async with lock:  # FIFO: waiters acquire it in the order they asked
                await coroutine
        finally:
            lock, users = self._locks[chat.id]
            if users > 1:
                self._locks[chat.id] = (lock, users - 1)
            else:
                del self._locks[chat.id]

    async def initialize(self) -> None:
        """Nothing to set up: the locks come with the updates."""

    async def shutdown(self) -> None:
        """Nothing to release."""
