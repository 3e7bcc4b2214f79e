"""The game's pieces drawn as simple shapes: knights' tokens, hearts, swords, siege engines, cards, relics.

Shapes, not emoji or symbol glyphs, so they look the same everywhere and read at a small size.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from service.render.pictures import fonts
from service.render.pictures import layout as lay
from service.render.pictures.canvas import Canvas, Colour


def seat_colour(seat: int) -> Colour:
    return lay.SEAT_COLOURS[seat % len(lay.SEAT_COLOURS)]


def token(canvas: Canvas, cx: float, cy: float, seat: int, where: str, ring: Colour | None = None) -> None:
    """A knight's token: a disc in the seat's colour with the seat's number (the list of seats names them)."""
    r = lay.TOKEN_RADIUS
    if ring is not None:
        canvas.draw.ellipse((cx - r - 4, cy - r - 4, cx + r + 4, cy + r + 4), fill=ring)
    canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=seat_colour(seat), outline=lay.WHITE, width=2)
    canvas.text((cx, cy), str(seat + 1), fonts.font(lay.TOKEN, bold=True), lay.WHITE, anchor="mm")
    canvas.mark("knight", f"{where}:{seat}", (cx - r, cy - r, cx + r, cy + r))


def _token_step(count: int, width: float) -> float:
    return min(2 * lay.TOKEN_RADIUS + 6, (width - 2 * lay.TOKEN_RADIUS) / max(1, count - 1))


def tokens_width(seats: list[int], width: float) -> float:
    """How wide `tokens` draws these seats' tokens within `width`."""
    return (len(seats) - 1) * _token_step(len(seats), width) + 2 * lay.TOKEN_RADIUS if seats else 0


def tokens(canvas: Canvas, left: float, cy: float, width: float, seats: list[int], where: str) -> None:
    """A row of tokens from `left`, overlapping when there are more than the width holds."""
    step = _token_step(len(seats), width)
    for i, seat in enumerate(seats):
        token(canvas, left + lay.TOKEN_RADIUS + i * step, cy, seat, where)


LABEL = lay.BODY - 2


def label_width(text: str) -> float:
    """How wide `label` draws `text` when it has room."""
    return fonts.font(LABEL, bold=True).getlength(fonts.clean(text, bold=True)) + 12


def label(canvas: Canvas, x: float, cy: float, text: str, colour: Colour, width: float, left: bool = False) -> float:
    """A short text on a coloured background, ending at `x` (starting there if `left`), at most `width` wide;
    returns its other edge."""
    face = fonts.font(LABEL, bold=True)
    shown = fonts.fit(text, face, width - 12)
    size = face.getlength(shown) + 12
    start = x if left else x - size
    canvas.draw.rounded_rectangle((start, cy - 14, start + size, cy + 14), radius=6, fill=colour)
    canvas.text((start + 6, cy), shown, face, lay.WHITE, width - 12, "lm")
    return start + size if left else start


def heart(canvas: Canvas, x: float, y: float, size: float, filled: bool) -> None:
    """A heart in the box (x, y, size, size): red when it counts, pale when lost."""
    fill = lay.RED if filled else lay.LOST_HEART
    r = size / 4
    for left in (x, x + size / 2):
        canvas.draw.ellipse((left, y, left + size / 2, y + r * 2.2), fill=fill)
    canvas.draw.polygon([(x + 0.5, y + r * 1.3), (x + size / 2, y + size), (x + size - 0.5, y + r * 1.3)], fill=fill)


def sword(canvas: Canvas, tip: tuple[float, float], pommel: tuple[float, float], colour: Colour) -> None:
    """A sword from its tip to its pommel: blade, cross-guard and grip."""
    (x1, y1), (x2, y2) = tip, pommel
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length  # along the sword, tip to pommel
    px, py = -uy, ux  # across
    guard = 0.7 * length
    gx, gy = x1 + ux * guard, y1 + uy * guard
    half = length * 0.09
    outline = lay.INK if colour != lay.BLACK else lay.MUTED
    blade = [(x1, y1), (gx + px * half, gy + py * half), (gx - px * half, gy - py * half)]
    canvas.draw.polygon(blade, fill=colour, outline=outline, width=1)
    cross = length * 0.22
    canvas.draw.line((gx + px * cross, gy + py * cross, gx - px * cross, gy - py * cross), fill=outline, width=4)
    canvas.draw.line((gx, gy, x2, y2), fill=outline, width=4)


def engine(canvas: Canvas, cx: float, cy: float, filled: bool) -> None:
    """A siege engine (a catapult seen from above: a square frame with its arm), or its empty place."""
    h = lay.ENGINE_SIZE / 2
    if filled:
        canvas.draw.rectangle((cx - h, cy - h, cx + h, cy + h), fill=lay.ENGINE, outline=lay.INK, width=2)
        canvas.draw.line((cx - h + 4, cy + h - 4, cx + h - 4, cy - h + 4), fill=lay.PANEL, width=3)
    else:
        canvas.draw.rectangle((cx - h + 3, cy - h + 3, cx + h - 3, cy + h - 3), outline=lay.FAINT, width=2)


