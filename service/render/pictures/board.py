"""The board game's picture: Camelot and the Round Table in the middle, the quests around, then the knights.

Drawn from the public view only (`engine/board/views.py`): the swords on the Round Table, the siege engines
around Camelot's walls, each quest's cards and knights, and one card per seat with the player's name, knight,
where he is, life, relics and white cards in hand (a number: the cards are secret).
"""

from __future__ import annotations

import math
from typing import Any

from engine.board import catalogue as cat
from service.render import names as nm
from service.render.i18n import t
from service.render.pictures import banner, fonts, pieces, quests
from service.render.pictures import layout as lay
from service.render.pictures.canvas import Canvas

View = dict[str, Any]


def height(view: View) -> int:
    rows = math.ceil(len(view.get("seats") or []) / 2)
    return lay.SEATS_TOP + rows * (lay.SEAT_CARD[1] + lay.GAP) + lay.MARGIN - lay.GAP


def draw(view: View, lang: str, names: dict[int, str]) -> Canvas:
    canvas = Canvas(lay.WIDTH, height(view), lay.BACKGROUND)
    banner.heading(canvas, "board", view, lang, names)
    _counters(canvas, view)
    quests.draw_all(canvas, view, lang)
    _camelot(canvas, view, lang)
    for index, seat in enumerate(view.get("seats") or []):
        _seat(canvas, int(seat.get("seat", index)), seat, view, lang, names)
    return canvas


def _counters(canvas: Canvas, view: View) -> None:
    """Swords (white, black, of 12), siege engines (of 12) and the two decks, as icons with numbers."""
    y = 78
    swords = view.get("swords") or {}
    face = fonts.font(lay.HEAD, bold=True)
    x = float(lay.MARGIN + 4)
    for colour, count in ((lay.WHITE, swords.get("white", 0)), (lay.BLACK, swords.get("black", 0))):
        pieces.sword(canvas, (x + 8, y + 19), (x + 8, y - 19), colour)
        x = canvas.text((x + 22, y), str(count), face, lay.INK, anchor="lm")[2] + 14
    x = canvas.text((x - 6, y), f"/ {lay.SWORD_PLACES}", fonts.font(lay.BODY), lay.MUTED, anchor="lm")[2] + 28
    pieces.engine(canvas, x + 10, y, True)
    x = canvas.text((x + 28, y), f"{view.get('siege_engines', 0)}", face, lay.INK, anchor="lm")[2]
    canvas.text((x + 6, y), f"/ {lay.ENGINE_PLACES}", fonts.font(lay.BODY), lay.MUTED, anchor="lm")
    decks = view.get("decks") or {}
    right = lay.WIDTH - lay.MARGIN - 4
    for colour, key in ((lay.BLACK, "black"), (lay.WHITE, "white")):
        right -= pieces.deck_width(decks.get(key, 0))
        pieces.deck(canvas, right, y - 12, colour, decks.get(key, 0))
        right -= 22


def _camelot(canvas: Canvas, view: View, lang: str) -> None:
    """Camelot's walls with the siege engines outside, the Round Table with its swords, the knights at it."""
    x, y, w, h = lay.PANELS["camelot"]
    inner = quests.frame(
        canvas, lay.PANELS["camelot"], nm.quest(lang, "board", "camelot"), lay.QUEST_COLOURS["camelot"], False
    )
    canvas.mark("quest", "camelot", (x, y, x + w, y + h))
    cx, cy = x + w / 2, (inner[1] + inner[3]) / 2
    engines = int(view.get("siege_engines") or 0)
    for i in range(max(lay.ENGINE_PLACES, engines)):
        a = math.radians(-90 + (i + 0.5) * 360 / max(lay.ENGINE_PLACES, engines))
        ex, ey = cx + lay.ENGINE_RING * math.cos(a), cy + lay.ENGINE_RING * math.sin(a)
        pieces.engine(canvas, ex, ey, i < engines)
        if i < engines:
            canvas.mark("engine", i, (ex - 11, ey - 11, ex + 11, ey + 11))
    r = lay.WALL_RING
    canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=lay.STONE)
    r = lay.TABLE_RING
    canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=lay.TABLE, outline=lay.INK, width=2)
    swords = view.get("swords") or {}
    colours = [lay.WHITE] * int(swords.get("white", 0)) + [lay.BLACK] * int(swords.get("black", 0))
    places = max(lay.SWORD_PLACES, len(colours))
    tip, pommel = lay.SWORD_RING
    for i in range(places):
        a = math.radians(-90 + i * 360 / places)
        cos, sin = math.cos(a), math.sin(a)
        if i < len(colours):
            pieces.sword(canvas, (cx + tip * cos, cy + tip * sin), (cx + pommel * cos, cy + pommel * sin), colours[i])
            kind = "white" if colours[i] == lay.WHITE else "black"
            canvas.mark(
                "sword", kind, (cx + tip * cos - 4, cy + tip * sin - 4, cx + pommel * cos + 4, cy + pommel * sin + 4)
            )
        else:
            mx, my = cx + (tip + pommel) / 2 * cos, cy + (tip + pommel) / 2 * sin
            canvas.draw.ellipse((mx - 4, my - 4, mx + 4, my + 4), fill=lay.MUTED)
    at_table = [
        s.get("seat", i)
        for i, s in enumerate(view.get("seats") or [])
        if s.get("location") == cat.CAMELOT and s.get("alive", True) and not s.get("revealed")
    ]
    _round(canvas, cx, cy, at_table)


