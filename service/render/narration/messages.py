"""Lines into messages: the lines of one move go out as one message, split only where a platform's limit forces it.

Telegram's limit is 4096 characters counted in UTF-16 code units (an emoji outside the BMP counts 2), which is
what `size` measures; Matrix allows far more, so the same limit is safe for both.
"""

from __future__ import annotations

TELEGRAM_LIMIT = 4096


def size(text: str) -> int:
    """Length as Telegram counts it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def _cut(line: str, limit: int) -> list[str]:
    """A single line longer than the limit (a long card list): cut at spaces, or hard at the limit."""
    out: list[str] = []
    rest = line
    while size(rest) > limit:
        end = limit
        while size(rest[:end]) > limit:
            end -= 1
        space = rest.rfind(" ", 0, end)
        cut = space if space > end // 2 else end
        out.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        out.append(rest)
    return out


def pack(lines: list[str], limit: int = TELEGRAM_LIMIT, header: str | None = None) -> list[str]:
    """Messages of whole lines joined by newlines, each within `limit`; `header` opens the first one."""
    if limit < 2:
        raise ValueError("limit too small")
    messages: list[str] = []
    current = ""
    pieces = [piece for text in lines for piece in _cut(text, limit)]
    for line in ([header] if header else []) + pieces:
        joined = f"{current}\n{line}" if current else line
        if size(joined) <= limit:
            current = joined
        else:
            messages.append(current)
            current = line
    if current:
        messages.append(current)
    return messages
