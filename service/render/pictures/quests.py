"""The board game's quests, each in its box around Camelot: the cards on it, its progress and the knights there.

Everything comes from the public view's `quests` (documented in `engine/board/views.py`); a key a newer or
older engine lacks draws as absent, never as an error.
"""

from __future__ import annotations

from typing import Any

from engine.board import catalogue as cat
from service.render import names as nm
from service.render.i18n import t
from service.render.pictures import fonts, pieces
from service.render.pictures import layout as lay
from service.render.pictures.canvas import Box, Canvas, Colour

View = dict[str, Any]
TOKEN_ROW = 2 * lay.TOKEN_RADIUS + 8  # height of the row of knights' tokens at a panel's foot
TAG_ROW = 34  # height of a row of labels above it


def frame(canvas: Canvas, box: tuple[int, int, int, int], title: str, colour: Colour, closed: bool) -> Box:
    """A panel with its title band; returns the inner box (left, top, right, bottom) below the band."""
    x, y, w, h = box
    band = lay.CLOSED if closed else colour
    canvas.draw.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=lay.PANEL, outline=band, width=3)
    canvas.draw.rounded_rectangle((x, y, x + w, y + lay.BAND), radius=10, fill=band, corners=(True, True, False, False))
    canvas.text((x + w / 2, y + lay.BAND / 2), title, fonts.font(lay.HEAD, bold=True), lay.WHITE, w - 16, "mm")
    return (x + 8, y + lay.BAND + 8, x + w - 8, y + h - 8)


def _slots(canvas: Canvas, inner: Box, top: float, labels: list[str], total: int, fill: Colour, ink: Colour) -> float:
    """`total` card spots in rows, the first ones holding cards with `labels`; returns the bottom of the last row."""
    w, h = lay.SLOT
    per_row = lay.SLOTS_PER_ROW
    count = max(total, len(labels))
    y = top
    for row_start in range(0, count, per_row):
        n = min(per_row, count - row_start)
        left = (inner[0] + inner[2]) / 2 - (n * w + (n - 1) * lay.SLOT_GAP) / 2
        for i in range(n):
            index = row_start + i
            x = left + i * (w + lay.SLOT_GAP)
            if index < len(labels):
                pieces.card(canvas, (x, y, x + w, y + h), labels[index], fill, ink)
                canvas.mark("card", index, (x, y, x + w, y + h))
            else:
                pieces.card(canvas, (x, y, x + w, y + h), "", None, lay.FAINT)
        y += h + lay.SLOT_GAP
    return y - lay.SLOT_GAP


def _white_label(card: str) -> str:
    return str(cat.FIGHT_VALUE[card]) if card in cat.FIGHT_VALUE else "•"


def _black_label(card: str, side: str) -> str:
    if card in cat.BLACK_KNIGHT_VALUE:
        return str(cat.BLACK_KNIGHT_VALUE[card])
    if card in cat.LANCELOT_VALUE:
        return str(cat.LANCELOT_VALUE[card][1 if side == "dragon" else 0])
    return "?" if card == "hidden" else "•"


def _fight(canvas: Canvas, quest: str, q: View, inner: Box) -> float:
    whites = [_white_label(c) for c in q.get("white") or []]
    blacks = [_black_label(c, quest) for c in q.get("black") or []]
    bottom = _slots(canvas, inner, inner[1], whites, sum(cat.FIGHT_PATTERN[quest]), lay.WHITE, lay.INK)
    return _slots(canvas, inner, bottom + 12, blacks, cat.BLACK_SPOTS[quest], lay.BLACK, lay.WHITE)


def _war(canvas: Canvas, q: View, inner: Box) -> None:
    run = [*cat.WAR_RUN, cat.MORDRED_EXTRA] if q.get("mordred") else list(cat.WAR_RUN)
    played = [_white_label(c) for c in q.get("white") or []]
    w, h = lay.SLOT
    n = len(run)
    gap = min(lay.SLOT_GAP, (inner[2] - inner[0] - n * w) / max(1, n - 1))
    left = (inner[0] + inner[2]) / 2 - (n * w + (n - 1) * gap) / 2
    for i, needed in enumerate(run):
        x = left + i * (w + gap)
        box = (x, inner[1], x + w, inner[1] + h)
        if i < len(played):
            pieces.card(canvas, box, played[i], lay.WHITE, lay.INK)
            canvas.mark("card", i, box)
        else:
            pieces.card(canvas, box, str(needed), None, lay.FAINT)  # the value the run needs there, pale
    figures = int(q.get("figures") or 0)
    size = 40
    step = (inner[2] - inner[0]) / cat.WAR_FIGURES
    for i in range(cat.WAR_FIGURES):
        cx = inner[0] + step * (i + 0.5)
        pieces.warrior(canvas, cx, inner[1] + h + 26 + size / 2, size, i < figures)
        if i < figures:
            canvas.mark("figure", i, (cx - size / 2, inner[1] + h + 26, cx + size / 2, inner[1] + h + 26 + size))


GRAIL_SPOT_COLOURS = {"grail": lay.GOLD, "despair": lay.BLACK, "desolation": (70, 30, 80)}


