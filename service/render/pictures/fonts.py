"""The pictures' fonts: DejaVu Sans shipped in `service/render/fonts/`, and text measured to fit its box.

Shipping the font (not asking the system for one) makes every picture the same on every machine, with the
letters of all six languages (ř, ș, ł, à) and of most names players choose (Cyrillic, Greek). A character the
font lacks (an emoji in a player's name) would draw as an empty box, so it is left out instead.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"
_PROBE = "\U000f0000"  # a private-use code point: no font has a glyph for it, so it draws the "missing" box
_PROBE_SIZE = 24

Font = ImageFont.FreeTypeFont


@cache
def font(size: int, bold: bool = False) -> Font:
    """The shipped DejaVu Sans (bold or regular) at `size` pixels; loaded once per size."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


def path_of(face: Font) -> str:
    """The file a font was loaded from (tests check that the shipped one drew every text)."""
    return str(face.path)


@cache
def _ink(bold: bool, char: str) -> bytes:
    image = Image.new("L", (2 * _PROBE_SIZE, 2 * _PROBE_SIZE))
    ImageDraw.Draw(image).text((_PROBE_SIZE // 4, _PROBE_SIZE // 4), char, font=font(_PROBE_SIZE, bold), fill=255)
    return image.tobytes()


def has_glyph(char: str, bold: bool = False) -> bool:
    """Whether the font draws `char` itself (not the box it draws for a character it lacks)."""
    if char.isspace() or unicodedata.category(char) in ("Cc", "Cf"):
        return char == " "
    return _ink(bold, char) != _ink(bold, _PROBE)


def clean(text: str, bold: bool = False) -> str:
    """`text` without the characters the font lacks (emoji, CJK) and control characters, spaces collapsed."""
    kept = "".join(c if has_glyph(c, bold) else " " for c in text.replace("\n", " "))
    return " ".join(kept.split())


def is_bold(face: Font) -> bool:
    return Path(face.path).name == BOLD.name


def fit(text: str, face: Font, width: float) -> str:
    """`text` as it fits in `width` pixels: whole when it fits, else its longest start that fits followed by "…"."""
    text = clean(text, is_bold(face))
    if face.getlength(text) <= width:
        return text
    low, high = 0, len(text)  # the longest prefix that fits with the ellipsis, by bisection on its length
    while low < high:
        middle = (low + high + 1) // 2
        if face.getlength(text[:middle].rstrip() + ELLIPSIS) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS if low else ELLIPSIS


def largest(text: str, width: float, sizes: tuple[int, ...], bold: bool = False) -> Font:
    """The largest of `sizes` (tried in order) at which `text` fits in `width`; the last one if none does."""
    for size in sizes:
        face = font(size, bold)
        if face.getlength(clean(text, bold)) <= width:
            return face
    return font(sizes[-1], bold)


def wrap(text: str, face: Font, width: float, lines: int) -> list[str]:
    """`text` broken at spaces into at most `lines` lines of `width` pixels; the last one shortened if needed."""
    words = clean(text, is_bold(face)).split()
    out: list[str] = []
    while words and len(out) < lines:
        line = words.pop(0)
        while words and face.getlength(line + " " + words[0]) <= width:
            line += " " + words.pop(0)
        out.append(line)
    if words and out:
        out[-1] = out[-1] + " " + " ".join(words)
    return [fit(line, face, width) for line in out]
