"""`MatrixAdapter`: the outbound side of Matrix behind `service.chat.base.ChatAdapter`.

Choices become numbered lines (their map goes to `ChoiceMaps`), edits are `m.replace` events and the
superseded versions of a group message are redacted (Matrix keeps edit history: for the card game an old
board version would show Threat cards the players must remember), silence raises the room's
`events_default` power level, direct rooms are created per player and recorded in `m.direct`, and a message that
mentions players (a deadline reminder in the group) carries pills and `m.mentions`, so their clients notify them.
Errors map to the outbox's retry classes: 429 → RateLimited, network/5xx → TransientError,
other refusals → PermanentError. A retried send reuses its transaction id, so Synapse stores it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import io
import json
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote

import structlog
from nio import (
    AsyncClient,
    ErrorResponse,
    LocalProtocolError,
    MatrixRoom,
    RoomGetStateEventResponse,
    RoomSendResponse,
    UploadResponse,
)
from PIL import Image

from service.chat.base import Keyboard, PermanentError, RateLimited, TransientError, delivering
from service.matrix import numbered, rooms
from service.matrix.calls import failure, forbidden, network, raw_call
from service.matrix.choices import ChoiceMaps
from service.matrix.direct_rooms import DirectRooms
from service.matrix.mentions import mention_content

log = structlog.get_logger(__name__)
SILENCE_LEVEL = 50
MSGTYPE = "m.notice"  # bots speak in notices, so other bots never answer them
# Servers never notify for a notice, even one that mentions you (push rule `.m.rule.suppress_notices` comes first):
# a message that must reach the player mentioned is ordinary text.
MENTION_MSGTYPE = "m.text"


def _on_home_loop(method):
    """Run the method on the loop that owns the nio client (its aiohttp session is bound to one loop); callers
    on another loop (the backbone's adapter thread) wait for the result there."""

    @functools.wraps(method)
    async def wrapper(self: MatrixAdapter, *args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
        if loop is self._loop:
            return await method(self, *args, **kwargs)
        row = delivering.get()

        async def on_home() -> Any:  # a task of the other loop: the outbox row it performs goes with it
            delivering.set(row)
            return await method(self, *args, **kwargs)

        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(on_home(), self._loop))

    return wrapper


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class MatrixAdapter:
    """Outbound Matrix over one logged-in nio client.

    `explain` gives the text sent once to a room whose power levels the bot may not change (so the
    adapter needs no catalog of its own). With `encrypt_direct`, new direct rooms are end-to-end
    encrypted; nio then encrypts every send to them, which needs this client's crypto store and sync
    state, i.e. sending from the gateway process.
    """

    platform = "matrix"
    takes_mentions = True  # the outbox passes a row's `mention_users` to send_text

    def __init__(
        self,
        client: AsyncClient,
        choices: ChoiceMaps,
        *,
        explain: Callable[[str], str],
        encrypt_direct: bool = False,
    ) -> None:
        self.client = client
        self.choices = choices
        self.explain = explain
        self._retry_txn: dict[str, str] = {}
        self.direct = DirectRooms(client, encrypt_direct)
        self._encrypted: dict[str, bool] = {}  # rooms checked by a client without end-to-end support
        # The nio client's loop: the one this adapter is made on, else the first one it is used on.
        self._loop: asyncio.AbstractEventLoop | None = _running_loop()
        self._blocked_until = 0.0  # monotonic time before which sends would only earn another 429

    # --- sending ------------------------------------------------------------------------------
    async def _send(self, room: str, event_type: str, content: dict[str, Any]) -> str:
        """Send one event. Its transaction id is the outbox row's and the content's when the outbox performs a row
        (so a send repeated after a crash is stored once: Synapse answers with the first event), else random and
        kept for the retry of a failed send."""
        row = delivering.get()
        key = hashlib.sha256(json.dumps([row, room, event_type, content], sort_keys=True).encode()).hexdigest()
        txn = f"camelot-{key[:40]}" if row else self._retry_txn.get(key) or uuid.uuid4().hex
        wait = self._blocked_until - time.monotonic()
        if wait > 0:  # Synapse limits the sender, not the room: after a 429 every room waits
            raise RateLimited(wait)
        await self._await_room(room)
        try:
            async with network():
                resp = await self.client.room_send(room, event_type, content, tx_id=txn, ignore_unverified_devices=True)
            if not isinstance(resp, RoomSendResponse):
                raise failure(resp)
        except (TransientError, RateLimited) as exc:
            if not row:
                self._retry_txn[key] = txn  # the retry must reuse it: Synapse then answers with the same event
            if isinstance(exc, RateLimited):
                self._blocked_until = time.monotonic() + exc.retry_after
            raise
        self._retry_txn.pop(key, None)
        return resp.event_id

    async def _await_room(self, room: str, wait: float = 5.0) -> None:
        """With encryption nio must know the room (members, encryption state) from a sync before sending:
        wait briefly for the gateway's sync loop to bring a new room in, else let the outbox retry later.
        Without it, never send plaintext into an encrypted room."""
        if self.client.olm is None:
            if room not in self._encrypted:
                self._encrypted[room] = await self._state(room, "m.room.encryption") is not None
            if self._encrypted[room]:
                raise PermanentError(f"room {room} is encrypted: only the gateway's device can write there")
            return
        for _ in range(int(wait / 0.05)):
            if room in self.client.rooms:
                await self._know_devices(self.client.rooms[room], wait)
                return
            await asyncio.sleep(0.05)
        raise TransientError(f"room {room} not synced yet")

    async def _know_devices(self, room: MatrixRoom, wait: float) -> None:
        """Have every member's device keys queried (invited members too) before encrypting: a device unknown
        now never gets the key of this message, and a player who cannot read their first panel is stuck."""
        olm = self.client.olm
        if not room.encrypted:
            return
        olm.update_tracked_users(room)
        for _ in range(int(wait / 0.05)):
            if not any(u in olm.users_for_key_query for u in room.users):
                break
            if self.client.should_query_keys:
                with contextlib.suppress(LocalProtocolError):  # the sync loop's own query got there first
                    async with network():
                        await self.client.keys_query()
            else:
                await asyncio.sleep(0.05)  # the sync loop's query is in flight
        await self._claim_sessions(room.room_id)

    async def _claim_sessions(self, room_id: str) -> None:
        """Open the olm sessions this device lacks with the room's devices here, where a failure is ours to handle.
        nio would claim them inside its key sharing, and a claim failing there leaves the room's sharing marked as
        in progress: every later send to the room would then wait for it forever."""
        missing = self.client.get_missing_sessions(room_id)
        if not missing:
            return
        with contextlib.suppress(LocalProtocolError):  # the sync loop's own claim got there first
            async with network():
                resp = await self.client.keys_claim(missing)
            if isinstance(resp, ErrorResponse):
                raise failure(resp)

    @_on_home_loop
    async def send_text(
        self, chat: str, text: str, buttons: Keyboard | None = None, mentions: Sequence[str] = ()
    ) -> str:
        """`mentions`: user ids whose names in the text become pills, and who are notified (`m.mentions`)."""
        body, mapping = numbered.render(text, buttons)
        content = {"msgtype": MSGTYPE, "body": body}
        if mentions:
            names = {user: self._name_in(chat, user, body) for user in mentions}
            content.update(mention_content(body, names), msgtype=MENTION_MSGTYPE)
        event_id = await self._send(chat, "m.room.message", content)
        if mapping:
            self.choices.remember(chat, event_id, mapping)
        return event_id

    def _name_in(self, chat: str, user: str, body: str) -> str:
        """How the text names `user`: the room's display name for them (what the gateway stored as their name), or
        their id (the backbone's fallback)."""
        room = self.client.rooms.get(chat)
        name = room.user_name(user) if room is not None else None
        return name if name and name in body else user

    @_on_home_loop
    async def edit_text(self, chat: str, message_id: str, text: str, buttons: Keyboard | None = None) -> None:
        body, mapping = numbered.render(text, buttons)
        await self._replace(chat, message_id, {"msgtype": MSGTYPE, "body": body})
        self.choices.remember(chat, message_id, mapping)

    async def _replace(self, chat: str, message_id: str, new_content: dict[str, Any]) -> None:
        content = {
            **new_content,
            "body": "* " + new_content["body"],
            "m.new_content": new_content,
            "m.relates_to": {"rel_type": "m.replace", "event_id": message_id},
        }
        latest = await self._send(chat, "m.room.message", content)
        if not await self.is_direct(chat):
            try:
                await self._redact_superseded(chat, message_id, keep=latest)
            except (TransientError, RateLimited, PermanentError) as exc:
                # The edit itself is done (failing here would make the outbox send the message anew);
                # the next edit of this message redacts whatever is left.
                log.warning("matrix.redact_failed", room=chat, error=str(exc))

    async def _redact_superseded(self, chat: str, message_id: str, keep: str) -> None:
        """Redact every earlier edit of `message_id`: the room's history then shows only the current version."""
        path = f"/v1/rooms/{quote(chat)}/relations/{quote(message_id)}/m.replace?limit=1000"
        old = [e["event_id"] for e in (await self._raw("GET", path)).get("chunk", []) if e["event_id"] != keep]
        for event_id in old:
            async with network():
                resp = await self.client.room_redact(chat, event_id, reason="superseded", tx_id=f"redact-{event_id}")
            if isinstance(resp, ErrorResponse):
                raise failure(resp)

    @_on_home_loop
    async def send_photo(self, chat: str, photo: bytes, caption: str = "", buttons: Keyboard | None = None) -> str:
        content, mapping = await self._image_content(chat, photo, caption, buttons)
        event_id = await self._send(chat, "m.room.message", content)
        if mapping:
            self.choices.remember(chat, event_id, mapping)
        return event_id

    @_on_home_loop
    async def send_document(self, chat: str, data: bytes, filename: str, caption: str = "") -> str:
        """An `m.file` event (encrypted in an encrypted room) whose body is the caption."""
        room = self.client.rooms.get(chat)
        encrypt = bool(room and room.encrypted and self.client.olm)
        async with network():
            resp, keys = await self.client.upload(
                io.BytesIO(data), content_type="text/plain", filename=filename, filesize=len(data), encrypt=encrypt
            )
        if not isinstance(resp, UploadResponse):
            raise failure(resp)
        content: dict[str, Any] = {
            "msgtype": "m.file",
            "body": caption or filename,
            "filename": filename,
            "info": {"mimetype": "text/plain", "size": len(data)},
        }
        if keys is not None:
            content["file"] = {**keys, "url": resp.content_uri}
        else:
            content["url"] = resp.content_uri
        return await self._send(chat, "m.room.message", content)

    @_on_home_loop
    async def edit_photo(
        self, chat: str, message_id: str, photo: bytes, caption: str = "", buttons: Keyboard | None = None
    ) -> None:
        content, mapping = await self._image_content(chat, photo, caption, buttons)
        await self._replace(chat, message_id, content)
        self.choices.remember(chat, message_id, mapping)

    async def _image_content(
        self, chat: str, photo: bytes, caption: str, buttons: Keyboard | None
    ) -> tuple[dict[str, Any], dict[str, str]]:
        room = self.client.rooms.get(chat)
        encrypt = bool(room and room.encrypted and self.client.olm)
        with Image.open(io.BytesIO(photo)) as image:
            width, height = image.size
            mimetype = Image.MIME.get(image.format or "", "image/png")
        async with network():
            resp, keys = await self.client.upload(
                io.BytesIO(photo), content_type=mimetype, filename="board.png", filesize=len(photo), encrypt=encrypt
            )
        if not isinstance(resp, UploadResponse):
            raise failure(resp)
        body, mapping = numbered.render(caption, buttons)
        content: dict[str, Any] = {
            "msgtype": "m.image",
            "body": body or "board.png",
            "filename": "board.png",
            "info": {"mimetype": mimetype, "size": len(photo), "w": width, "h": height},
        }
        if keys is not None:
            content["file"] = {**keys, "url": resp.content_uri}
        else:
            content["url"] = resp.content_uri
        return content, mapping

    @_on_home_loop
    async def delete(self, chat: str, message_id: str) -> None:
        async with network():
            resp = await self.client.room_redact(chat, message_id, tx_id=f"redact-{message_id}")
        if isinstance(resp, ErrorResponse):
            raise failure(resp)

    # --- room state ---------------------------------------------------------------------------
    async def _state(self, chat: str, event_type: str) -> dict[str, Any] | None:
        async with network():
            resp = await self.client.room_get_state_event(chat, event_type)
        if isinstance(resp, RoomGetStateEventResponse):
            return dict(resp.content)
        if resp.status_code == "M_NOT_FOUND":
            return None
        raise failure(resp)

    async def _put_state(self, chat: str, event_type: str, content: dict[str, Any]) -> bool:
        """Write a state event; False when the bot lacks the power level for it."""
        async with network():
            resp = await self.client.room_put_state(chat, event_type, content)
        if forbidden(resp):
            return False
        if isinstance(resp, ErrorResponse):
            raise failure(resp)
        return True

    @_on_home_loop
    async def pin(self, chat: str, message_id: str) -> bool:
        pinned = (await self._state(chat, "m.room.pinned_events") or {}).get("pinned", [])
        if message_id in pinned:
            return True
        return await self._put_state(chat, "m.room.pinned_events", {"pinned": [*pinned, message_id]})

    @_on_home_loop
    async def set_silence(self, chat: str, on: bool) -> bool:
        """Raise `events_default` to 50 (members at level 0 cannot send) or back to 0.

        The bot needs the level that changing power levels requires; without it the room is told once why.
        """
        levels = await self._state(chat, "m.room.power_levels") or {}
        target = SILENCE_LEVEL if on else 0
        if levels.get("events_default", 0) == target:
            return True
        # The server judges the bot's power (room creators have unlimited power from room version 12 on).
        if await self._put_state(chat, "m.room.power_levels", {**levels, "events_default": target}):
            return True
        if self.choices.first_time(chat, "silence-power"):
            await self.send_text(chat, self.explain("silence_no_power"))
        return False

    @_on_home_loop
    async def open_table(self, community: str, title: str, people: Sequence[str]) -> str:
        """A table's own room in the community's Space (`rooms`), linked from the community's room."""
        async with network():
            room = await rooms.open_table(self.client, community, title, people)
        await self.send_text(community, f"🏰 {title}: https://matrix.to/#/{room}")
        return room

    # --- direct rooms (`DirectRooms`) -----------------------------------------------------------
    def forget_direct_rooms(self) -> None:
        """`m.direct` changed (another process created a direct room): reload it on next use."""
        self.direct.forget()

    @_on_home_loop
    async def is_direct(self, chat: str) -> bool:
        return chat in (await self.direct.rooms()).values()

    @_on_home_loop
    async def direct_chat(self, user: str) -> str | None:
        """The bot's direct room with `user`, created (invite, `is_direct`, maybe encrypted) on first need."""
        return await self.direct.room_for(user)

    @_on_home_loop
    async def remember_direct(self, user: str, room: str) -> None:
        """A direct room the player opened with the bot: use it unless the bot already has one with them."""
        await self.direct.remember(user, room)

    @_on_home_loop
    async def record_direct(self, user: str, room: str) -> None:
        """Make `room` the bot's direct room with `user` in `m.direct` (the backbone's record of it wins)."""
        await self.direct.record(user, room)

    async def _raw(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """A client-server API call nio has no (robust) method for (`calls.raw_call`)."""
        return await raw_call(self.client, method, path, body)
