"""A table's own Matrix room, in the community's Space (`service.play.tables`: the delivery opens it before the
table's first message).

The bot creates the room with the table's title and invites its seated people (the community room's members may
join it too: a substitute, a spectator); the room names the Space as its
parent (`m.space.parent`) and the Space names it as a child (`m.space.child`), so clients show the community's
tables together; the community's room gets a link to the new room. The Space is created once per community room,
joinable by that room's members (join rule `restricted`), and recorded as the community room's parent (and in the
sessions, for a bot without the power to write that state). Each table room's power levels are its own: Morgan's
silence there (`set_silence`) mutes that table only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from nio import AsyncClient, RoomCreateResponse, RoomGetStateResponse, RoomPreset

from service.chat.base import PermanentError
from service.sessions import get_sessions

SPACE_KEY = "matrix:{room}:space"
_making: dict[str, asyncio.Lock] = {}  # community → held while its Space is looked up or made (tables open at once)


def _via(client: AsyncClient) -> list[str]:
    return [client.user_id.split(":", 1)[1]]


def _joinable_from(community: str) -> dict[str, Any]:
    """A join rule letting the community room's members in without an invite (a substitute, a spectator)."""
    return {"join_rule": "restricted", "allow": [{"type": "m.room_membership", "room_id": community}]}


def _created(resp: Any) -> str:
    if not isinstance(resp, RoomCreateResponse):
        raise PermanentError(f"room not created: {getattr(resp, 'message', resp)}")
    return resp.room_id


async def _space_of(client: AsyncClient, community: str) -> str:
    """The community's Space: recorded in the sessions or as the room's parent; else created and linked. One at a
    time per community: the round's tables are opened at once (the adapter's calls all run on its one loop)."""
    async with _making.setdefault(community, asyncio.Lock()):
        return await _find_or_make_space(client, community)


async def _find_or_make_space(client: AsyncClient, community: str) -> str:
    sessions = get_sessions()
    found = sessions.ui.get("chat", SPACE_KEY.format(room=community))
    if found:
        return str(found["space"])
    state = await client.room_get_state(community)
    if isinstance(state, RoomGetStateResponse):
        for event in state.events:
            if event.get("type") == "m.space.parent" and event.get("content", {}).get("via"):
                return str(event["state_key"])
    name = next(
        (e["content"].get("name") for e in getattr(state, "events", []) if e.get("type") == "m.room.name"), None
    )
    join_rule = _joinable_from(community)
    space = _created(
        await client.room_create(
            name=f"{name or 'Camelot'} ⚔",
            space=True,
            preset=RoomPreset.private_chat,
            initial_state=[{"type": "m.room.join_rules", "state_key": "", "content": join_rule}],
        )
    )
    via = _via(client)
    await client.room_put_state(space, "m.space.child", {"via": via}, state_key=community)
    await client.room_put_state(community, "m.space.parent", {"via": via, "canonical": True}, state_key=space)
    sessions.ui.set("chat", SPACE_KEY.format(room=community), {"space": space})
    return space


async def open_table(client: AsyncClient, community: str, title: str, people: Sequence[str]) -> str:
    """Create the table's room in the Space with its people invited; returns its id (the table's address)."""
    space = await _space_of(client, community)
    via = _via(client)
    room = _created(
        await client.room_create(
            name=title,
            invite=list(people),
            preset=RoomPreset.private_chat,
            initial_state=[
                {"type": "m.space.parent", "state_key": space, "content": {"via": via, "canonical": True}},
                {"type": "m.room.join_rules", "state_key": "", "content": _joinable_from(community)},
            ],
        )
    )
    await client.room_put_state(space, "m.space.child", {"via": via, "suggested": True}, state_key=room)
    for person in people:  # in the Space too, so their client shows the community's tables together
        await client.room_invite(space, person)
    return room
