"""The card game's picture: the Threat pile's top card large, the swords, Morgan's silence, the piles, the players.

Drawn from the public view only (`engine/cards/views.py`): only the top Threat card is ever shown (the game is
a memory game: the cards beneath it are not), a face-down card as its back with what its player announced.
"""

from __future__ import annotations

from typing import Any

from engine.cards import catalogue as cat
from service.render import names as nm
from service.render.i18n import t, tn
from service.render.pictures import banner, fonts, pieces
from service.render.pictures import layout as lay
from service.render.pictures.canvas import Canvas

View = dict[str, Any]
KIND_KEYS = {"quest": "quest", "merlin": "merlin", "morgan": "morgan", "mordred": "character", "vivien": "character"}


def _silence_height(view: View) -> int:
    return lay.SILENCE_BANNER + lay.GAP if view.get("silence") else 0


def height(view: View) -> int:
    rows = int(view.get("players") or 0)
    card_bottom = lay.THREAT_CARD[1] + lay.THREAT_CARD[3] + 16
    return card_bottom + _silence_height(view) + rows * (lay.CHIP + lay.GAP) + lay.MARGIN


def draw(view: View, lang: str, names: dict[int, str]) -> Canvas:
    canvas = Canvas(lay.WIDTH, height(view), lay.BACKGROUND)
    banner.heading(canvas, "cards", view, lang, names)
    shift = _silence_height(view)
    if shift:
        _silence(canvas, lang)
    _threat(canvas, view, lang, names, shift)
    bottom = _swords(canvas, view, lang, shift)
    _piles(canvas, view, lang, names, bottom + 16)
    _players(canvas, view, lang, names, lay.THREAT_CARD[1] + lay.THREAT_CARD[3] + 16 + shift)
    return canvas


def _silence(canvas: Canvas, lang: str) -> None:
    """Morgan's silence: a red band across the picture (players may not talk while it holds)."""
    top = lay.CARDS_HEADER
    left, right = lay.MARGIN, lay.WIDTH - lay.MARGIN
    canvas.draw.rounded_rectangle((left, top, right, top + lay.SILENCE_BANNER), radius=10, fill=lay.RED)
    title = canvas.text(
        (left + 16, top + lay.SILENCE_BANNER / 2),
        t(lang, "image.silence"),
        fonts.font(lay.TITLE, bold=True),
        lay.WHITE,
        anchor="lm",
    )
    face = fonts.font(lay.BODY - 2)
    lines = fonts.wrap(t(lang, "cards.silence"), face, right - title[2] - 32, 2)
    middle = top + lay.SILENCE_BANNER / 2 - (len(lines) - 1) * (lay.BODY - 1) / 2
    for i, line in enumerate(lines):
        canvas.text((title[2] + 16, middle + i * (lay.BODY + 2)), line, face, lay.WHITE, None, "lm")
    canvas.mark("silence", "on", (left, top, right, top + lay.SILENCE_BANNER))


def _card_colour(card: str | None) -> tuple[int, int, int]:
    if card is None:
        return lay.CARD_COLOURS["empty"]
    if card == "hidden":
        return lay.CARD_COLOURS["hidden"]
    known = cat.CARDS.get(card)
    if known is None:
        return lay.MUTED
    return lay.QUEST_COLOURS.get(known.quest or "", lay.CARD_COLOURS.get(known.kind, lay.MUTED))


