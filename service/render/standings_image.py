"""A tournament's standings and podium as pictures (PNG bytes), posted with their texts
(`service.play.tournament_show`). The drawing lives in `service/render/pictures/standings.py`; it reads the
standings' public rows only."""

from __future__ import annotations

from collections.abc import Sequence

from service.render.pictures import standings as drawing
from service.render.tournaments import Row


def standings(lang: str | None, tournament_id: int, after_round: int, rows: Sequence[Row]) -> bytes:
    return drawing.standings(lang, tournament_id, after_round, rows).png()


def podium(lang: str | None, tournament_id: int, reason: str, rows: Sequence[Row]) -> bytes:
    return drawing.podium(lang, tournament_id, reason, rows).png()
