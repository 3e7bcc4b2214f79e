"""The compact choice payload carried by buttons (Telegram callback data, Matrix numbered lines).

Format: `<game_id>:<prompt_seq>:<code>` where code is an engine action code, `@<kind>` to open the second
level of a menu (action kind → choices), or `@` to go back to the first level. At most 64 bytes
(Telegram's callback data limit); engine codes are at most 40 bytes, so a game id and seq always fit.
Lobby buttons use `L<lobby_id>:<verb>[:<value>]` so the two never collide.
"""

from __future__ import annotations

import re
from typing import NamedTuple

MAX_BYTES = 64
MAX_ID = 999_999_999
# ids and seqs of at most 9 ASCII digits fit the database's 32-bit integers (a forged bigger one is malformed)
_CHOICE = re.compile(r"^([0-9]{1,9}):([0-9]{1,9}):([\x21-\x7e]{1,40})$")
_LOBBY = re.compile(r"^L([0-9]{1,9}):([a-z_]{1,16})(?::([A-Za-z0-9_\-]{1,24}))?$")


class Choice(NamedTuple):
    game_id: int
    seq: int
    code: str  # engine action code, "@kind" (open submenu) or "@" (back)

    @property
    def is_navigation(self) -> bool:
        return self.code.startswith("@")


class LobbyTap(NamedTuple):
    lobby_id: int
    verb: str  # join, leave, start, abort, set …
    value: str | None


def pack(game_id: int, seq: int, code: str) -> str:
    if not (0 <= game_id <= MAX_ID and 0 <= seq <= MAX_ID):
        raise ValueError("game id or seq out of range")
    data = f"{game_id}:{seq}:{code}"
    if len(data.encode()) > MAX_BYTES:
        raise ValueError("callback data over 64 bytes")
    return data


def pack_lobby(lobby_id: int, verb: str, value: str | None = None) -> str:
    return f"L{lobby_id}:{verb}" + (f":{value}" if value is not None else "")


def unpack(data: str) -> Choice | LobbyTap | None:
    """Parse button data; anything malformed (forged, truncated, garbage) gives None, never an exception."""
    if not isinstance(data, str) or len(data.encode("utf-8", "replace")) > MAX_BYTES:
        return None
    m = _CHOICE.match(data)
    if m:
        return Choice(int(m.group(1)), int(m.group(2)), m.group(3))
    m = _LOBBY.match(data)
    if m:
        return LobbyTap(int(m.group(1)), m.group(2), m.group(3))
    return None