def _threat(canvas: Canvas, view: View, lang: str, names: dict[int, str], shift: int) -> None:
    """The top card of the Threat pile, large, with the edges of the cards beneath it (how many: a number)."""
    x, y, w, h = lay.THREAT_CARD
    y += shift
    card = view.get("threat_top")
    below = max(0, int(view.get("threat_count") or 0) - 1)
    for i in range(min(below, 3), 0, -1):  # the pile's thickness, up to three edges
        canvas.draw.rounded_rectangle(
            (x + 5 * i, y - 5 * i, x + w + 5 * i, y + h - 5 * i), radius=18, fill=lay.PANEL, outline=lay.MUTED, width=2
        )
    colour = _card_colour(card)
    if card is None:
        canvas.draw.rounded_rectangle((x, y, x + w, y + h), radius=18, fill=lay.BACKGROUND, outline=colour, width=4)
        canvas.text(
            (x + w / 2, y + h / 2),
            t(lang, "cards.threat.empty"),
            fonts.font(lay.TITLE, bold=True),
            lay.MUTED,
            w - 24,
            "mm",
        )
        return
    canvas.draw.rounded_rectangle((x, y, x + w, y + h), radius=18, fill=colour, outline=lay.INK, width=3)
    canvas.draw.rounded_rectangle((x + 10, y + 10, x + w - 10, y + h - 10), radius=12, outline=lay.WHITE, width=2)
    canvas.mark("card", card, (x, y, x + w, y + h))
    if card == "hidden":
        _back(canvas, view, lang, names, (x, y, w, h))
        return
    known = cat.CARDS.get(card)
    kind = KIND_KEYS.get(known.kind if known else "", "character")
    canvas.text(
        (x + w / 2, y + 44), t(lang, f"image.kind.{kind}"), fonts.font(lay.HEAD, bold=True), lay.WHITE, w - 40, "mm"
    )
    quest = known is not None and known.kind == "quest"
    title = nm.quest(lang, "cards", known.quest or "") if quest and known else nm.cards_card(lang, card)
    face = fonts.largest(title, w - 40, (44, 38, 32, 28), bold=True)
    canvas.text((x + w / 2, y + 120), title, face, lay.WHITE, w - 40, "mm")
    cx, cy = x + w / 2, y + h / 2 + 60
    if quest and known:
        value = "?" if known.value is None else str(known.value)
        canvas.text((cx, cy), value, fonts.font(160, bold=True), lay.WHITE, w - 40, "mm")
    else:
        pieces.emblem(canvas, known.kind if known else "", cx, cy, 150)


def _back(canvas: Canvas, view: View, lang: str, names: dict[int, str], box: tuple[int, int, int, int]) -> None:
    """A face-down card (Morgan #1): its back, and what the player who laid it announced (it may be a lie)."""
    x, y, w, h = box
    pieces.lattice(canvas, (x + 14, y + 14, x + w - 14, y + h - 14), lay.CARD_COLOURS["hidden"], (110, 88, 64))
    face = fonts.font(lay.HEAD, bold=True)
    canvas.draw.rounded_rectangle((x + 20, y + h / 2 - 70, x + w - 20, y + h / 2 + 70), radius=10, fill=lay.PANEL)
    canvas.text((x + w / 2, y + h / 2 - 40), t(lang, "cards.card.hidden"), face, lay.INK, w - 56, "mm")
    said = view.get("threat_announced")
    if said:
        card = nm.cards_card(lang, f"{said.get('quest')}_{said.get('value')}")
        text = t(lang, "cards.threat.announced", name=banner.player(names, said.get("seat")), card=card)
        for i, line in enumerate(fonts.wrap(text, fonts.font(lay.BODY), w - 56, 2)):
            canvas.text(
                (x + w / 2, y + h / 2 + 4 + i * (lay.BODY + 6)), line, fonts.font(lay.BODY), lay.INK, None, "mm"
            )


def _swords(canvas: Canvas, view: View, lang: str, shift: int) -> float:
    """Two rows of seven places: white and black swords (the game ends at seven of one colour); returns the bottom."""
    x, y = lay.SIDE_LEFT, lay.THREAT_CARD[1] + shift
    width = lay.WIDTH - lay.MARGIN - x
    canvas.text((x, y + 12), t(lang, "image.swords"), fonts.font(lay.HEAD, bold=True), lay.INK, width, "lm")
    swords = view.get("swords") or {}
    y += 40
    step = 38
    for colour, key in ((lay.WHITE, "white"), (lay.BLACK, "black")):
        count = int(swords.get(key, 0))
        places = max(lay.END_SWORD_PLACES, count)
        canvas.draw.rounded_rectangle(
            (x - 6, y - 4, x + 7 * step + 2, y + 52), radius=8, fill=lay.PANEL, outline=lay.FAINT, width=2
        )
        for i in range(places):
            cx = x + 14 + i * step * lay.END_SWORD_PLACES / places
            if i < count:
                pieces.sword(canvas, (cx, y + 46), (cx, y + 2), colour)
                canvas.mark("sword", key, (cx - 8, y + 2, cx + 8, y + 46))
            else:
                canvas.draw.ellipse((cx - 4, y + 20, cx + 4, y + 28), fill=lay.FAINT)
        canvas.text((x + 7 * step + 12, y + 24), str(count), fonts.font(lay.TITLE, bold=True), lay.INK, None, "lm")
        y += 64
    return y


