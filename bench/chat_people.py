"""The people of `camelot bench chat`: each reads their direct chat on the fake Bot API, waits a moment of
thought, and taps one of their panel's buttons; and what they saw, timed: a tap until the tapper's chat next
changes (their panel updated: the figure people feel), and a tap until the gateway answered it (the baseline)."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from typing import Any

from service.callback import Choice, unpack

ANSWER_WAIT = 15.0  # a tap not followed by a change of the tapper's chat within this long counts as unanswered


class People:
    """Every seated person of the run, tapping in one thread until `stop()`."""

    def __init__(self, api: Any, users: list[Any], think: float, seed: int = 1) -> None:
        self.api, self.users, self.think = api, users, think
        self.rng = random.Random(seed)
        self.seen: dict[int, tuple[int, int, float]] = {}  # user → (panel message, revision, first seen at)
        self.tapped: dict[int, tuple[int, int]] = {}  # user → the panel revision they answered
        self.waiting: dict[int, float] = {}  # user → when their tap went, until their chat changes
        self.panel_latencies: list[float] = []
        self.unanswered = 0
        self.taps = 0
        self._queries: list[str] = []
        self._read = 0  # records of the fake already looked at
        self._measuring = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bench-people", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def measure(self) -> None:
        """From now on, keep the latencies (the warm-up's are dropped)."""
        self.panel_latencies.clear()
        self._queries.clear()
        self.unanswered = self.taps = 0
        self._measuring = True

    def answer_latencies(self) -> list[float]:
        """Tap → the gateway's answer (answerCallbackQuery), for the taps of the measuring window."""
        found = []
        with self.api.world.lock:
            for query_id in self._queries:
                query = self.api.world.callbacks[query_id]
                if query["answered_at"] is not None:
                    found.append(query["answered_at"] - query["at"])
        return found

    def _run(self) -> None:
        while not self._stop.is_set():
            self._note_changes()
            acted = False
            for user in self.users:
                acted |= self._maybe_tap(user)
            if not acted:
                time.sleep(0.01)

    def _note_changes(self) -> None:
        """A tapper's chat changed (a send or an edit there): their tap's latency."""
        with self.api.world.lock:
            fresh = self.api.world.records[self._read :]
            self._read += len(fresh)
        for record in fresh:
            at = self.waiting.get(record.chat_id)
            if at is not None and record.action in ("send", "edit") and record.at >= at:
                del self.waiting[record.chat_id]
                if self._measuring:
                    self.panel_latencies.append(record.at - at)
        now = self.api.world.now()
        for user_id, at in list(self.waiting.items()):
            if now - at > ANSWER_WAIT:
                del self.waiting[user_id]
                self.unanswered += self._measuring

    def _maybe_tap(self, user: Any) -> bool:
        if user.id in self.waiting:
            return False
        found = _panel(self.api, user.id)
        if found is None or found[:2] == self.tapped.get(user.id):
            return False
        message_id, revision, data = found
        seen = self.seen.get(user.id)
        now = time.monotonic()
        if seen is None or seen[:2] != (message_id, revision):
            self.seen[user.id] = (message_id, revision, now)
            return False
        if now - seen[2] < self.think * self.rng.uniform(0.5, 1.5):
            return False
        self.tapped[user.id] = (message_id, revision)
        forward = [d for d in data if not (isinstance(c := unpack(d), Choice) and c.code == "@")]
        tapped_at = self.api.world.now()
        try:
            query = self.api.tap(user, user.id, message_id, self.rng.choice(forward or data))
        except LookupError:  # the panel changed under the thumb: look again
            return False
        self.waiting[user.id] = tapped_at
        if self._measuring:
            self.taps += 1
            self._queries.append(query)
        return True


def _panel(api: Any, chat_id: int) -> tuple[int, int, list[str]] | None:
    """The newest message with buttons in the chat: (id, revision, callback data)."""
    with api.world.lock:
        chat = api.world.chats.get(chat_id)
        for msg in reversed(list(chat.messages.values()) if chat else []):
            data = msg.callback_data()
            if data:
                return msg.message_id, msg.revision, data
    return None


def calls_by_kind(records: list[Any]) -> Counter[tuple[str, str]]:
    """(method, "group" or "direct") → how many, of the records of what the bot did to chats."""
    return Counter((r.method, "group" if r.chat_id < 0 else "direct") for r in records)
