"""A picture of the board (PNG bytes) drawn with Pillow from the PUBLIC view only, for chats where it reads better.

Board game: the sword track (16 places), the siege engines around Camelot (12), each quest's state, the knights.
Card game: the top Threat card, large, and the swords. Pillow's bundled font is used, so no font file is needed.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.board import catalogue as cat
from engine.cards import catalogue as cards_cat
from service.render import names as nm
from service.render.i18n import t

WIDTH = 720
PARCHMENT = (244, 236, 214)
INK = (40, 32, 24)
WHITE, BLACK, GREY, RED, GOLD = (255, 255, 255), (20, 20, 20), (170, 160, 140), (170, 30, 30), (200, 160, 40)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans when the system has it (all the catalogs' letters: ř, ș, ł…), else Pillow's bundled font."""
    try:
        return ImageFont.truetype("DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size=size)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def _track(draw: ImageDraw.ImageDraw, x: int, y: int, filled: list[tuple[int, int, int]], total: int, size: int = 22):
    """`total` slots left to right; the first ones drawn in the given colours, the rest empty."""
    for i in range(total):
        box = (x + i * (size + 4), y, x + i * (size + 4) + size, y + size)
        if i < len(filled):
            draw.rectangle(box, fill=filled[i], outline=INK)
        else:
            draw.rectangle(box, outline=GREY)


def render(game_name: str, view: dict[str, Any], lang: str, names: dict[int, str]) -> bytes:
    """PNG bytes of the public board. `view` must be `game.view(state, None)`."""
    if "you" in view:
        raise ValueError("board images are drawn from the public view only")
    return _board(view, lang, names) if game_name == "board" else _cards(view, lang)


def _board(view: dict[str, Any], lang: str, names: dict[int, str]) -> bytes:
    seats = view["seats"]
    height = 250 + 34 * len(cat.QUESTS) + 28 * len(seats)
    image = Image.new("RGB", (WIDTH, height), PARCHMENT)
    draw = ImageDraw.Draw(image)
    big, small = _font(24), _font(17)
    draw.text((20, 14), t(lang, "board.title", turn=view.get("turn", 0)).lstrip("⚔ "), font=big, fill=INK)
    swords = view["swords"]
    draw.text((20, 56), t(lang, "image.swords"), font=small, fill=INK)
    _track(draw, 170, 54, [WHITE] * swords["white"] + [BLACK] * swords["black"], cat.MAX_SWORDS)
    draw.text((20, 92), t(lang, "image.siege_engines"), font=small, fill=INK)
    _track(draw, 170, 90, [RED] * view["siege_engines"], cat.MAX_ENGINES)
    y = 136
    for quest in cat.QUESTS:
        q = view["quests"][quest]
        draw.text((20, y), nm.quest(lang, "board", quest), font=small, fill=INK if q.get("open", True) else GREY)
        if quest == "dragon" and view["quests"]["lancelot"].get("open"):
            pass  # the Dragon's turn comes after Lancelot's
        elif not q.get("open", True):
            draw.line((20, y + 10, 160, y + 10), fill=GREY, width=2)
        elif quest == "excalibur":
            _track(draw, 170, y, [GOLD] * q["position"], q["win"], size=16)
        elif quest == "grail":
            colour = {"grail": GOLD, None: PARCHMENT}
            _track(draw, 170, y, [colour.get(spot, BLACK) for spot in q["spots"]], len(q["spots"]), size=16)
        elif quest in cat.WARS:
            _track(draw, 170, y, [WHITE] * len(q["white"]), len(cat.WAR_RUN), size=16)
            _track(draw, 320, y, [BLACK] * q["figures"], cat.WAR_FIGURES, size=16)
        else:
            _track(draw, 170, y, [WHITE] * len(q["white"]), sum(cat.FIGHT_PATTERN[quest]), size=16)
            _track(draw, 360, y, [BLACK] * len(q["black"]), cat.BLACK_SPOTS[quest], size=16)
        present = ", ".join(names.get(s, f"#{s + 1}") for s in q.get("knights", []))
        draw.text((500, y), present, font=small, fill=INK)
        y += 34
    y += 10
    for s in seats:
        name = names.get(s["seat"], f"#{s['seat'] + 1}")
        knight = nm.knight(lang, "board", s["knight"])
        where = nm.quest(lang, "board", s["location"])
        colour = GREY if not s.get("alive", True) or s.get("revealed") else INK
        draw.text((20, y), f"{name} · {knight} · {where}", font=small, fill=colour)
        if s.get("alive", True) and not s.get("revealed"):
            _track(draw, 520, y, [RED] * s["life"], cat.MAX_LIFE, size=14)
        y += 28
    return _png(image)


def _cards(view: dict[str, Any], lang: str) -> bytes:
    image = Image.new("RGB", (WIDTH, 300), PARCHMENT)
    draw = ImageDraw.Draw(image)
    big, huge, small = _font(24), _font(40), _font(17)
    draw.text((20, 14), t(lang, "cards.title", turn=view.get("turn", 0)).lstrip("🗡 "), font=big, fill=INK)
    top = view.get("threat_top")
    card = nm.cards_card(lang, top) if top else t(lang, "cards.threat.empty")
    draw.rounded_rectangle((20, 60, 380, 250), radius=16, fill=WHITE, outline=INK, width=3)
    draw.text((40, 130), card, font=huge if len(card) < 14 else big, fill=INK)
    swords = view["swords"]
    draw.text((410, 70), t(lang, "image.swords"), font=small, fill=INK)
    places = max(cards_cat.END_SWORDS, swords["white"], swords["black"])  # the game ends at 7 of a colour
    _track(draw, 410, 100, [WHITE] * swords["white"], places, size=26)
    _track(draw, 410, 140, [BLACK] * swords["black"], places, size=26)
    if view.get("silence"):
        draw.text((410, 200), t(lang, "image.silence"), font=big, fill=RED)
    return _png(image)
