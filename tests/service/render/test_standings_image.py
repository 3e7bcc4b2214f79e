"""A tournament's standings and podium as pictures (`service.render.pictures.standings`): every row drawn in rank
order with its name, points and tiebreaks, the first three in medal colours, inside the picture; the podium's
three steps, the tallest for the first; in every language."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
from PIL import Image

from service.render import standings_image
from service.render.i18n import available_languages
from service.render.pictures import standings as drawing
from service.render.tournaments import points


@dataclass(frozen=True)
class Line:
    name: str
    points: float
    merit: float
    opponents: float
    withdrawn: bool = False


ROWS = [
    Line("Ann", 2, 0.4, 3),
    Line("Ben", 1.5, -0.1, 2.5),
    Line("Cid", 1, 0, 2),
    Line("Dee", 1, -0.2, 1, True),
    Line("Eve", 0, -1, 1),
]


def _inside(canvas) -> bool:
    return all(
        x0 >= 0 and y0 >= 0 and x1 <= canvas.width and y1 <= canvas.height
        for x0, y0, x1, y1 in (p.box for p in canvas.texts)
    )


@pytest.mark.parametrize("lang", sorted(available_languages()))
def test_the_standings_show_every_row_in_rank_order(lang):
    canvas = drawing.standings(lang, 12, 2, ROWS)
    said = [p.text for p in canvas.texts]
    names = [text for text in said if text.split(" · ")[0] in {r.name for r in ROWS}]
    assert [n.split(" · ")[0] for n in names] == [r.name for r in ROWS]  # in rank order
    assert [m.key for m in canvas.marks if m.kind == "rank"] == ["1", "2", "3", "4", "5"]
    assert points(lang, 1.5) in said and _inside(canvas)
    assert "#12" in said[0] and "📊" not in said[0]  # the title, its emoji left out


def test_a_large_field_shows_its_first_rows_and_how_many_more():
    many = [Line(f"P{i}", 0, 0, 0) for i in range(drawing.MAX_ROWS + 5)]
    canvas = drawing.standings("en", 1, 1, many)
    assert len([m for m in canvas.marks if m.kind == "row"]) == drawing.MAX_ROWS and "+5" in [
        p.text for p in canvas.texts
    ]


@pytest.mark.parametrize("lang", sorted(available_languages()))
def test_the_podium_has_the_first_three_on_their_steps(lang):
    canvas = drawing.podium(lang, 12, "rounds", ROWS)
    steps = {m.key: m.box for m in canvas.marks if m.kind == "step"}
    assert set(steps) == {"1", "2", "3"}
    assert steps["1"][1] < steps["2"][1] < steps["3"][1]  # the first's step is the tallest
    assert steps["2"][0] < steps["1"][0] < steps["3"][0]  # second left, first in the middle, third right
    said = [p.text for p in canvas.texts]
    assert {"Ann", "Ben", "Cid"} <= set(said) and "Dee" not in said and _inside(canvas)


def test_fewer_than_three_stand_on_fewer_steps():
    assert len([m for m in drawing.podium("en", 3, "winner", ROWS[:2]).marks if m.kind == "step"]) == 2


def test_the_pictures_are_pngs():
    for data in (standings_image.standings("en", 1, 1, ROWS), standings_image.podium("en", 1, "rounds", ROWS)):
        with Image.open(io.BytesIO(data)) as image:
            assert image.format == "PNG" and image.size[0] == 720
