"""Choices as numbered lines: Matrix has no bot buttons, so a Keyboard becomes "1. label" lines and the
player answers with the number (a plain message, a reply, or a keycap reaction on the message).

Pure functions; the number → button-data map is stored by `service.matrix.choices`.
"""

from __future__ import annotations

import re

from service.chat.base import Keyboard

KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟")
_NUMBER = re.compile(r"^\s*#?(\d{1,3})\s*[.)]?\s*$")
# A command in a text ("/join", "(/start)"): a slash starting a word (after a space, a bracket or a quote) before a
# letter; not in "4/12", a link, or a name's "</i>".
_COMMAND = re.compile(r"(?<![^\s(\[\"'«“])/(?=[a-z])")
COMMAND_PREFIX = "!"  # what the Matrix gateway reads as a command (`service.matrix.inbound`)


def render(text: str, keyboard: Keyboard | None) -> tuple[str, dict[str, str]]:
    """The message body with the choices appended as numbered lines, and the map number → button data; the
    commands the text names are written as a Matrix room types them (`!join`, never `/join`)."""
    text = _COMMAND.sub(COMMAND_PREFIX, text)
    buttons = [b for row in keyboard or [] for b in row]
    if not buttons:
        return text, {}
    lines = [f"{i}. {b.label}" for i, b in enumerate(buttons, 1)]
    return f"{text}\n\n" + "\n".join(lines), {str(i): b.data for i, b in enumerate(buttons, 1)}


def strip_reply_fallback(body: str) -> str:
    """Drop the quoted `> …` lines clients put at the top of a reply, leaving what the user typed."""
    lines = body.splitlines()
    while lines and lines[0].startswith(">"):
        lines.pop(0)
    return "\n".join(lines).strip()


def parse_number(body: str) -> int | None:
    """The choice number in a message like `3`, `3.` or `#3` (a reply's quote ignored), else None."""
    m = _NUMBER.match(strip_reply_fallback(body))
    return int(m.group(1)) if m else None


def reaction_number(key: str) -> int | None:
    """The number a keycap reaction stands for (1️⃣ … 🔟; also a bare digit), else None."""
    key = key.strip()
    if key in KEYCAPS:
        return KEYCAPS.index(key) + 1
    # Some clients send the keycap without the variation selector (U+FE0F).
    for i, cap in enumerate(KEYCAPS):
        if key == cap.replace("\ufe0f", ""):
            return i + 1
    return int(key) if key.isdigit() and 0 < int(key) <= len(KEYCAPS) else None
