"""Lines of the board game: one catalogue entry per event kind (`narr.board.<kind>`, a reader's own private events
`narr.board.own.<kind>`), a few variants where the words differ (`narr.board.evil.siege`), and the parts that
follow a cause (`narr.board.part.<kind>`, "— +1 ❤, 3 cards, ⚪ sword").

Safety: a line is built from its beat's events only, and the narrator gives a group only public events; a card the
engine marks `hidden` is never named, and a black card that may lie face down is not named when a cancel window
tells about it (the window's event carries the card for the engine's own use).
"""

from __future__ import annotations

from typing import Any

from engine.board import catalogue as cat
from engine.core.events import Event
from service.render import names as nm
from service.render.i18n import fill, has, t
from service.render.narration import words as w
from service.render.narration.beats import Beat, with_parts
from service.render.narration.board_beats import TWINS, prepare, take
from service.render.narration.words import Ctx

__all__ = ["TWINS", "line", "prepare", "take"]

RELIC_MARK = {"excalibur": "🗡", "grail": "🏆", "armor": "🛡"}
_SEAT_KEYS = ("seat", "by", "target", "with_", "other")
# Parts read best as what happened to the knights, then to the table: "+1 ❤, 3 cards, 🗡 Excalibur, ⚪ sword".
_PART_ORDER = {k: i for i, k in enumerate(("white_gained", "relic_won", "relic_removed", "swords", "sword_flipped"))}