def card(canvas: Canvas, box: tuple[float, float, float, float], label: str, fill: Colour | None, ink: Colour) -> None:
    """A card on a quest (filled) or its free spot (outline only), with its value."""
    outline = lay.INK if fill is not None else lay.FAINT
    canvas.draw.rounded_rectangle(box, radius=5, fill=fill, outline=outline, width=2)
    if label:
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        canvas.text(centre, label, fonts.font(lay.BODY, bold=True), ink, anchor="mm")


def cup(canvas: Canvas, cx: float, cy: float, size: float, colour: Colour) -> None:
    """The Holy Grail: a bowl on a stem."""
    s = size / 2
    canvas.draw.chord((cx - s, cy - s * 1.4, cx + s, cy + s * 0.4), 0, 180, fill=colour, outline=lay.INK, width=2)
    canvas.draw.rectangle((cx - s * 0.12, cy - s * 0.5 + s * 0.4, cx + s * 0.12, cy + s * 0.6), fill=lay.INK)
    canvas.draw.rectangle((cx - s * 0.5, cy + s * 0.6, cx + s * 0.5, cy + s * 0.8), fill=colour, outline=lay.INK)


def shield(canvas: Canvas, cx: float, cy: float, size: float, colour: Colour) -> None:
    """Lancelot's Armor: a shield."""
    s = size / 2
    points = [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)]
    canvas.draw.polygon(points, fill=colour, outline=lay.INK, width=2)


def relic(canvas: Canvas, name: str, cx: float, cy: float, size: float) -> None:
    """A relic a knight holds, as its icon on a golden disc."""
    r = size / 2 + 3
    canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(246, 226, 160), outline=lay.GOLD, width=2)
    size *= 0.8
    if name == "grail":
        cup(canvas, cx, cy, size, lay.GOLD)
    elif name == "armor":
        shield(canvas, cx, cy, size, (150, 160, 180))
    else:  # Excalibur
        sword(canvas, (cx, cy + size / 2), (cx, cy - size / 2), (200, 210, 225))


def warrior(canvas: Canvas, cx: float, cy: float, size: float, filled: bool) -> None:
    """A Pict or Saxon figure (a head over shoulders), or its empty place."""
    s = size / 2
    fill = lay.BLACK if filled else None
    outline = lay.INK if filled else lay.FAINT
    canvas.draw.ellipse((cx - s * 0.4, cy - s, cx + s * 0.4, cy - s * 0.2), fill=fill, outline=outline, width=2)
    canvas.draw.polygon(
        [(cx - s * 0.8, cy + s), (cx, cy - s * 0.15), (cx + s * 0.8, cy + s)], fill=fill, outline=outline, width=2
    )


DECK_CARD = (20, 28)


def deck_width(count: int) -> float:
    """How wide `deck` draws a deck with this count."""
    return DECK_CARD[0] + 12 + fonts.font(lay.BODY, bold=True).getlength(str(count))


def deck(canvas: Canvas, x: float, y: float, colour: Colour, count: int, ink: Colour = lay.INK) -> float:
    """A face-down deck (two offset cards) with its count to the right; returns the right edge."""
    w, h = DECK_CARD
    for dx in (4, 0):
        canvas.draw.rounded_rectangle(
            (x + dx, y - dx, x + dx + w, y - dx + h), radius=3, fill=colour, outline=lay.INK, width=2
        )
    box = canvas.text((x + w + 12, y + h / 2 - 2), str(count), fonts.font(lay.BODY, bold=True), ink, anchor="lm")
    return box[2]


def lattice(canvas: Canvas, box: tuple[float, float, float, float], fill: Colour, line: Colour) -> None:
    """A card's back: diagonal lines both ways inside `box` (drawn on a tile, so none strays outside)."""
    left, top, right, bottom = (int(v) for v in box)
    w, h = right - left, bottom - top
    tile = Image.new("RGB", (w, h), fill)
    draw = ImageDraw.Draw(tile)
    for d in range(-h, w, 28):
        draw.line((d, 0, d + h, h), fill=line, width=2)
        draw.line((d, h, d + h, 0), fill=line, width=2)
    canvas.image.paste(tile, (left, top))


def emblem(canvas: Canvas, kind: str, cx: float, cy: float, size: float) -> None:
    """A big sign for a card that is not a quest card: Merlin's star, Morgan's crescent moon, else a shield."""
    s = size / 2
    if kind == "merlin":
        points = [
            (
                cx + (s if i % 2 == 0 else s * 0.42) * math.cos(math.radians(-90 + 36 * i)),
                cy + (s if i % 2 == 0 else s * 0.42) * math.sin(math.radians(-90 + 36 * i)),
            )
            for i in range(10)
        ]
        canvas.draw.polygon(points, fill=lay.WHITE)
    elif kind == "morgan":
        canvas.draw.ellipse((cx - s, cy - s, cx + s, cy + s), fill=lay.WHITE)
        canvas.draw.ellipse(
            (cx - s * 0.55, cy - s * 1.05, cx + s * 1.25, cy + s * 0.75), fill=lay.CARD_COLOURS["morgan"]
        )
    else:
        shield(canvas, cx, cy, size * 0.8, lay.WHITE)