def _piles(canvas: Canvas, view: View, lang: str, names: dict[int, str], top: float) -> None:
    """The cards in the Threat pile, the Rumor deck and its discards, and the Morgans and token in force."""
    x = lay.SIDE_LEFT
    width = lay.WIDTH - lay.MARGIN - x
    face = fonts.font(lay.BODY)
    lines = [tn(lang, "cards.threat.count", int(view.get("threat_count") or 0))]
    lines += fonts.wrap(
        t(lang, "cards.decks", deck=view.get("deck_count", 0), discards=view.get("discard_count", 0)), face, width, 2
    )
    for line in lines:
        canvas.text((x, top), line, face, lay.INK, width, "la")
        top += lay.BODY + 10
    flags = [
        (view.get("morgan1"), nm.cards_card(lang, "morgan_1"), lay.CARD_COLOURS["morgan"]),
        (view.get("morgan2"), nm.cards_card(lang, "morgan_2"), lay.CARD_COLOURS["morgan"]),
        (view.get("merlin4_token"), nm.cards_card(lang, "merlin_4"), lay.CARD_COLOURS["merlin"]),
    ]
    top += 8
    for shown, text, colour in flags:
        if shown:
            pieces.label(canvas, x, top + 16, text, colour, width, left=True)
            top += 40


def _players(canvas: Canvas, view: View, lang: str, names: dict[int, str], top: float) -> None:
    """A row per player: token and name; a revealed Traitor in red, a player shown loyal in green, the player to
    move ringed in gold, and the Knight cards held face down (expert) as a number."""
    loyalty = {r.get("seat"): r.get("loyalty") for r in view.get("revealed") or []}
    final = (view.get("result") or {}).get("loyalty") or []
    held = (view.get("knights") or {}).get("held") or []
    x, w = lay.MARGIN, lay.WIDTH - 2 * lay.MARGIN
    for seat in range(int(view.get("players") or 0)):
        y = top + seat * (lay.CHIP + lay.GAP)
        known = final[seat] if seat < len(final) and final[seat] else loyalty.get(seat)
        fill = lay.EVIL_BG if known == "traitor" else lay.LOYAL_BG if known == "loyal" else lay.PANEL
        ink = lay.INK if fill == lay.PANEL else lay.WHITE
        current = view.get("current") == seat and not view.get("result")
        outline = lay.GOLD if current else pieces.seat_colour(seat)
        canvas.draw.rounded_rectangle(
            (x, y, x + w, y + lay.CHIP), radius=10, fill=fill, outline=outline, width=5 if current else 3
        )
        canvas.mark("seat", seat, (x, y, x + w, y + lay.CHIP))
        pieces.token(canvas, x + 8 + lay.TOKEN_RADIUS, y + lay.CHIP / 2, seat, "seat")
        right = x + w - 12
        if known:
            face = fonts.font(lay.BODY, bold=True)
            right = canvas.text((right, y + lay.CHIP / 2), nm.loyalty(lang, known), face, ink, w / 3, "rm")[0] - 16
        if seat < len(held) and held[seat]:
            right -= pieces.deck_width(held[seat])
            pieces.deck(canvas, right, y + lay.CHIP / 2 - 12, lay.CARD_COLOURS["merlin"], held[seat], ink)
            right -= 16
        left = x + 16 + 2 * lay.TOKEN_RADIUS
        canvas.text(
            (left, y + lay.CHIP / 2),
            banner.player(names, seat),
            fonts.font(lay.NAME, bold=True),
            ink,
            right - left,
            "lm",
        )
