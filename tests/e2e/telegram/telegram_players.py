"""Simulated players at a Telegram table: they read their direct chats on the fake server and tap legal buttons."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from fake_bot_api import FakeBotApi, User

from service.callback import Choice, unpack


@dataclass
class Player:
    user: User
    tapped: set[tuple[int, int]] = field(default_factory=set)  # panel revisions already answered


class Table:
    """Players at one table; `step()` lets every player with an unanswered panel tap one of its buttons."""

    def __init__(self, api: FakeBotApi, users: list[User], seed: int) -> None:
        self.api = api
        self.players = [Player(u) for u in users]
        self.rng = random.Random(seed)
        self.taps = 0

    def panel(self, player: Player) -> tuple[int, int, list[str]] | None:
        """The newest message with choice buttons in the player's direct chat: (id, revision, callback data).

        The fake's revision, not edit_date: two edits in one second can bring back a panel the player already tapped
        (a page forward, then back), and an edit_date version would make it look tapped.
        """
        for msg in reversed(self.api.messages(player.user.id)):
            data = msg.callback_data()
            if data:
                return msg.message_id, msg.revision, data
        return None

    def choose(self, data: list[str]) -> str:
        """Any button but "back": the menus guarantee every legal action is reachable this way."""
        forward = [d for d in data if not (isinstance(c := unpack(d), Choice) and c.code == "@")]
        return self.rng.choice(forward or data)

    def step(self) -> bool:
        acted = False
        for player in self.rng.sample(self.players, len(self.players)):
            found = self.panel(player)
            if found is None or (found[0], found[1]) in player.tapped:
                continue
            message_id, version, data = found
            player.tapped.add((message_id, version))
            try:
                self.api.tap(player.user, player.user.id, message_id, self.choose(data))
            except LookupError:  # the panel changed under our thumb: look again next round
                continue
            self.taps += 1
            acted = True
        return acted

    def describe(self) -> str:
        """Each player's newest direct messages and the last taps' answers, for a stalled game's report."""
        out = []
        for p in self.players:
            found = self.panel(p)
            tapped = found is not None and (found[0], found[1]) in p.tapped
            texts = [(m.message_id, (m.text or "")[-80:]) for m in self.api.messages(p.user.id)[-3:]]
            out.append(f"{p.user.first_name}: panel={found and found[2]} tapped={tapped} last={texts}")
        answers = [(q["user"], q["data"], q["answer"]) for q in list(self.api.world.callbacks.values())[-8:]]
        return "\n".join(out + [f"answers: {answers}"])

    def play_until(self, done: Any, timeout: float, idle: float = 60.0, on_step: Any = None) -> None:
        """Tap until `done()`; fail if nothing at all reaches Telegram for `idle` seconds."""
        start = last = time.monotonic()
        seen = len(self.api.records())
        while not done():
            if on_step:
                on_step()
            if self.step():
                time.sleep(0.02)
            else:
                time.sleep(0.05)
            now = time.monotonic()
            if len(self.api.records()) != seen:
                seen, last = len(self.api.records()), now
            if now - last > idle or now - start > timeout:
                raise TimeoutError(f"game stalled after {self.taps} taps\n{self.describe()}")