def _round(canvas: Canvas, cx: float, cy: float, seats: list[int]) -> None:
    """Tokens around the table's centre: one in the middle, the others in a ring."""
    if len(seats) == 1:
        pieces.token(canvas, cx, cy, seats[0], cat.CAMELOT)
        return
    ring = lay.CAMELOT_KNIGHTS
    middle, around = (seats[:1], seats[1:]) if len(seats) == 7 else ([], seats)
    for seat in middle:
        pieces.token(canvas, cx, cy, seat, cat.CAMELOT)
    for i, seat in enumerate(around):
        a = math.radians(-90 + i * 360 / len(around))
        pieces.token(canvas, cx + ring * math.cos(a), cy + ring * math.sin(a), seat, cat.CAMELOT)


def _seat(canvas: Canvas, index: int, seat: View, view: View, lang: str, names: dict[int, str]) -> None:
    """A seat's card: token and name; knight and where (or Traitor, dead, loyalty at the end); life, relics, hand."""
    w, h = lay.SEAT_CARD
    x = lay.MARGIN + (index % 2) * (w + lay.GAP)
    y = lay.SEATS_TOP + (index // 2) * (h + lay.GAP)
    alive, revealed = seat.get("alive", True), seat.get("revealed", False)
    current = view.get("current") == index and not view.get("result")
    fill = lay.EVIL_BG if revealed else lay.PANEL if alive else lay.DEAD_BG
    ink = lay.WHITE if revealed else lay.INK
    outline = lay.GOLD if current else pieces.seat_colour(index)
    canvas.draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=10, fill=fill, outline=outline, width=5 if current else 3
    )
    canvas.mark("seat", index, (x, y, x + w, y + h))
    pieces.token(canvas, x + 10 + lay.TOKEN_RADIUS, y + 24, index, "seat")
    name_left = x + 20 + 2 * lay.TOKEN_RADIUS
    canvas.text(
        (name_left, y + 24),
        banner.player(names, index),
        fonts.font(lay.NAME, bold=True),
        ink,
        x + w - 10 - name_left,
        "lm",
    )
    line = f"{nm.knight(lang, 'board', seat.get('knight'))} · {_status(index, seat, view, lang)}"
    canvas.text((x + 12, y + 58), line, fonts.font(lay.BODY), ink, w - 24, "lm")
    if alive and not revealed:  # the dead and a revealed Traitor are out of the quests: no life to show
        life = int(seat.get("life") or 0)
        for i in range(cat.MAX_LIFE):
            pieces.heart(canvas, x + 12 + i * (lay.HEART + 4), y + 78, lay.HEART, i < life)
    right = x + w - 12
    hand = seat.get("hand")
    if isinstance(hand, int) and alive and not revealed:
        right -= pieces.deck_width(hand)
        pieces.deck(canvas, right, y + 76, lay.WHITE, hand)
        right -= 16
    for relic in reversed(seat.get("relics") or []):
        pieces.relic(canvas, relic, right - 14, y + 89, 26)
        canvas.mark("relic", f"{index}:{relic}", (right - 30, y + 73, right + 2, y + 105))
        right -= 38
    hearts_end = x + 12 + cat.MAX_LIFE * (lay.HEART + 4)
    if seat.get("loyalty") == "loyal" and not view.get("result") and alive:  # accused and shown loyal: public
        pieces.label(canvas, right - 4, y + 89, nm.loyalty(lang, "loyal"), lay.LOYAL_BG, right - 4 - hearts_end)


def _status(index: int, seat: View, view: View, lang: str) -> str:
    """Where the knight is, or what became of him: a revealed Traitor, dead; at the end everyone's loyalty."""
    final = (view.get("result") or {}).get("loyalty") or []
    if index < len(final) and final[index]:
        return nm.loyalty(lang, final[index])
    if seat.get("revealed"):
        return nm.loyalty(lang, "traitor")
    if not seat.get("alive", True):
        return t(lang, "image.dead")
    return nm.quest(lang, "board", seat.get("location") or cat.CAMELOT)
