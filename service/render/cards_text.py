"""Text of the card game: board summary (only the TOP Threat card), private panel, menu labels, event lines.

Input is always an engine view (`engine/cards/views.py` documents its keys). The Threat pile's history is
never shown (C-LISTEN: players must remember it), and neither is anything about the cards beneath its top.
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.core.events import Event
from service.render import names as nm
from service.render import phone
from service.render.i18n import fill, has, t, tn

GAME = "cards"


def _card(lang: str, card: str | None) -> str:
    """A Rumor card's name; `hidden` (a face-down Morgan #1 card) and None (an empty pile) have words too."""
    return t(lang, "cards.threat.empty") if card is None else nm.cards_card(lang, card)


def board(view: dict[str, Any], lang: str, names: dict[int, str]) -> str:
    """The group's summary, from the public view only."""
    result = view.get("result")
    swords = view["swords"]
    lines = [t(lang, "cards.title", turn=view.get("turn", 0))]
    lines.append(t(lang, "cards.swords", white=swords["white"], black=swords["black"]))
    top = t(lang, "cards.threat.top", card=_card(lang, view.get("threat_top")))
    lines.append(top + " · " + tn(lang, "cards.threat.count", view.get("threat_count", 0)))
    ann = view.get("threat_announced")
    if ann:  # what the player who laid the face-down card said it was (it may be a lie)
        said = nm.cards_card(lang, f"{ann['quest']}_{ann['value']}")
        lines.append(t(lang, "cards.threat.announced", name=nm.seat(names, ann["seat"]), card=said))
    if view.get("quest_options") and not result:
        lines.append(t(lang, "cards.options", quests=", ".join(nm.quest(lang, GAME, q) for q in view["quest_options"])))
    lines.append(t(lang, "cards.decks", deck=view.get("deck_count", 0), discards=view.get("discard_count", 0)))
    if view.get("silence"):
        lines.append(t(lang, "cards.silence"))
    if view.get("morgan1"):
        lines.append(t(lang, "cards.morgan1"))
    if view.get("morgan2"):
        lines.append(t(lang, "cards.morgan2"))
    if view.get("merlin4_token"):
        lines.append(t(lang, "cards.merlin4_token"))
    for acc in view.get("accusations") or []:
        lines.append(
            t(
                lang,
                "cards.accusation",
                by=nm.seat(names, acc["by"]),
                target=nm.seat(names, acc["target"]),
                loyalty=nm.loyalty(lang, acc.get("loyalty")),
            )
        )
    knights = view.get("knights")
    if knights:
        held = ", ".join(f"{nm.seat(names, i)} {n}" for i, n in enumerate(knights.get("held", [])) if n)
        lines.append(t(lang, "cards.knights", deck=knights.get("deck", 0), held=held or "–"))
    res = view.get("resolution")
    if res:
        totals = ", ".join(f"{nm.quest(lang, GAME, q)} {v}" for q, v in (res.get("totals") or {}).items())
        lines.append(t(lang, "cards.resolution", quest=nm.quest(lang, GAME, res["quest"]), totals=totals))
    if result:
        lines.append("")
        lines.append(result_line(lang, result, names))
    return phone.fold("\n".join(lines))


def result_line(lang: str, result: dict[str, Any], names: dict[int, str]) -> str:
    winner = result.get("winner")
    head = t(lang, f"result.{winner}") if winner in ("loyal", "evil") else t(lang, "result.none")
    reason = result.get("reason")
    if reason and has(f"cards.reason.{reason}"):
        head += " " + t(lang, f"cards.reason.{reason}")
    loyalty = result.get("loyalty") or []
    traitors = [nm.seat(names, i) for i, lo in enumerate(loyalty) if lo == "traitor"]
    if traitors:
        head += "\n" + t(lang, "result.traitors", names=", ".join(traitors))
    return head


