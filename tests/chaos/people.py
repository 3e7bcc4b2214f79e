"""Scripted people for the chaos test: each reads what the bot sent to their direct chat (the recording gateway's
calls) and taps one of the newest panel's buttons once per prompt, through the gateway's path (`precheck`, then
`dispatch.submit`). They never tap again: a tap that is lost freezes their game, which the test sees."""

from __future__ import annotations

import json
import random
import threading
from collections import Counter
from pathlib import Path

from service.callback import Choice, unpack
from service.chat.base import Inbound
from service.play.dispatch import precheck, submit

POLL = 0.05  # seconds between two looks at the calls


class People(threading.Thread):
    """Taps for every person whose direct chat is `dm-<user>`, `user` being one of `users` (added as games start)."""

    def __init__(self, calls: Path, seed: int = 0) -> None:
        super().__init__(name="chaos-people", daemon=True)
        self.calls = calls
        self.rng = random.Random(seed)
        self.users: set[str] = set()
        self.taps: Counter[tuple[int, str]] = Counter()  # (game id, user) → taps submitted
        self.refused_early: list[tuple[str, str, str]] = []  # (user, button, the precheck's answer)
        self.errors: list[BaseException] = []
        self._last_seq: dict[tuple[int, str], int] = {}  # (game, user) → the seq of their last tap
        self._offset = 0
        self._partial = ""
        self._halt = threading.Event()
        self._mutex = threading.Lock()

    def add(self, *users: str) -> None:
        with self._mutex:
            self.users.update(users)

    def stop(self) -> None:
        self._halt.set()
        self.join(10)

    def run(self) -> None:
        while not self._halt.is_set():
            try:
                for user, buttons in self._new_panels():
                    self._tap(user, buttons)
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                self.errors.append(exc)
                return
            self._halt.wait(POLL)

    def _new_panels(self) -> list[tuple[str, list[str]]]:
        """The panels with buttons sent to a person since the last look, newest last."""
        if not self.calls.exists():
            return []
        with self.calls.open() as f:
            f.seek(self._offset)
            text = self._partial + f.read()
            self._offset = f.tell()
        lines = text.split("\n")
        self._partial = lines.pop()  # an unfinished line: read again next time
        with self._mutex:
            users = set(self.users)
        found = []
        for line in lines:
            call = json.loads(line)
            user = call["chat"].removeprefix("dm-")
            if user in users and call.get("buttons"):
                found.append((user, [data for row in call["buttons"] for data in row]))
        return found

    def _tap(self, user: str, buttons: list[str]) -> None:
        choices = [(data, choice) for data in buttons if isinstance(choice := unpack(data), Choice)]
        if not choices:
            return
        data, choice = self.rng.choice(choices)
        key = (choice.game_id, user)
        if choice.seq <= self._last_seq.get(key, -1):  # a panel of a prompt already answered
            return
        self._last_seq[key] = choice.seq
        tap = Inbound("rec", f"dm-{user}", user, f"{user}:{choice.seq}", "tap", text=data)
        verdict = precheck(tap)
        if verdict is not None:  # the gateway would answer and drop it
            self.refused_early.append((user, data, verdict))
            return
        submit(tap)
        self.taps[key] += 1
