"""The top line of both games' pictures: the turn and whose turn it is, or at the end who won and why."""

from __future__ import annotations

from typing import Any

from service.render import names as nm
from service.render.i18n import has, t
from service.render.pictures import fonts, pieces
from service.render.pictures import layout as lay
from service.render.pictures.canvas import Canvas

View = dict[str, Any]
CENTRE = 28  # the line's vertical centre


def player(names: dict[int, str], seat: object) -> str:
    """A player's name as the font can draw it; `#n` when nothing of it can be drawn (a name of emoji only)."""
    drawable = fonts.clean(nm.seat(names, seat), bold=True)
    return drawable or (f"#{seat + 1}" if isinstance(seat, int) else "?")


def result_text(game: str, view: View, lang: str) -> str:
    """The end in words, from the catalog's result lines (their emoji are left out when drawn)."""
    result = view.get("result") or {}
    winner = result.get("winner")
    text = t(lang, f"result.{winner}") if winner in ("loyal", "evil") else t(lang, "result.none")
    reason = result.get("reason")
    return f"{text} {t(lang, f'{game}.reason.{reason}')}" if reason and has(f"{game}.reason.{reason}") else text


def heading(canvas: Canvas, game: str, view: View, lang: str, names: dict[int, str]) -> None:
    """ "Turn 12" and the token and name of the player to move; at the end a band saying who won."""
    left, right = lay.MARGIN, lay.WIDTH - lay.MARGIN
    if view.get("result"):
        winner = (view["result"] or {}).get("winner")
        colour = lay.LOYAL_BG if winner == "loyal" else lay.EVIL_BG if winner == "evil" else lay.MUTED
        canvas.draw.rounded_rectangle((left, CENTRE - 22, right, CENTRE + 22), radius=8, fill=colour)
        text = result_text(game, view, lang)
        face = fonts.largest(text, right - left - 20, (lay.TITLE, 26, lay.HEAD), bold=True)
        canvas.text(((left + right) / 2, CENTRE), text, face, lay.WHITE, right - left - 20, "mm")
        return
    turn = t(lang, "image.turn", turn=view.get("turn", 0))
    title = canvas.text((left, CENTRE), turn, fonts.font(lay.TITLE, bold=True), lay.INK, anchor="lm")
    current = view.get("current")
    if isinstance(current, int):
        face = fonts.font(lay.NAME, bold=True)
        name = fonts.fit(player(names, current), face, right - title[2] - 3 * lay.TOKEN_RADIUS - 24)
        box = canvas.text((right, CENTRE), name, face, lay.INK, anchor="rm")
        pieces.token(canvas, box[0] - lay.TOKEN_RADIUS - 10, CENTRE, current, "current", ring=lay.GOLD)