def _grail(canvas: Canvas, q: View, inner: Box) -> None:
    spots = list(q.get("spots") or [None] * cat.GRAIL_SPOTS)
    cx = (inner[0] + inner[2]) / 2
    pieces.cup(canvas, cx, inner[1] + 16, 30, lay.GOLD if q.get("open", True) else lay.CLOSED)
    top = inner[1] + 40
    height = (inner[3] - top - 6) / max(1, len(spots))
    for i, spot in enumerate(spots):  # from the relic outwards
        box = (cx - 60, top + i * height, cx + 60, top + (i + 1) * height - 4)
        colour = GRAIL_SPOT_COLOURS.get(spot) if spot else None
        canvas.draw.rounded_rectangle(box, radius=5, fill=colour, outline=lay.INK if colour else lay.FAINT, width=2)
        if spot:
            canvas.mark("card", f"{i}:{spot}", box)


def _excalibur(canvas: Canvas, q: View, inner: Box) -> None:
    win = int(q.get("win") or cat.EXCALIBUR_WIN)
    position = int(q.get("position") or 0)
    left, right = inner[0] + 20, inner[2] - 20
    cy = inner[1] + 22
    step = (right - left) / win
    canvas.draw.line((left, cy, right, cy), fill=lay.FAINT, width=4)
    for i in range(win + 1):
        x = left + i * step
        r = 16 if i == position else 9
        fill = lay.BLACK if i == 0 else lay.GOLD if i == win else lay.PANEL
        if i == position:
            fill = (200, 214, 236)
        canvas.draw.ellipse((x - r, cy - r, x + r, cy + r), fill=fill, outline=lay.INK, width=2)
    x = left + position * step
    pieces.sword(canvas, (x, cy + 13), (x, cy - 13), lay.WHITE)
    canvas.mark("excalibur", position, (x - 16, cy - 16, x + 16, cy + 16))


def _side(quests: View) -> str:
    """Lancelot and the Dragon are one board: the Dragon's side once Lancelot's quest is over."""
    return "lancelot" if (quests.get("lancelot") or {}).get("open") else "dragon"


def _notes(view: View, q: View, quest: str, lang: str) -> list[tuple[str, Colour]]:
    """Labels on a quest: over, and the special cards lying on it (Heroism, Mordred, the Dark Forest)."""
    notes = [(t(lang, "image.over"), lay.MUTED)] if not q.get("open", True) else []
    cards = (
        ("heroism", view.get("heroism") == quest),
        ("mordred", q.get("mordred")),
        ("dark_forest", q.get("dark_forest")),
    )
    notes += [(nm.board_card(lang, card), lay.QUEST_COLOURS["camelot"]) for card, shown in cards if shown]
    return notes


def _rows(notes: list[tuple[str, Colour]], first: float, width: float) -> list[list[tuple[str, Colour]]]:
    """Labels in right-aligned rows: the first row shares the foot with the knights (`first` pixels are free
    there), the next rows go above it."""
    rows: list[list[tuple[str, Colour]]] = [[]]
    room = first
    for note in notes:
        need = pieces.label_width(note[0]) + 4
        if need > room and (rows[-1] or room < width):
            rows.append([])
            room = width
        rows[-1].append(note)
        room -= need
    return rows


def _next_side(canvas: Canvas, lang: str, room: Box) -> None:
    """ "Dragon: after Lancelot" at the foot of `room`, in as many lines (up to two) as fit there."""
    face = fonts.font(lay.BODY - 2)
    line_height = lay.BODY + 2
    lines = max(0, min(2, int((room[3] - room[1]) // line_height)))
    later = t(lang, "board.quest.after_lancelot", quest=nm.quest(lang, "board", "dragon"))
    for i, line in enumerate(reversed(fonts.wrap(later, face, room[2] - room[0], lines))):
        canvas.text((room[0], room[3] - 4 - i * line_height), line, face, lay.MUTED, None, "ld")
    if lines:
        canvas.mark("quest", "dragon", (room[0], room[3] - lines * line_height, room[2], room[3]))


def draw(canvas: Canvas, quest: str, view: View, lang: str) -> None:
    """One quest's panel in its place on the board: the cards, the labels, the knights at its foot."""
    q = (view.get("quests") or {}).get(quest) or {}
    closed = not q.get("open", True)
    box = lay.PANELS["lancelot" if quest == "dragon" else quest]
    inner = frame(canvas, box, nm.quest(lang, "board", quest), lay.QUEST_COLOURS[quest], closed)
    canvas.mark("quest", quest, (box[0], box[1], box[0] + box[2], box[1] + box[3]))
    knights = list(q.get("knights") or [])
    width = inner[2] - inner[0]
    rows = _rows(_notes(view, q, quest, lang), width - pieces.tokens_width(knights, width) - 8, width)
    foot = inner[3] - TOKEN_ROW / 2
    free = (inner[0], inner[1], inner[2], inner[3] - TOKEN_ROW - (len(rows) - 1) * TAG_ROW)  # above the foot
    if quest in cat.WARS:
        _war(canvas, q, free)
    elif quest == "grail":
        _grail(canvas, q, free)
    elif quest == "excalibur":
        _excalibur(canvas, q, free)
    else:
        bottom = _fight(canvas, quest, q, free)
        if quest == "lancelot" and not closed:
            _next_side(canvas, lang, (free[0], bottom + 4, free[2], free[3]))
    for i, row in enumerate(rows):
        right = inner[2]
        for text, colour in row:
            right = pieces.label(canvas, right, foot - i * TAG_ROW, text, colour, right - inner[0]) - 4
    pieces.tokens(canvas, inner[0], foot, width, knights, quest)


def draw_all(canvas: Canvas, view: View, lang: str) -> None:
    """Every quest's panel; the Lancelot/Dragon board shows the side in play."""
    side = _side(view.get("quests") or {})
    for quest in cat.QUESTS:
        if quest in ("lancelot", "dragon") and quest != side:
            continue
        draw(canvas, quest, view, lang)
