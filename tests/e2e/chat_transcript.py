"""Transcripts of chats as a phone shows them, for both platforms: each message once, as last edited, with an
"(edited N×)" mark, pictures noted with their caption, the live buttons under their message, topics labelled.

The platform modules (tests/e2e/telegram/telegram_transcript.py, tests/e2e/matrix/matrix_transcript.py) turn what
a person's chats hold into `Entry` lists; `render` writes a chat as text; the `transcripts` fixture saves them under
the test's tmp dir and, with CAMELOT_TRANSCRIPTS=<dir>, also to <dir>/<test name>/.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ENV = "CAMELOT_TRANSCRIPTS"
INDENT = "    "


@dataclass
class Entry:
    """One message as shown: `picture` is the caption of a photo or image (None: no picture); `notice` marks a
    service line (someone joined, a topic was closed, the room's rights changed)."""

    sender: str
    text: str
    picture: str | None = None
    buttons: list[list[str]] = field(default_factory=list)
    edits: int = 0
    pinned: bool = False
    notice: bool = False

    def lines(self) -> list[str]:
        if self.notice:
            return [f"  · {self.sender} {self.text}"]
        body = f"[photo: {self.picture}]" if self.picture is not None else self.text
        first, *rest = body.split("\n") or [""]
        out = [f"{'📌 ' if self.pinned else ''}{self.sender}: {first}"]
        out += [INDENT + line for line in rest]
        out += [INDENT + " ".join(f"[ {label} ]" for label in row) for row in self.buttons if row]
        if self.edits:
            out.append(f"{INDENT}(edited {self.edits}×)")
        return out


@dataclass
class Section:
    """A run of messages under one label: a forum topic, or None for a chat (or a forum's General topic)."""

    label: str | None
    entries: list[Entry]


def render(title: str, sections: list[Section]) -> str:
    out = [f"═══ {title} ═══"]
    for section in sections:
        if section.label is not None:
            out += ["", f"── {section.label} ──"]
        for entry in section.entries:
            out += entry.lines()
    if not any(section.entries for section in sections):
        out.append("  (no messages)")
    return "\n".join(out) + "\n"


def save(texts: dict[str, str], folder: Path) -> list[Path]:
    """Each person's transcript as <folder>/<name>.txt."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in texts.items():
        path = folder / f"{_safe(name)}.txt"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "chat"


@pytest.fixture
def transcripts(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[dict[str, str]], list[Path]]:
    """`transcripts({person: text})` writes each under tmp_path/transcripts/ and, when CAMELOT_TRANSCRIPTS names a
    directory, under <that dir>/<test name>/ as well; returns the paths written."""

    def write(texts: dict[str, str]) -> list[Path]:
        written = save(texts, tmp_path / "transcripts")
        chosen = os.environ.get(ENV)
        if chosen:
            written += save(texts, Path(chosen) / _safe(request.node.name))
        return written

    return write
