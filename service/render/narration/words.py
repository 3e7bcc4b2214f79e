"""Small pieces every narrated line is made of: who (a seat's name), signed numbers, counted nouns, card lists.

A `Ctx` carries what every line needs: the game, the language, the seats' names and the reader (`viewer`, None for
the group). Counted nouns ("3 cards", "3 karty", "5 karet") are plural catalogue entries `narr.n.<noun>`, so the
line templates themselves never need a plural form.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.core.events import Event
from service.render import names as nm
from service.render.i18n import has, t, tn

MINUS = "−"  # U+2212: reads as a minus sign on phones, where "-" looks like a dash
SWORD_MARK = {"white": "⚪", "black": "⚫"}


@dataclass(frozen=True)
class Ctx:
    """What a line needs besides its event: `game` ("board" or "cards"), `lang`, seat `names`, the reader (`viewer`,
    None for the group), and `hide_threat` (a log read later leaves the card game's Threat cards unnamed)."""

    game: str
    lang: str
    names: dict[int, str]
    viewer: int | None = None
    hide_threat: bool = False


def signed(n: int) -> str:
    """+2, −1, 0: a change, with a real minus sign."""
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def who(ctx: Ctx, seat: Any) -> str:
    """A seat's name; anything that is not a seat number is shown as is."""
    return nm.seat(ctx.names, seat)


def people(ctx: Ctx, seats: Iterable[Any]) -> str:
    return ", ".join(who(ctx, s) for s in seats) or "–"


def counted(ctx: Ctx, noun: str, n: int) -> str:
    """`n` of a noun in the reader's language, e.g. `counted(ctx, "cards", 3)` → "3 cards"."""
    return tn(ctx.lang, f"narr.n.{noun}", n)


def card(ctx: Ctx, card_id: str) -> str:
    """A card's name in this game; `hidden` (a face-down card) has its own word."""
    if ctx.game == "board":
        return nm.board_card(ctx.lang, card_id)
    return nm.cards_card(ctx.lang, card_id)


def cards(ctx: Ctx, card_ids: Iterable[str]) -> str:
    return ", ".join(card(ctx, c) for c in card_ids) or "–"


def quest(ctx: Ctx, quest_id: str) -> str:
    return nm.quest(ctx.lang, ctx.game, quest_id)


def loyalty(ctx: Ctx, value: str | None) -> str:
    return nm.loyalty(ctx.lang, value)


def swords(ctx: Ctx, color: str, n: int) -> str:
    """"⚪ sword", "2 ⚫ swords": swords of one colour."""
    return tn(ctx.lang, f"narr.n.swords_{color}", n)


def key(ctx: Ctx, event: Event, *variants: Any) -> str:
    """The most specific catalogue entry that exists for an event: `narr.<game>.<kind>.<v1>.<v2>`, then shorter,
    then the kind's own (`narr.<game>.own.<kind>` for a reader's private event)."""
    base = f"narr.{ctx.game}.{event.kind}" if event.public else f"narr.{ctx.game}.own.{event.kind}"
    parts = [str(v) for v in variants if v is not None]
    for n in range(len(parts), 0, -1):
        found = ".".join([base, *parts[:n]])
        if has(found):
            return found
    return base


def phrase(ctx: Ctx, msgid: str, **values: Any) -> str:
    return t(ctx.lang, msgid, **values)