def _values(ctx: Ctx, data: dict[str, Any]) -> dict[str, Any]:
    """Engine data → words: seats to names, card ids to card names, quest ids to quest names."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in _SEAT_KEYS and isinstance(value, int):
            out[key] = w.who(ctx, value)
        elif key == "to":
            out[key] = w.who(ctx, value) if isinstance(value, int) else w.quest(ctx, value)
        elif key in ("seats", "knights") and isinstance(value, list):
            out[key] = w.people(ctx, value)
        elif key in ("card", "gave", "got") and isinstance(value, str):
            out[key] = w.card(ctx, value)
        elif key == "cards" and isinstance(value, list):
            out[key] = w.cards(ctx, value)
        elif key in ("quest", "war") and isinstance(value, str):
            out[key] = w.quest(ctx, value)
        elif key == "relic" and isinstance(value, str):
            out[key] = f"{RELIC_MARK.get(value, '')} {nm.relic(ctx.lang, value)}".strip()
        elif key == "loyalty":
            out[key] = w.loyalty(ctx, value)
        elif key == "delta" and isinstance(value, int):
            out[key] = w.signed(value)
        else:
            out[key] = value
    if isinstance(data.get("count"), int):
        out["signed"] = w.signed(data["count"])
    out["win"] = cat.EXCALIBUR_WIN
    out["max_engines"] = cat.MAX_ENGINES
    out["figures_max"] = cat.WAR_FIGURES
    return out


def _say(ctx: Ctx, key: str, values: dict[str, Any]) -> str:
    return fill(t(ctx.lang, key), values)


def _plain(ctx: Ctx, event: Event, *variants: Any, **extra: Any) -> str:
    return _say(ctx, w.key(ctx, event, *variants), {**_values(ctx, event.data), **extra})


def _black_name(ctx: Ctx, card: str) -> str:
    """A black card a cancel window tells about: one that may lie face down is not named (its drawer may hide it)."""
    return w.card(ctx, "hidden" if card in cat.FACE_DOWN_ABLE else card)


def _black_drawn(ctx: Ctx, event: Event) -> str:
    return _plain(ctx, event, "hidden" if event.data.get("card") == "hidden" else None)


def _fight_value(card: str, quest: str) -> str:
    if card in cat.LANCELOT_VALUE:
        return str(cat.LANCELOT_VALUE[card][1 if quest == "dragon" else 0])
    return str(cat.BLACK_KNIGHT_VALUE.get(card, "?"))


def _head_line(beat: Beat, ctx: Ctx) -> str:
    """The beat's own sentence, before its parts."""
    head, kind, data = beat.head, beat.head.kind, beat.head.data
    if kind == "evil":
        drawn = beat.took("black_drawn")
        if drawn is not None:
            return _black_drawn(ctx, drawn)
        effect = beat.took("siege_engines") or beat.took("life")
        extra = _values(ctx, effect.data) if effect else {}
        return _say(ctx, w.key(ctx, head, data.get("choice")), {**extra, **_values(ctx, data)})
    if kind == "black_drawn":
        return _black_drawn(ctx, head)
    if kind in ("black_cancelled", "black_not_cancelled"):
        paid = ", ".join(f"{w.who(ctx, s)} ×{k}" if k > 1 else w.who(ctx, s) for s, k in data.get("merlins", []))
        return _plain(ctx, head, data.get("by"), card=_black_name(ctx, data.get("card", "")), merlins=paid or "–")
    if kind in ("siege_roll", "siege_fight"):
        fight = beat.took("siege_fight") or (head if kind == "siege_fight" else None)
        if fight is None:
            return _plain(ctx, head)
        return _plain(ctx, fight)
    if kind == "fight":
        over = beat.took("quest_over")
        won = "won" if data.get("won") else "lost"
        by = over.data.get("by") if over else None
        return _plain(ctx, head, won, by=w.who(ctx, by) if by is not None else w.people(ctx, []))
    if kind == "quest_over":
        won = "won" if data.get("won") else "lost"
        by = data.get("by")
        return _plain(ctx, head, won, by=w.who(ctx, by) if by is not None else w.people(ctx, data.get("knights", [])))
    if kind == "black_revealed":
        values = "+".join(_fight_value(c, data.get("quest", "")) for c in data.get("cards", []))
        return _plain(ctx, head, values=values or "–")
    if kind == "special_played":
        arg = data.get("arg")
        target = arg
        if data.get("card") == "merlin":
            target = w.phrase(ctx, "narr.board.word.engine") if arg == "engine" else w.quest(ctx, str(arg))
        elif data.get("card") == "heroism" and isinstance(arg, str):
            target = w.quest(ctx, arg)
        elif isinstance(arg, int):
            target = w.who(ctx, arg)
        return _plain(ctx, head, data.get("card"), arg, target=target)
    if kind in ("sacrifice", "healed"):
        life = beat.took("life")
        return _plain(ctx, head, life=life.data.get("life") if life else "?")
    if kind == "excalibur_push":
        moved = beat.took("excalibur_moved")
        return _plain(ctx, head, position=moved.data.get("position") if moved else "?")
    if kind == "black_placed" and data.get("card") == "hidden":
        gained = beat.took("white_gained")
        if gained is None:  # (no white card left to draw)
            return _plain(ctx, head, "hidden")
        return _plain(ctx, head, "hidden", "drew", seat=w.who(ctx, gained.data["seat"]))
    if kind == "face_down_value":
        drawn = beat.took("white_drawn")
        return _plain(ctx, head, "drew" if drawn else None, drawn=w.cards(ctx, drawn.data["cards"]) if drawn else "")
    return _simple(ctx, head)


