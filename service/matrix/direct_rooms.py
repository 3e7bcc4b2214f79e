"""The bot's direct room with each player, as the account's `m.direct` records it (the server's truth): found,
created on first need (invite, `is_direct`, maybe encrypted), and recorded whole under one lock."""

from __future__ import annotations

import asyncio
from urllib.parse import quote

from nio import AsyncClient, DirectRoomsResponse, JoinedRoomsResponse, RoomCreateResponse, RoomPreset

from service.matrix.calls import failure, network, raw_call


class DirectRooms:
    """user → direct room, loaded from `m.direct` on first use. With `encrypt`, new rooms are end-to-end
    encrypted (where the client has crypto)."""

    def __init__(self, client: AsyncClient, encrypt: bool = False) -> None:
        self.client = client
        self.encrypt = encrypt
        self._rooms: dict[str, str] | None = None
        self._lock = asyncio.Lock()  # one m.direct change at a time (`_record`)

    async def rooms(self) -> dict[str, str]:
        """user → the direct room the bot is still in."""
        if self._rooms is None:
            async with network():
                listed = await self.client.list_direct_rooms()
                joined = await self.client.joined_rooms()
            if not isinstance(joined, JoinedRoomsResponse):
                raise failure(joined)
            rooms = listed.rooms if isinstance(listed, DirectRoomsResponse) else {}
            self._rooms = {
                user: next(r for r in reversed(ids) if r in joined.rooms)
                for user, ids in rooms.items()
                if any(r in joined.rooms for r in ids)
            }
        return self._rooms

    def forget(self) -> None:
        """`m.direct` changed (another process created a direct room): reload it on next use."""
        self._rooms = None

    async def room_for(self, user: str) -> str:
        """The bot's direct room with `user`, created on first need."""
        async with self._lock:
            direct = await self.rooms()
            if user not in direct:  # another process may have opened it since we looked
                self._rooms = None
                direct = await self.rooms()
            if user in direct:
                return direct[user]
            initial_state = []
            if self.encrypt and self.client.olm:
                initial_state.append(
                    {"type": "m.room.encryption", "state_key": "", "content": {"algorithm": "m.megolm.v1.aes-sha2"}}
                )
            async with network():
                resp = await self.client.room_create(
                    is_direct=True, invite=[user], preset=RoomPreset.private_chat, initial_state=initial_state
                )
            if not isinstance(resp, RoomCreateResponse):
                raise failure(resp)
            await self._record(user, resp.room_id)
            return resp.room_id

    async def remember(self, user: str, room: str) -> None:
        """A direct room the player opened with the bot: use it unless the bot already has one with them."""
        async with self._lock:
            if user not in await self.rooms():
                await self._record(user, room)

    async def record(self, user: str, room: str) -> None:
        """Make `room` the bot's direct room with `user` in `m.direct` (the backbone's record of it wins)."""
        async with self._lock:
            if (await self.rooms()).get(user) != room:
                await self._record(user, room)

    async def _record(self, user: str, room: str) -> None:
        """Add the room to `m.direct` account data (the server does not do it for the creator), then to the map.
        Under `_lock`: the account data is read, changed and written whole, so two rooms recorded at once would
        each write the list without the other."""
        async with network():
            listed = await self.client.list_direct_rooms()
        content = dict(listed.rooms) if isinstance(listed, DirectRoomsResponse) else {}
        content[user] = [*[r for r in content.get(user, []) if r != room], room]
        await raw_call(self.client, "PUT", f"/v3/user/{quote(self.client.user_id)}/account_data/m.direct", content)
        (await self.rooms())[user] = room  # the map may have been reloaded meanwhile (an m.direct sync)
