"""Real Matrix clients (matrix-nio, end-to-end capable) acting as players: they join what they are
invited to, keep every event they see per room (decrypted when they can), and answer with messages."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from nio import AsyncClient, AsyncClientConfig, InviteMemberEvent, MegolmEvent, SyncResponse

from service.matrix.client import keep_keys


class Player:
    def __init__(self, client: AsyncClient) -> None:
        self.client = client
        self.events: dict[str, list[Any]] = defaultdict(list)  # room → nio events in arrival order
        self.undecryptable = 0

    @property
    def user_id(self) -> str:
        return self.client.user_id

    async def sync(self, timeout_ms: int = 0) -> None:
        resp = await self.client.sync(timeout=timeout_ms)
        if not isinstance(resp, SyncResponse):
            raise RuntimeError(f"sync failed: {resp}")
        for room_id, info in resp.rooms.invite.items():
            if any(isinstance(e, InviteMemberEvent) and e.state_key == self.user_id for e in info.invite_state):
                await self.client.join(room_id)
        for room_id, info in resp.rooms.join.items():
            for event in info.timeline.events:
                if isinstance(event, MegolmEvent):
                    self.undecryptable += 1
                self.events[room_id].append(event)
        await keep_keys(self.client)

    async def wait_for(self, check: Callable[[Player], Any], timeout: float = 15.0) -> Any:
        """Sync until `check(self)` is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            found = check(self)
            if found:
                return found
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.user_id}: condition not met in {timeout}s")
            await self.sync(timeout_ms=300)

    def bodies(self, room: str) -> list[str]:
        return [e.body for e in self.events[room] if hasattr(e, "body") and isinstance(e.body, str)]

    def current(self, room: str) -> list[tuple[str, str]]:
        """(original event id, body as last edited) of every message in the room, in order."""
        latest: dict[str, str] = {}
        order: list[str] = []
        for e in self.events[room]:
            content = e.source.get("content", {})
            rel = content.get("m.relates_to") or {}
            if rel.get("rel_type") == "m.replace" and "m.new_content" in content:
                if rel.get("event_id") in latest:
                    latest[rel["event_id"]] = content["m.new_content"].get("body", "")
            elif isinstance(getattr(e, "body", None), str):
                latest[e.event_id] = e.body
                order.append(e.event_id)
        return [(i, latest[i]) for i in order]

    def menu(self, room: str) -> tuple[str, str, dict[int, str]] | None:
        """The room's newest message offering numbered choices: (event id, body, number → label)."""
        for event_id, body in reversed(self.current(room)):
            head, sep, tail = body.rpartition("\n\n")
            choices = dict(_numbered(tail)) if sep else {}
            if choices and all(_numbered(line) for line in tail.splitlines()):
                return event_id, body, choices
        return None

    async def say(self, room: str, text: str) -> Any:
        if room not in self.client.rooms:
            await self.sync()
        return await self.client.room_send(
            room, "m.room.message", {"msgtype": "m.text", "body": text}, ignore_unverified_devices=True
        )

    async def close(self) -> None:
        await self.client.close()


def _numbered(text: str) -> list[tuple[int, str]]:
    found = []
    for line in text.splitlines():
        number, dot, label = line.partition(". ")
        if not (dot and number.isdigit()):
            return []
        found.append((int(number), label))
    return found


STORE_ROOT: str | None = None  # set by the `homeserver` fixture, removed at the end of the session


def scratch(prefix: str) -> str:
    """A directory for a client's stores, under the session's root so nothing is left behind."""
    return tempfile.mkdtemp(prefix=prefix, dir=STORE_ROOT)


async def login(url: str, user_id: str, password: str, *, encryption: bool = True) -> Player:
    store = scratch("player-")
    config = AsyncClientConfig(encryption_enabled=encryption, store_sync_tokens=False, max_timeouts=3)
    client = AsyncClient(url, user_id, store_path=store, config=config)
    await client.login(password)
    player = Player(client)
    await player.sync()
    return player


async def settle(*players: Player, rounds: int = 2) -> None:
    """Let every client catch up (joins, keys) before a check."""
    for _ in range(rounds):
        await asyncio.gather(*(p.sync(timeout_ms=100) for p in players))
