"""An adapter that records every call with a monotonic timestamp: for rate tests and other engineers' tests.

It can also fail on demand: `fail_next(exc, times)` raises `exc` on the next calls (e.g. RateLimited, TransientError),
and take time like a platform's API (`latency` seconds per call, awaited, so that calls may overlap).
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from service.chat.base import Keyboard


@dataclass
class Call:
    at: float  # time.monotonic()
    method: str
    chat: str
    text: str = ""
    message_id: str | None = None
    buttons: Keyboard | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class RecordingAdapter:
    """Implements `service.chat.base.ChatAdapter`; `calls` is the ordered record of what reached the platform."""

    def __init__(self, platform: str = "recording", can_restrict: bool = True, latency: float = 0.0) -> None:
        self.platform = platform
        self.latency = latency
        self.can_restrict = can_restrict
        self.calls: list[Call] = []
        self._ids = itertools.count(1)
        self._failures: list[Exception] = []
        self._mutex = threading.Lock()
        self.direct_chats: dict[str, str] = {}

    def fail_next(self, exc: Exception, times: int = 1) -> None:
        self._failures.extend([exc] * times)

    def _record(self, method: str, chat: str, **kw: Any) -> str:
        with self._mutex:
            if self._failures:
                raise self._failures.pop(0)
            message_id = kw.pop("message_id", None) or str(next(self._ids))
            self.calls.append(Call(time.monotonic(), method, chat, message_id=message_id, **kw))
            return message_id

    async def _call(self, method: str, chat: str, **kw: Any) -> str:
        if self.latency:
            await asyncio.sleep(self.latency)
        return self._record(method, chat, **kw)

    def sent(self, chat: str | None = None) -> list[Call]:
        return [c for c in self.calls if chat is None or c.chat == chat]

    async def send_text(self, chat: str, text: str, buttons: Keyboard | None = None) -> str:
        return await self._call("send_text", chat, text=text, buttons=buttons)

    async def edit_text(self, chat: str, message_id: str, text: str, buttons: Keyboard | None = None) -> None:
        await self._call("edit_text", chat, text=text, buttons=buttons, message_id=message_id)

    async def send_photo(self, chat: str, photo: bytes, caption: str = "", buttons: Keyboard | None = None) -> str:
        return await self._call("send_photo", chat, text=caption, buttons=buttons, extra={"bytes": len(photo)})

    async def edit_photo(
        self, chat: str, message_id: str, photo: bytes, caption: str = "", buttons: Keyboard | None = None
    ) -> None:
        await self._call("edit_photo", chat, text=caption, buttons=buttons, message_id=message_id)

    async def send_document(self, chat: str, data: bytes, filename: str, caption: str = "") -> str:
        return await self._call("send_document", chat, text=caption, extra={"filename": filename, "data": data})

    async def delete(self, chat: str, message_id: str) -> None:
        await self._call("delete", chat, message_id=message_id)

    async def open_table(self, community: str, title: str, people: list[str]) -> str:
        """A table's own place: a recorded chat `<community>/<n>` (as a Telegram forum's topic is addressed)."""
        with self._mutex:
            number = next(self._ids)
        await self._call("open_table", community, text=title, extra={"people": list(people), "table": number})
        return f"{community}/{number}"

    async def pin(self, chat: str, message_id: str) -> bool:
        await self._call("pin", chat, message_id=message_id)
        return True

    async def set_silence(self, chat: str, on: bool) -> bool:
        await self._call("set_silence", chat, extra={"on": on})
        return self.can_restrict

    async def direct_chat(self, user: str) -> str | None:
        return self.direct_chats.get(user, f"dm-{user}")
