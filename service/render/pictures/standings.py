"""A tournament's standings and its final podium as pictures, drawn from the standings' public rows only (names,
points, merit, opponents' points): the rows the text standings list, with the first three marked in gold, silver
and bronze, and the podium's three steps.

The texts come from the catalogue (`tournament.*`), their emoji left out where the font cannot draw them.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.render.i18n import t
from service.render.pictures import fonts
from service.render.pictures import layout as lay
from service.render.pictures.canvas import Canvas, Colour
from service.render.tournaments import Row, points, signed

MEDAL_COLOURS: tuple[Colour, ...] = ((214, 168, 40), (168, 172, 180), (176, 112, 60))  # gold, silver, bronze
TITLE_BAND = 56
ROW = 66
ROW_GAP = 6
DISC = 20  # a rank's disc radius
MAX_ROWS = 40  # a larger field shows its first rows and says how many more there are
STEP_WIDTH = 200
STEP_HEIGHTS = (170, 130, 100)  # the first, second and third places' steps
PODIUM_TOP = 140  # where the tallest step's top is drawn, under the names


def _band(canvas: Canvas, text: str, subtitle: str | None = None) -> None:
    """The dark title band across the top, and an optional line under it."""
    left, right = lay.MARGIN, lay.WIDTH - lay.MARGIN
    canvas.draw.rounded_rectangle((left, lay.MARGIN, right, lay.MARGIN + TITLE_BAND), radius=8, fill=lay.INK)
    face = fonts.largest(text, right - left - 24, (lay.TITLE, 26, lay.HEAD), bold=True)
    canvas.text(((left + right) / 2, lay.MARGIN + TITLE_BAND / 2), text, face, lay.WHITE, right - left - 24, "mm")
    if subtitle:
        y = lay.MARGIN + TITLE_BAND + 22
        canvas.text(((left + right) / 2, y), subtitle, fonts.font(lay.BODY), lay.MUTED, right - left, "mm")


def _disc(canvas: Canvas, cx: float, cy: float, rank: int, radius: float = DISC) -> None:
    """The rank in a disc: gold, silver, bronze for the first three, stone after."""
    colour = MEDAL_COLOURS[rank - 1] if rank <= len(MEDAL_COLOURS) else lay.STONE
    canvas.draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour, outline=lay.WHITE, width=2)
    canvas.text((cx, cy), str(rank), fonts.font(lay.TOKEN, bold=True), lay.WHITE, anchor="mm")
    canvas.mark("rank", rank, (cx - radius, cy - radius, cx + radius, cy + radius))


def standings(lang: str | None, tournament_id: int, after_round: int, rows: Sequence[Row]) -> Canvas:
    """The standings after round `after_round`, best first: rank, name, points, and the tiebreaks under the name."""
    shown = list(rows[:MAX_ROWS])
    more = len(rows) - len(shown)
    top = lay.MARGIN + TITLE_BAND + 2 * lay.GAP
    height = top + len(shown) * (ROW + ROW_GAP) + (ROW if more else 0) + lay.MARGIN
    canvas = Canvas(lay.WIDTH, height, lay.BACKGROUND)
    _band(canvas, t(lang, "tournament.standings.title", id=tournament_id, round=after_round))
    left, right = lay.MARGIN, lay.WIDTH - lay.MARGIN
    for rank, row in enumerate(shown, start=1):
        y = top + (rank - 1) * (ROW + ROW_GAP)
        fill = lay.PANEL if rank % 2 else lay.WHITE
        canvas.draw.rounded_rectangle((left, y, right, y + ROW), radius=8, fill=fill)
        _disc(canvas, left + 14 + DISC, y + ROW / 2, rank)
        figure = points(lang, row.points)
        points_box = canvas.text(
            (right - 16, y + ROW / 2), figure, fonts.font(lay.TITLE, bold=True), lay.INK, anchor="rm"
        )
        name_left = left + 28 + 2 * DISC
        room = points_box[0] - name_left - 16
        name = row.name + (f" · {t(lang, 'tournament.standings.withdrawn')}" if row.withdrawn else "")
        canvas.text(
            (name_left, y + 7), name, fonts.font(lay.NAME, bold=True), lay.MUTED if row.withdrawn else lay.INK, room
        )
        detail = t(
            lang, "tournament.picture.detail", merit=signed(lang, row.merit), opponents=points(lang, row.opponents)
        )
        canvas.text((name_left, y + ROW - 10), detail, fonts.font(lay.BODY - 4), lay.MUTED, room, "lb")
        canvas.mark("row", rank, (left, y, right, y + ROW))
    if more:
        y = top + len(shown) * (ROW + ROW_GAP) + ROW / 2
        canvas.text((lay.WIDTH / 2, y), f"+{more}", fonts.font(lay.NAME, bold=True), lay.MUTED, anchor="mm")
    return canvas


def podium(lang: str | None, tournament_id: int, reason: str, rows: Sequence[Row]) -> Canvas:
    """The final podium: the first three on their steps (second left, first in the middle, third right), their
    points on the step, and why the tournament ended."""
    height = PODIUM_TOP + STEP_HEIGHTS[0] + lay.MARGIN
    canvas = Canvas(lay.WIDTH, height, lay.BACKGROUND)
    _band(canvas, t(lang, "tournament.podium.title", id=tournament_id), t(lang, f"tournament.over.{reason}"))
    bottom = PODIUM_TOP + STEP_HEIGHTS[0]
    centre = lay.WIDTH / 2
    places = {1: centre, 2: centre - STEP_WIDTH - lay.GAP, 3: centre + STEP_WIDTH + lay.GAP}
    for rank, row in enumerate(rows[:3], start=1):
        x = places[rank]
        top = bottom - STEP_HEIGHTS[rank - 1]
        box = (x - STEP_WIDTH / 2, top, x + STEP_WIDTH / 2, bottom)
        canvas.draw.rounded_rectangle(box, radius=6, fill=MEDAL_COLOURS[rank - 1])
        canvas.mark("step", rank, box)
        _disc(canvas, x, top + 30, rank)
        canvas.text(
            (x, top + 72), points(lang, row.points), fonts.font(lay.TITLE, bold=True), lay.WHITE, STEP_WIDTH - 16, "mm"
        )
        canvas.text((x, top - 18), row.name, fonts.font(lay.NAME, bold=True), lay.INK, STEP_WIDTH, "mm")
    return canvas