def private(view: dict[str, Any], seat: int, lang: str, names: dict[int, str]) -> str:
    """What only this seat knows: loyalty, Knight cards, looks, and cards it holds for a decision."""
    you = view["you"]
    lines = [t(lang, "cards.you.header", name=nm.seat(names, seat))]
    if you.get("loyalty"):
        lines.append(t(lang, "you.loyalty", loyalty=nm.loyalty(lang, you["loyalty"])))
    if you.get("knights"):
        lines.append(t(lang, "cards.you.knights", cards=", ".join(nm.knight(lang, GAME, k) for k in you["knights"])))
    for look in you.get("looks") or []:
        lines.append(
            t(lang, "cards.you.look", name=nm.seat(names, look["seat"]), loyalty=nm.loyalty(lang, look["loyalty"]))
        )
    if you.get("tristan"):
        lines.append(t(lang, "cards.you.tristan", cards=", ".join(_card(lang, c) for c in you["tristan"])))
    if you.get("morgan1_card"):
        lines.append(t(lang, "cards.you.morgan1_card", card=_card(lang, you["morgan1_card"])))
    if you.get("held"):
        lines.append(t(lang, "cards.you.held", card=_card(lang, you["held"])))
    if you.get("merlin4_quest"):
        lines.append(t(lang, "cards.you.merlin4", quest=nm.quest(lang, GAME, you["merlin4_quest"])))
    for key in ("traitor_draw", "gawain_draw"):
        if you.get(key):
            lines.append(t(lang, f"cards.you.{key}", cards=", ".join(_card(lang, c) for c in you[key])))
    if you.get("vivien_card"):
        lines.append(t(lang, "cards.you.vivien_card", loyalty=nm.loyalty(lang, you["vivien_card"])))
    return "\n".join(lines)


def prompt_line(kind: str, view: dict[str, Any], seat: int, lang: str, names: dict[int, str]) -> str:
    key = f"cards.prompt.{kind}"
    return "👉 " + (t(lang, key) if has(key) else t(lang, "prompt.generic"))


SEAT_KINDS = frozenset(("accuse", "give", "galahad"))  # kinds whose int argument is a seat


def _arg(lang: str, value: int | str, view: dict[str, Any], names: dict[int, str], kind: str) -> str:
    if isinstance(value, int):
        return nm.seat(names, value) if kind in SEAT_KINDS and value < view.get("players", 0) else str(value)
    for key in (f"cards.quest.{value}", f"cards.knight.{value}", f"loyalty.{value}", f"cards.word.{value}"):
        if has(key):
            return t(lang, key)
    if value == "q":  # the "?" value of a quest card
        return "?"
    return nm.cards_card(lang, value) if "_" in value or has(f"cards.card.{value}") else value


def label(action: Action, view: dict[str, Any], seat: int, lang: str, names: dict[int, str]) -> str:
    head = t(lang, f"cards.action.{action.kind}")
    drawn = {"place": "traitor_draw", "pick": "gawain_draw"}.get(action.kind)
    if drawn and isinstance(action.args[0], int) and action.args[0] < len(view["you"].get(drawn) or []):
        return head + ": " + _card(lang, view["you"][drawn][action.args[0]])
    if not action.args:
        return head
    return head + ": " + " ".join(_arg(lang, a, view, names, action.kind) for a in action.args)


def kind_label(kind: str, count: int, lang: str) -> str:
    return f"{t(lang, f'cards.action.{kind}')} ({count})"


def event_line(event: Event, seat: int, lang: str, names: dict[int, str]) -> str | None:
    """The line a private event shows in its recipient's direct chat (`cards.private.<kind>`: the Knight card a
    quest gave them), else None. Public events, the Threat card reveals among them, are told by the narration
    (`service.render.narration`)."""
    key = f"cards.private.{event.kind}"
    if event.public or not has(key):
        return None
    values = {key: nm.knight(lang, GAME, value) if key == "card" else value for key, value in event.data.items()}
    return fill(t(lang, key), values)
