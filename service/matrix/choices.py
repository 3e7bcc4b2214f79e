"""Which number means which choice, per room: the map written when a message with choices is sent or
edited, read when a player answers with a number, a reply or a reaction.

Kept in the sessions' per-chat UI state (shared by the gateway and the workers that deliver), so a
restart of either loses nothing. Only the last few menus of a room are kept: an answer to an older
one is stale ("this choice has expired").
"""

from __future__ import annotations

from typing import Any

from service.sessions.base import Sessions

SCOPE = "matrix-room"  # the sessions' UI-state scope of this map, keyed by room id
KEEP_MENUS = 5


class ChoiceMaps:
    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    def _state(self, room: str) -> dict[str, Any]:
        return dict(self.sessions.ui.get(SCOPE, room) or {})

    def _save(self, room: str, state: dict[str, Any]) -> None:
        self.sessions.ui.set(SCOPE, room, state)

    def remember(self, room: str, event_id: str, mapping: dict[str, str]) -> None:
        """Make `mapping` the room's current menu, offered by `event_id` (an edit replaces its own entry)."""
        state = self._state(room)
        menus = [m for m in state.get("menus", []) if m[0] != event_id]
        if mapping:
            menus.append([event_id, mapping])
        state["menus"] = menus[-KEEP_MENUS:]
        self._save(room, state)

    def lookup(self, room: str, number: int, event_id: str | None = None) -> str | None:
        """The button data behind `number` in the menu of `event_id` (or the latest menu); None if stale or unknown."""
        menus = self._state(room).get("menus", [])
        if event_id is not None:
            menus = [m for m in menus if m[0] == event_id]
        return menus[-1][1].get(str(number)) if menus else None

    def first_time(self, room: str, flag: str) -> bool:
        """True once per room and flag (e.g. an explanation given only once), False afterwards."""
        state = self._state(room)
        flags = state.get("flags", [])
        if flag in flags:
            return False
        state["flags"] = [*flags, flag]
        self._save(room, state)
        return True
