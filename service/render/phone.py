"""Text for a phone held upright: lines of at most PHONE_WIDTH characters where the words allow.

A chat wraps a long line wherever it likes, which breaks a board's columns; `fold` breaks it first, at the board's
own separators (" · " between facts, " ← " before the knights on a quest, then ", " in a list), and indents
what follows. A line with no
separator (a sentence) is left to the chat.
"""

from __future__ import annotations

import re
from collections.abc import Callable

PHONE_WIDTH = 36
INDENT = "   "
_SEPARATOR = re.compile(r" · | (?=← )")  # the cut drops " · ", and keeps "← " to open the next line


def fold(text: str, width: int = PHONE_WIDTH) -> str:
    """Every line of `text` folded to `width` at its separators."""
    return "\n".join(part for line in text.split("\n") for part in _fold_line(line, width))


def _fold_line(line: str, width: int) -> list[str]:
    if len(line) <= width:
        return [line]
    out = _join(_SEPARATOR.split(line), lambda piece: " " if piece.startswith("← ") else " · ", width)
    return [part for folded in out for part in _join(folded.split(", "), lambda _: ", ", width)]


def _join(pieces: list[str], sep_before: Callable[[str], str], width: int) -> list[str]:
    """The pieces joined back on lines of at most `width` (a piece longer than that alone on its line)."""
    out = [pieces[0]]
    for piece in pieces[1:]:
        sep = sep_before(piece)
        mark = sep.rstrip(" ·")  # a list's comma stays where it is cut: room is kept for it
        if len(out[-1]) + len(sep) + len(piece) + len(mark) <= width:
            out[-1] += sep + piece
        else:
            out[-1] += mark
            out.append(INDENT + piece)
    return out
