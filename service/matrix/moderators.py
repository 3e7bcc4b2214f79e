"""Who may act as a room's moderator (abort a game, start or run a tournament): power level 50 and up, or, in rooms
of version 12 and later, one of the room's creators. Their power is unlimited there and they are not listed in the
power levels (MSC4289, room version 12), so the level nio reports for them is 0. A room's creators are read once
from its `m.room.create` event (its sender and `additional_creators`) and kept."""

from __future__ import annotations

from nio import AsyncClient, MatrixRoom, RoomGetStateResponse

ADMIN_LEVEL = 50
CREATORS_RULE_FROM = 12  # the first room version whose creators have unlimited power


def _creators(events: list[dict]) -> frozenset[str]:
    create = next((e for e in events if e.get("type") == "m.room.create"), None)
    if create is None:
        return frozenset()
    content = create.get("content", {})
    version = str(content.get("room_version", "1"))
    if not (version.isdigit() and int(version) >= CREATORS_RULE_FROM):
        return frozenset()
    return frozenset([create.get("sender", ""), *content.get("additional_creators", [])])


class Moderators:
    def __init__(self, client: AsyncClient) -> None:
        self.client = client
        self._creators: dict[str, frozenset[str]] = {}

    async def is_moderator(self, room: MatrixRoom | None, room_id: str, user: str) -> bool:
        if room is not None and room.power_levels.get_user_level(user) >= ADMIN_LEVEL:
            return True
        if room_id not in self._creators:
            resp = await self.client.room_get_state(room_id)
            if not isinstance(resp, RoomGetStateResponse):
                return False  # not known now: asked again next time
            self._creators[room_id] = _creators(resp.events)
        return user in self._creators[room_id]
