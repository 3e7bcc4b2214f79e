"""Lines of the card game: one catalogue entry per event kind (`narr.cards.<kind>`, a reader's own private events
`narr.cards.own.<kind>`), variants where the words differ, and parts after a cause ("— 🔇 silence").

The Threat pile is a memory game (C-LISTEN): the move's message names the card just laid face up, as the table would
see it; a log read later can hide it (`Ctx.hide_threat`) so that scrolling back is not a way to remember.
"""

from __future__ import annotations

from typing import Any

from engine.core.events import Event
from service.render import names as nm
from service.render.i18n import fill, has, t
from service.render.narration import words as w
from service.render.narration.beats import ABSORB, PART, Beat, with_parts
from service.render.narration.words import Ctx

TWINS = {"knight_card": "knight_drawn", "merlin4_quest": "merlin4_token"}
# The field whose value picks a kind's wording (`narr.cards.knight_played.arthur`).
_VARIANT_FIELD = {"knight_played": "card", "silence_off": "reason", "galahad_look": "loyalty", "game_over": "winner"}


def prepare(events: list[Event]) -> list[Event]:
    """Merlin #4's token is told with the resolution it acts on: moved after the `quest_sorted` that follows it."""
    out = list(events)
    for i, e in enumerate(out):
        if e.kind == "merlin4_token_used" and i + 1 < len(out) and out[i + 1].kind == "quest_sorted":
            out[i], out[i + 1] = out[i + 1], e
    return out


def take(beat: Beat, e: Event) -> str | None:
    head = beat.head.kind
    if head == "accuse" and e.kind == "loyalty_revealed" and e.data.get("seat") == beat.head.data.get("target"):
        return ABSORB
    if head == "quest_sorted" and e.kind == "merlin4_token_used":
        return ABSORB
    if head in ("reveal", "quest_declared") and e.kind in ("silence_on", "silence_off"):
        return PART
    if head in ("final_reveal", "accuse", "loyalty_revealed") and e.kind == "swords_flipped":
        return PART
    return None


def _swords(ctx: Ctx, placed: list[list[Any]], main: str | None) -> str:
    """[[quest, color, n], …] → "2 ⚪ swords, Dragon ⚫ sword": the main quest's swords, then the others'."""
    out = []
    for quest, color, n in placed:
        if n:
            text = w.swords(ctx, color, n)
            out.append(text if quest == main else f"{w.quest(ctx, quest)} {text}")
    return ", ".join(out) or w.phrase(ctx, "narr.cards.word.no_swords")


def _totals(ctx: Ctx, totals: dict[str, int]) -> str:
    return ", ".join(f"{w.quest(ctx, q)} {v}" for q, v in totals.items()) or "–"


def _values(ctx: Ctx, event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in event.data.items():
        if key in ("seat", "target") and isinstance(value, int):
            out[key] = w.who(ctx, value)
        elif key == "card" and isinstance(value, str):
            out[key] = nm.knight(ctx.lang, "cards", value) if event.kind.startswith("knight") else w.card(ctx, value)
        elif key in ("cards", "deck") and isinstance(value, list):
            out[key] = w.cards(ctx, value)
        elif key == "quest" and isinstance(value, str):
            out[key] = w.quest(ctx, value)
        elif key == "loyalty" and isinstance(value, str):
            out[key] = w.loyalty(ctx, value)
        elif key == "loyalties" and isinstance(value, list):
            out[key] = ", ".join(f"{w.who(ctx, s)}: {w.loyalty(ctx, lo)}" for s, lo in value) or "–"
        elif key == "totals" and isinstance(value, dict):
            out[key] = _totals(ctx, value)
        else:
            out[key] = value
    return out


def _head_line(beat: Beat, ctx: Ctx) -> str:
    head, kind, data = beat.head, beat.head.kind, beat.head.data
    values = _values(ctx, head)
    variant: Any = None
    if kind == "reveal" and ctx.hide_threat:
        variant = "unseen"
    elif kind == "morgan1_announce":
        value = data.get("value")
        values["card"] = nm.cards_card(ctx.lang, f"{data.get('quest')}_{value}")
    elif kind == "quest_sorted":
        chars = list(data.get("characters") or [])
        removed = list(data.get("removed") or [])
        values["characters"] = w.cards(ctx, chars)
        values["removed"] = w.cards(ctx, removed)
        variant = "both" if chars and removed else "characters" if chars else "removed" if removed else None
        token = beat.took("merlin4_token_used")
        if token is not None:
            values["token"] = w.quest(ctx, token.data.get("quest", ""))
            variant = "token"
    elif kind == "quest_result":
        values["total"] = (data.get("totals") or {}).get(data.get("quest"), 0)
        values["swords"] = _swords(ctx, data.get("swords") or [], data.get("quest"))
        variant = data.get("outcome")
    elif kind == "accuse":
        revealed = beat.took("loyalty_revealed")
        if revealed is not None:
            variant = revealed.data.get("loyalty")
            values["swords"] = _revealed_swords(ctx, revealed)
    elif kind == "loyalty_revealed":
        variant = data.get("loyalty")
        values["swords"] = _revealed_swords(ctx, head)
    elif kind in _VARIANT_FIELD:
        variant = data.get(_VARIANT_FIELD[kind])
        if kind == "game_over":
            reason = f"cards.reason.{data.get('reason')}"
            values["reason"] = t(ctx.lang, reason) if has(reason) else ""
    elif kind == "reshuffle":
        values["cards"] = w.counted(ctx, "cards", data.get("count", 0))
    elif kind == "swords_flipped":
        values["swords"] = w.swords(ctx, "white", data.get("count", 0))
    return fill(t(ctx.lang, w.key(ctx, head, variant)), values)


def _revealed_swords(ctx: Ctx, event: Event) -> str:
    color = "white" if event.data.get("loyalty") == "traitor" else "black"
    text = w.swords(ctx, color, event.data.get("swords", 0))
    if event.data.get("percival"):
        text += f" ({nm.knight(ctx.lang, 'cards', 'percival')})"
    return text


def _part(ctx: Ctx, event: Event) -> str:
    if event.kind == "swords_flipped":
        flipped = w.swords(ctx, "white", event.data.get("count", 0))
        return w.phrase(ctx, "narr.cards.part.swords_flipped", swords=flipped)
    return fill(t(ctx.lang, f"narr.cards.part.{event.kind}"), _values(ctx, event))


def line(beat: Beat, ctx: Ctx) -> str:
    return with_parts(_head_line(beat, ctx), [_part(ctx, e) for e in beat.parts])
