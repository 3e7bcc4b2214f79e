"""The compact, signed payload carried by buttons (Telegram callback data, Matrix numbered lines) and lobby links.

A game choice is `<mac><game>:<seq>:<code>`, where code is an engine action code (at most 40 bytes), `@<kind>` to
open the second level of a menu, or `@` to go back. A lobby button is `!<mac><lobby>:<verb>[:<value>]`. Ids are
written in base 64 with the digits first (0-9 read as themselves), so the largest id takes 5 characters.

`mac` is 11 base64url characters (66 bits) of an HMAC-SHA256 under the server secret over what the button means
(game, seq and code; lobby, verb and value), so only data the service offered unpacks: a hand-made code (`leave`),
another game's id or an altered seq gives None, as garbage does. The worst case, both ids at MAX_ID and a 40-byte
code, is 11 + 5 + 1 + 5 + 1 + 40 = 63 bytes, within Telegram's 64; the longest code the engines offer is 26.

The seat is not signed: `pack`'s callers render a seat's panel without its user, the worker checks that the tapper
owns a seat prompted at that seq, and the engine that the code is legal for that seat; a panel's data reaches only
its owner's direct chat. Nor is the chat: every tap that names a game is checked against the chat it came from.

A lobby's deep link (`service.telegram.inbound.join_link`) carries `<lobby>_<mac>` with a MAC of its own, so no
one can make the link of a lobby whose message they have not seen.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from typing import NamedTuple

from service.callback_secret import callback_secret

MAX_BYTES = 64
MAX_ID = 999_999_999  # fits the database's 32-bit integers and 5 base-64 digits
MAC_CHARS = 11  # 66 bits
DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
_MAC = rf"[A-Za-z0-9_-]{{{MAC_CHARS}}}"
_NUM = r"[0-9A-Za-z_-]{1,5}"
_CODE, _VERB, _VALUE = r"[\x21-\x7e]{1,40}", r"[a-z_]{1,16}", r"[A-Za-z0-9_\-]{1,24}"
_CHOICE = re.compile(rf"({_MAC})({_NUM}):({_NUM}):({_CODE})")
_LOBBY = re.compile(rf"!({_MAC})({_NUM}):({_VERB})(?::({_VALUE}))?")
_LINK = re.compile(rf"([0-9]{{1,9}})_({_MAC})")


class Choice(NamedTuple):
    game_id: int
    seq: int
    code: str  # engine action code, "@kind" (open submenu) or "@" (back)

    @property
    def is_navigation(self) -> bool:
        return self.code.startswith("@")


class LobbyTap(NamedTuple):
    lobby_id: int
    verb: str  # join, leave, start, abort, players, bots, game …
    value: str | None


def pack(game_id: int, seq: int, code: str) -> str:
    """A game choice's signed data."""
    _check_ids(game_id, seq)
    if not re.fullmatch(_CODE, code):
        raise ValueError(f"not a button code: {code!r}")
    return _fit(f"{_mac('c', str(game_id), str(seq), code)}{_number(game_id)}:{_number(seq)}:{code}")


def pack_lobby(lobby_id: int, verb: str, value: str | None = None) -> str:
    """A lobby button's signed data."""
    _check_ids(lobby_id)
    if not (re.fullmatch(_VERB, verb) and (value is None or re.fullmatch(_VALUE, value))):
        raise ValueError(f"not a lobby button: {verb!r} {value!r}")
    mac = _mac("l", str(lobby_id), verb, value or "")
    return _fit(f"!{mac}{_number(lobby_id)}:{verb}" + (f":{value}" if value is not None else ""))


def unpack(data: str) -> Choice | LobbyTap | None:
    """Parse and verify button data; anything not signed by this service (forged, altered, truncated, garbage)
    gives None, never an exception."""
    if not isinstance(data, str) or len(data.encode("utf-8", "replace")) > MAX_BYTES:
        return None
    m = _CHOICE.fullmatch(data)
    if m:
        game_id, seq, code = _int(m.group(2)), _int(m.group(3)), m.group(4)
        if game_id is None or seq is None or not _signed(m.group(1), "c", str(game_id), str(seq), code):
            return None
        return Choice(game_id, seq, code)
    m = _LOBBY.fullmatch(data)
    if m:
        lobby_id, verb, value = _int(m.group(2)), m.group(3), m.group(4)
        if lobby_id is None or not _signed(m.group(1), "l", str(lobby_id), verb, value or ""):
            return None
        return LobbyTap(lobby_id, verb, value)
    return None


def link_token(lobby_id: int) -> str:
    """What a lobby's deep link carries: the id and a MAC of its own."""
    _check_ids(lobby_id)
    return f"{lobby_id}_{_mac('j', str(lobby_id))}"


def linked_lobby(token: str) -> int | None:
    """The lobby a deep link's token names, if this service made the token."""
    m = _LINK.fullmatch(token)
    if m is None or not _signed(m.group(2), "j", m.group(1)):
        return None
    return int(m.group(1))


def _mac(*parts: str) -> str:
    digest = hmac.new(callback_secret(), "\x1f".join(parts).encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:9]).decode()[:MAC_CHARS]


def _signed(mac: str, *parts: str) -> bool:
    return hmac.compare_digest(mac, _mac(*parts))


def _check_ids(*ids: int) -> None:
    if not all(0 <= n <= MAX_ID for n in ids):
        raise ValueError("id or seq out of range")


def _fit(data: str) -> str:
    if len(data.encode()) > MAX_BYTES:
        raise ValueError("callback data over 64 bytes")
    return data


def _number(n: int) -> str:
    text = ""
    while True:
        n, digit = divmod(n, len(DIGITS))
        text = DIGITS[digit] + text
        if n == 0:
            return text


def _int(text: str) -> int | None:
    """A number in its one canonical writing (no leading zeros) within MAX_ID, else None."""
    n = 0
    for char in text:
        n = n * len(DIGITS) + DIGITS.index(char)
    return n if n <= MAX_ID and _number(n) == text else None