def _simple(ctx: Ctx, event: Event) -> str:
    """Lines whose words depend on one field of their event at most."""
    kind, data = event.kind, event.data
    variant: Any = None
    if kind == "excalibur_moved":
        variant = "up" if data.get("delta", 0) > 0 else "down"
    elif kind in ("white_played", "moved"):
        variant = data.get("quest") or data.get("to")
    elif kind in ("traitor_revealed", "table", "relic_removed", "white_gained", "white_drawn", "black_seen"):
        variant = data.get("why")
    elif kind in ("accused", "split_vote"):
        variant = str(data.get("traitor", data.get("accept"))).lower()
    elif kind in ("loyalty",):
        variant = data.get("loyalty")
    elif kind == "white_discarded":
        variant = "cards" if "cards" in data else None
    elif kind == "game_over":
        variant = data.get("winner")
    extra: dict[str, Any] = {}
    if kind in ("white_gained",):
        extra["cards"] = w.counted(ctx, "cards", data.get("count", 0))
    elif kind == "swords":
        extra["swords"] = w.swords(ctx, data.get("color", "white"), data.get("count", 0))
    elif kind == "setup":
        knights = data.get("knights", [])
        extra["knights"] = ", ".join(
            f"{w.who(ctx, i)}: {nm.knight(ctx.lang, 'board', k)}" for i, k in enumerate(knights)
        )
        extra["first"] = w.who(ctx, data.get("first"))
    elif kind in ("joined", "knighted"):
        extra["knight"] = nm.knight(ctx.lang, "board", data.get("knight"))
    elif kind == "game_over":
        reason = f"board.reason.{data.get('reason')}"
        extra["reason"] = t(ctx.lang, reason) if has(reason) else ""
    elif kind == "exchange_cards" and ctx.viewer is not None and ctx.viewer != data.get("seat"):
        extra = {"gave": w.card(ctx, data.get("got", "")), "got": w.card(ctx, data.get("gave", "")),
                 "other": w.who(ctx, data.get("seat"))}
    elif kind == "white_received":
        variant = "got" if ctx.viewer == data.get("to") else "sent" if ctx.viewer == data.get("seat") else None
    elif kind == "merlin":
        target = data.get("target", "")
        extra["target"] = w.phrase(ctx, "narr.board.word.engine") if target == "engine" else w.quest(ctx, target)
    return _plain(ctx, event, variant, **extra)


def _part(ctx: Ctx, event: Event, actors: set[int]) -> str:
    kind, data = event.kind, event.data
    key = f"narr.board.part.{kind}"
    if kind == "swords":
        text = w.swords(ctx, data.get("color", "white"), data.get("count", 0))
        why = data.get("why")
        return f"{text} ({w.card(ctx, why)})" if why in ("heroism", "mists_of_avalon") else text
    if kind == "white_gained":
        seat = data.get("seat")
        prefix = "" if seat in actors and len(actors) == 1 else w.who(ctx, seat) + " "
        return prefix + w.counted(ctx, "cards", data.get("count", 0))
    if kind == "black_placed" and data.get("card") == "hidden":
        key += ".hidden"
    return _say(ctx, key, _values(ctx, data))


def _life_parts(ctx: Ctx, lives: list[Event], actors: set[int]) -> list[str]:
    """Life changes grouped by amount: "+2 ❤" for the beat's one actor, else "Ann, Bob −1 ❤"."""
    groups: dict[int, list[int]] = {}
    for e in lives:
        groups.setdefault(e.data.get("delta", 0), []).append(e.data.get("seat"))
    out = []
    for delta, seats in groups.items():
        mark = f"{w.signed(delta)} ❤"
        out.append(mark if set(seats) <= actors and len(actors) == 1 else f"{w.people(ctx, seats)} {mark}")
    return out


def _actors(beat: Beat) -> set[int]:
    """Seats the line already names, so a part about them needs no name."""
    data = beat.head.data
    over = beat.took("quest_over") or (beat.head if beat.head.kind == "quest_over" else None)
    if over is not None:
        return set(over.data.get("knights") or []) or ({over.data["by"]} if over.data.get("by") is not None else set())
    seat = data.get("seat", data.get("by"))
    return {seat} if isinstance(seat, int) else set()


def line(beat: Beat, ctx: Ctx) -> str:
    """The beat's line: its sentence, then what it caused."""
    actors = _actors(beat)
    parts: list[str] = []
    if beat.head.kind in ("siege_roll", "siege_fight"):
        fight = beat.took("siege_fight") or beat.head
        if fight.kind == "siege_fight":
            parts.append(t(ctx.lang, "narr.word.won" if fight.data.get("won") else "narr.word.lost"))
    lives = [e for e in beat.parts if e.kind == "life"]
    others = sorted((e for e in beat.parts if e.kind != "life"), key=lambda e: _PART_ORDER.get(e.kind, 99))
    parts += _life_parts(ctx, lives, actors) + [_part(ctx, e, actors) for e in others]
    return with_parts(_head_line(beat, ctx), parts)
