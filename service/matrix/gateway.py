"""The inbound side: one nio sync loop turning room events into `Inbound` commands for the backbone.

Handing on happens in one worker thread, in order, so the sync loop never waits for a move to be played
and delivered (in-process delivery calls back into this loop: the adapter needs the loop free, and
encrypted sends need the sync loop to learn new rooms). The sync token is saved by that same thread after
the sync's commands, so a restart neither skips nor replays events (and the backbone drops any duplicate
by `(platform, event id)` anyway); `run` drains the thread before it returns. A killed gateway saved no
token for its last batch: the next process reads it again and skips what the backbone already processed.
The very first sync of a new bot only learns the rooms: history from before the bot existed is not treated
as commands.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import structlog
from aiohttp import ClientError
from nio import (
    AsyncClient,
    InviteMemberEvent,
    MegolmEvent,
    ReactionEvent,
    RoomMemberEvent,
    RoomMessagesResponse,
    RoomMessageText,
    SyncResponse,
    UnknownAccountDataEvent,
)

from service.chat import floods
from service.chat.base import Inbound, TransientError
from service.matrix import health, inbound
from service.matrix.adapter import MatrixAdapter
from service.matrix.choices import ChoiceMaps
from service.matrix.client import keep_keys
from service.matrix.login_store import LoginStore, StoredLogin
from service.matrix.moderators import Moderators
from service.observability import checks

log = structlog.get_logger(__name__)

POLL_MS = 30_000
TIMELINE_LIMIT = 100  # events per room and sync; a longer gap is fetched page by page

Submit = Callable[[Inbound], None]
Answer = Callable[[str, str, str], None]  # (room, user, notice key), e.g. "expired"
Handled = Callable[[list[str]], set[str]]  # event ids → those the backbone has already processed
Owner = Callable[[str], str | None]  # room → the user whose direct chat it is for the backbone, if any
UNKNOWN_AGAIN = 60.0  # seconds before a room that is nobody's direct chat is looked up again


class Gateway:
    def __init__(
        self,
        client: AsyncClient,
        store: LoginStore,
        login: StoredLogin,
        adapter: MatrixAdapter,
        choices: ChoiceMaps,
        *,
        submit: Submit,
        answer: Answer,
        handled: Handled = lambda ids: set(),
        direct_owner: Owner = lambda room: None,
    ) -> None:
        self.client = client
        self.store = store
        self.login = login
        self.adapter = adapter
        self.choices = choices
        self.submit = submit
        self.answer = answer
        self.handled = handled
        self.direct_owner = direct_owner
        self._not_direct: dict[str, float] = {}  # room → when the backbone last said it is nobody's direct chat
        self.timeline_limit = TIMELINE_LIMIT
        self._full_state = True  # the first sync of this process loads every room's state
        self._work = ThreadPoolExecutor(1, thread_name_prefix="matrix-handoff")
        self._pending: set[asyncio.Future] = set()
        self.moderators = Moderators(client)  # who may abort a game they did not create, or run a tournament

    def _hand_on(self, fn: Callable[..., None], *args: object) -> None:
        """Queue `fn(*args)` on the hand-off thread (FIFO); failures are logged, the loop goes on."""
        future = asyncio.get_running_loop().run_in_executor(self._work, fn, *args)
        self._pending.add(future)
        future.add_done_callback(self._done)

    def _done(self, future: asyncio.Future) -> None:
        self._pending.discard(future)
        if not future.cancelled() and future.exception() is not None:
            log.error("matrix.handoff_failed", error=repr(future.exception()))

    async def drain(self) -> None:
        """Wait until everything handed on so far has been processed (and the sync token saved)."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    async def step(self, timeout_ms: int = POLL_MS) -> None:
        """One sync: join invites, hand on the new events, then save the sync token."""
        fresh = self.login.next_batch is None
        since = self.login.next_batch
        resp = await self.client.sync(
            timeout=0 if fresh else timeout_ms,
            sync_filter={"room": {"timeline": {"limit": self.timeline_limit}}},
            since=since,
            full_state=self._full_state,
        )
        if not isinstance(resp, SyncResponse):
            raise ConnectionError(f"sync failed: {resp}")
        checks.heartbeat(health.SYNC)
        first, self._full_state = self._full_state, False
        if first:
            log.info("matrix.first_sync", rooms=len(self.client.rooms))
        await keep_keys(self.client)
        if any(isinstance(e, UnknownAccountDataEvent) and e.type == "m.direct" for e in resp.account_data_events):
            self.adapter.forget_direct_rooms()
        for room_id, info in resp.rooms.invite.items():
            await self._accept(room_id, info.invite_state)
        if not fresh:
            batch = []
            for room_id, info in resp.rooms.join.items():
                events = info.timeline.events
                if info.timeline.limited and since is not None:
                    events = await self._gap(room_id, info.timeline.prev_batch, since) + events
                batch += [(room_id, event) for event in self._since_joined(events)]
            # The first sync of a process repeats what a killed predecessor read but had not marked as read (the
            # token is saved after the batch): what the backbone already processed is not answered again.
            done = self.handled([e.event_id for _, e in batch if getattr(e, "event_id", None)]) if first else set()
            for room_id, event in batch:
                if getattr(event, "event_id", None) not in done:
                    await self._handle(room_id, event)
        self.login = replace(self.login, next_batch=resp.next_batch)
        self._hand_on(self.store.save, self.login)

    async def _gap(self, room_id: str, prev_batch: str | None, since: str) -> list:
        """Events the sync left out (more than `timeline_limit` arrived while the gateway was away), oldest first."""
        events: list = []
        start = prev_batch
        while start:
            resp = await self.client.room_messages(room_id, start=start, end=since, limit=self.timeline_limit)
            if not isinstance(resp, RoomMessagesResponse):
                raise ConnectionError(f"backfill failed: {resp}")
            events = list(reversed(resp.chunk)) + events
            start = resp.end if resp.chunk and resp.end != start else None
        return events

    async def _accept(self, room_id: str, invite_state: list) -> None:
        """Join every room the bot is invited to; a player's own direct chat with the bot is recorded as such."""
        invite = next(
            (e for e in invite_state if isinstance(e, InviteMemberEvent) and e.state_key == self.client.user_id),
            None,
        )
        if invite is None or invite.membership != "invite":
            return
        await self.client.join(room_id)
        if invite.content.get("is_direct"):
            await self.adapter.remember_direct(invite.sender, room_id)

    def _since_joined(self, events: list) -> list:
        """A room the bot has just joined comes with recent history: only what follows the bot's join counts."""
        for i in range(len(events) - 1, -1, -1):
            e = events[i]
            mine = isinstance(e, RoomMemberEvent) and e.state_key == self.client.user_id
            if mine and e.membership == "join" and (e.prev_membership or "leave") != "join":
                return events[i + 1:]
        return events

    async def run(self, stop: asyncio.Event, first: Callable[[], object] | None = None) -> None:
        """Sync until `stop` is set; network trouble backs off and retries, it never ends the loop. `first` runs on
        the hand-off thread before any event (the sync loop runs meanwhile)."""
        if first is not None:
            self._hand_on(first)
        delay = 1.0
        while not stop.is_set():
            step = asyncio.ensure_future(self.step())
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({step, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if not step.done():
                step.cancel()
                break
            try:
                step.result()
                delay = 1.0
            except (ConnectionError, ClientError, TimeoutError, TransientError) as exc:
                log.warning("matrix.sync_failed", error=str(exc), retry_in=delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 60.0)
            except Exception:  # a bug or an odd event: the token did not advance, so retrying loses nothing
                log.exception("matrix.step_failed", retry_in=delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 60.0)
        await self.drain()
        self._work.shutdown(wait=True)

    async def _handle(self, room_id: str, event: object) -> None:
        sender = getattr(event, "sender", None)
        if sender is None or sender == self.client.user_id:
            return
        room = self.client.rooms.get(room_id)
        origin = inbound.Origin(
            room_id, sender, event.event_id, room.user_name(sender) if room else None, not await self._direct(room_id),
            room.display_name if room else None,
        )
        if isinstance(event, RoomMessageText):
            await self._message(origin, event, room)
        elif isinstance(event, ReactionEvent):
            answer = inbound.number_in_reaction(event.key, event.reacts_to)
            if answer is not None and await _within("tap", origin.user):
                self._hand_on(self._choose, origin, answer)
        elif isinstance(event, MegolmEvent):
            log.warning("matrix.undecryptable", room=room_id, session=event.session_id)
            if event.session_id not in self.client.outgoing_key_requests:
                await self.client.request_room_key(event)

    async def _direct(self, room_id: str) -> bool:
        """Whether the room is a player's direct chat: listed in `m.direct`, or, failing that, recorded as one by the
        backbone (which sends their panels there), in which case `m.direct` is mended. A direct room missing from
        `m.direct` (lost in a write, or rewritten by another client of the bot's account) would read as a group,
        where a bare number answers nothing, and its player could never move again."""
        if await self.adapter.is_direct(room_id):
            return True
        loop = asyncio.get_running_loop()
        if loop.time() - self._not_direct.get(room_id, -UNKNOWN_AGAIN) < UNKNOWN_AGAIN:
            return False
        owner = await asyncio.to_thread(self.direct_owner, room_id)  # a database read: off the loop
        if owner is None:
            self._not_direct[room_id] = loop.time()
            return False
        log.warning("matrix.direct_room_mended", room=room_id)
        await self.adapter.record_direct(owner, room_id)
        return True

    async def _message(self, origin: inbound.Origin, event: RoomMessageText, room) -> None:
        parsed = inbound.parse_command(event.body)
        if parsed is not None:
            if await _within("command", origin.user):
                admin = await self.moderators.is_moderator(room, origin.room, origin.user)
                self._hand_on(self.submit, inbound.command(origin, *parsed, admin=admin))
            return
        answer = inbound.number_in_message(event.body, event.source.get("content", {}), direct=not origin.is_group)
        if answer is not None and await _within("tap", origin.user):
            self._hand_on(self._choose, origin, answer)

    def _choose(self, origin: inbound.Origin, answer: inbound.NumberAnswer) -> None:
        """On the hand-off thread, after the commands before it: a menu they changed is the one answered. The number
        is looked up in the menus this service sent to the room, so it can only pick a choice that was offered; one
        that matches none is answered in a direct room and ignored in a group (where any reply may carry a number)."""
        data = self.choices.lookup(origin.room, answer.number, answer.menu_event)
        if data is None:
            if not origin.is_group:
                self.answer(origin.room, origin.user, "expired")
            return
        self.submit(inbound.choice(origin, data))


async def _within(kind: str, user: str) -> bool:
    """Within the user's flood limit for `kind` ("tap": numbers and reactions; "command")? Counts this one; beyond
    it the input is dropped before anything is queued (chatter that is neither is never counted)."""
    return await asyncio.to_thread(floods.allow, kind, inbound.PLATFORM, user)
