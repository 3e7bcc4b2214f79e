"""Text of the board game: the group's board summary, a seat's private panel, menu labels and event lines.

Input is always an engine view (`engine/board/views.py` documents its keys): the public view for the board,
a seat's view for its panel. Lines are short, folded to a phone's width (`phone.fold`): they are read on phones.
"""

from __future__ import annotations

from typing import Any

from engine.board import catalogue as cat
from engine.core.actions import Action
from engine.core.events import Event
from service.render import names as nm
from service.render import phone
from service.render.i18n import fill, has, t, tn

GAME = "board"
HIDDEN = "🎴"  # a face-down card (an emoji: U+1F0A0, the card back, shows as a box on some phones)
# Action kinds that choose among black cards only this seat saw (`<kind>:<i>` indexes the view's list of them).
_LOOKED = {"top": "reorder", "bury": "bury", "armor": "armor"}


def _seat_line(lang: str, s: dict[str, Any], names: dict[int, str], current: int | None) -> str:
    name = nm.seat(names, s["seat"])
    marker = "▶ " if s["seat"] == current else "• "
    if s.get("revealed"):
        return marker + t(lang, "board.seat.traitor", name=name, knight=nm.knight(lang, GAME, s["knight"]))
    if not s.get("alive", True):
        return marker + t(lang, "board.seat.dead", name=name, knight=nm.knight(lang, GAME, s["knight"]))
    line = t(
        lang,
        "board.seat.line",
        name=name,
        knight=nm.knight(lang, GAME, s["knight"]),
        life=s["life"],
        where=nm.quest(lang, GAME, s["location"]),
        cards=s["hand"],
    )
    extras = [nm.relic(lang, r) for r in s.get("relics", [])]
    if s.get("loyalty") == "loyal":
        extras.append(t(lang, "board.seat.shown_loyal"))
    if s.get("has_accused"):
        extras.append(t(lang, "board.seat.has_accused"))
    return marker + line + (" · " + ", ".join(extras) if extras else "")


def _value(card: str, quest: str) -> str:
    """The number a fight card shows on `quest` (Lancelot/Dragon cards have one value per side)."""
    if card == "hidden":
        return HIDDEN
    if card in cat.LANCELOT_VALUE:
        return str(cat.LANCELOT_VALUE[card][1 if quest == "dragon" else 0])
    return str(cat.FIGHT_VALUE.get(card) or cat.BLACK_KNIGHT_VALUE.get(card) or "?")


def _values(cards: list[str], quest: str, sep: str = "+") -> str:
    return sep.join(_value(c, quest) for c in cards) or "–"


def _quest_line(lang: str, quest: str, q: dict[str, Any], names: dict[int, str], lancelot_open: bool) -> str:
    title = nm.quest(lang, GAME, quest)
    if quest == "dragon" and not q.get("open", True) and lancelot_open:
        return t(lang, "board.quest.after_lancelot", quest=title)
    if not q.get("open", True):
        return t(lang, "board.quest.over", quest=title)
    if quest in cat.FIGHT_QUESTS:
        body = t(lang, "board.quest.fight", white=_values(q["white"], quest), black=_values(q["black"], quest))
    elif quest == "excalibur":
        body = t(lang, "board.quest.excalibur_track", position=q["position"], win=q["win"])
    elif quest == "grail":
        marks = {"grail": "🏆", None: "·", "despair": "✖", "desolation": "✖"}
        body = "".join(marks.get(spot, "✖") for spot in q["spots"])
        if q.get("dark_forest"):
            body += " " + t(lang, "board.quest.dark_forest")
    else:
        body = t(
            lang,
            "board.quest.war",
            run=_values(q["white"], quest, ","),
            figures=q["figures"],
        )
        if q.get("mordred"):
            body += " " + t(lang, "board.quest.mordred")
    knights = q.get("knights") or []
    present = (" ← " + ", ".join(nm.seat(names, k) for k in knights)) if knights else ""
    return f"{title}: {body}{present}"


def board(view: dict[str, Any], lang: str, names: dict[int, str]) -> str:
    """The group's board summary, from the public view only."""
    result = view.get("result")
    lines = [t(lang, "board.title", turn=view.get("turn", 0))]
    lines.append(
        t(
            lang,
            "board.counters",
            white=view["swords"]["white"],
            black=view["swords"]["black"],
            engines=view["siege_engines"],
        )
    )
    current = None if result else view.get("current")
    lines += [_seat_line(lang, s, names, current) for s in view["seats"]]
    lines.append("")
    lancelot_open = bool(view["quests"]["lancelot"].get("open"))
    lines += [_quest_line(lang, q, view["quests"][q], names, lancelot_open) for q in cat.QUESTS]
    in_play = [nm.board_card(lang, c) for c in ("vivien", "mists_of_avalon") if view.get(c)]
    if view.get("heroism"):
        in_play.append(t(lang, "board.heroism_on", quest=nm.quest(lang, GAME, view["heroism"])))
    if in_play:
        lines.append(t(lang, "board.in_play", cards=", ".join(in_play)))
    if view.get("drawn"):  # a Black Knight or Lancelot/Dragon card may still go face down: not named
        lines.append(t(lang, "board.drawn", card=_drawn(lang, view)))
    if view.get("table"):
        proposal = view.get("proposal") or []
        cards = [
            phone.INDENT + nm.board_card(lang, c) + (f" → {nm.seat(names, proposal[i])}" if i < len(proposal) else "")
            for i, c in enumerate(view["table"])
        ]
        lines.append(t(lang, "board.table", cards="\n".join(cards)))  # one card a line
    lines.append(t(lang, "board.decks", white=view["decks"]["white"], black=view["decks"]["black"]))
    if result:
        lines.append("")
        lines.append(result_line(lang, result, names))
    return phone.fold("\n".join(lines))


def result_line(lang: str, result: dict[str, Any], names: dict[int, str]) -> str:
    winner = result.get("winner")
    head = t(lang, f"result.{winner}") if winner else t(lang, "result.none")
    reason = result.get("reason")
    if reason and has(f"board.reason.{reason}"):
        head += " " + t(lang, f"board.reason.{reason}")
    traitors = [nm.seat(names, i) for i, lo in enumerate(result.get("loyalty") or []) if lo == "traitor"]
    if traitors:
        head += "\n" + t(lang, "result.traitors", names=", ".join(traitors))
    return head


def private(view: dict[str, Any], seat: int, lang: str, names: dict[int, str]) -> str:
    """A seat's own knight, loyalty, hand and secret knowledge."""
    you = view["you"]
    me = view["seats"][seat]
    lines = [
        t(lang, "board.you.header", name=nm.seat(names, seat), knight=nm.knight(lang, GAME, me["knight"]))
        + (" · ❤" + str(me["life"]) if me.get("alive", True) and not me.get("revealed") else ""),
        t(lang, "you.loyalty", loyalty=nm.loyalty(lang, you.get("loyalty"))),
    ]
    hand = you.get("hand") or []
    cards = ", ".join(nm.board_card(lang, c) for c in hand) if hand else t(lang, "you.no_cards")
    lines.append(tn(lang, "you.hand", len(hand), cards=cards))
    if you.get("black_top"):
        lines.append(t(lang, "board.you.black_top", cards=", ".join(nm.board_card(lang, c) for c in you["black_top"])))
    for key in _LOOKED.values():  # black cards taken off the deck while this seat decides where they go
        if you.get(key):
            lines.append(t(lang, f"board.you.{key}", cards=", ".join(nm.board_card(lang, c) for c in you[key])))
    for fd in you.get("face_down") or []:
        lines.append(
            t(
                lang,
                "board.you.face_down",
                card=nm.board_card(lang, fd["card"]),
                quest=nm.quest(lang, GAME, fd["quest"]),
            )
        )
    return "\n".join(lines)


def _drawn(lang: str, view: dict[str, Any]) -> str:
    """The black card being resolved, as the group may know it (a card that may go face down is not named)."""
    drawn = view.get("drawn")
    if not drawn or drawn in cat.FACE_DOWN_ABLE:
        return t(lang, "board.card.hidden")
    return nm.board_card(lang, drawn)


def prompt_line(kind: str, view: dict[str, Any], seat: int, lang: str, names: dict[int, str]) -> str:
    """What the seat is asked, with the card or the share it is about when the question needs it."""
    drawn = view.get("drawn")  # a seat's view names the card only to the seat allowed to know it
    values: dict[str, Any] = {"card": nm.board_card(lang, drawn) if drawn else t(lang, "board.card.hidden")}
    if kind == "split":
        table, proposal = view.get("table") or [], view.get("proposal") or []
        if len(proposal) < len(table):
            kind, values["card"] = "split_assign", nm.board_card(lang, table[len(proposal)])
        else:
            kind = "split_vote"
    key = f"board.prompt.{kind}"
    return "👉 " + (fill(t(lang, key), values) if has(key) else t(lang, "prompt.generic"))


def _arg(lang: str, value: int | str, view: dict[str, Any], names: dict[int, str], kind: str, card: bool) -> str:
    """Render one action argument: a seat, a card (`card`: this position holds a card), a quest, or a word."""
    if isinstance(value, int):
        if kind in SEAT_KINDS and value < len(view["seats"]):
            return nm.seat(names, value)
        return str(value)
    if card:
        return nm.board_card(lang, value)
    for key in (f"board.quest.{value}", f"board.knight.{value}", f"board.relic.{value}", f"board.word.{value}"):
        if has(key):
            return t(lang, key)
    return nm.board_card(lang, value)


def _args(lang: str, action: Action, skip: int, view: dict[str, Any], names: dict[int, str]) -> str:
    """The arguments from position `skip` on; in card-carrying kinds the first string argument is a card."""
    parts = []
    for i, value in enumerate(action.args[skip:], start=skip):
        card = action.kind in CARD_KINDS and (i == 0 or action.kind == "arthur")
        parts.append(_arg(lang, value, view, names, action.kind, card))
    return " · ".join(parts)


CARD_KINDS = frozenset(("give", "discard", "excal", "heal", "arthur", "play"))
SEAT_KINDS = frozenset(("accuse", "give", "steal", "arthur", "play", "first"))


def label(action: Action, view: dict[str, Any], seat: int, lang: str, names: dict[int, str]) -> str:
    """A short button label: a whole-label key for kind+first arguments when one exists (`evil.black`,
    `play.piety.others`), else the kind's label and its arguments."""
    if action.kind == "galahad":  # Galahad's free special card: the card's own label, marked free
        return t(lang, "board.action.galahad") + " " + label(Action("play", action.args), view, seat, lang, names)
    looked = view["you"].get(_LOOKED.get(action.kind, "")) or []
    if (
        looked and action.args and isinstance(action.args[0], int) and action.args[0] < len(looked)
    ):  # a card only this seat saw
        return t(lang, f"board.action.{action.kind}") + ": " + nm.board_card(lang, looked[action.args[0]])
    args = [str(a) for a in action.args]
    for n in range(len(args), 0, -1):
        key = ".".join(["board.action", action.kind, *args[:n]])
        if has(key):
            rest = _args(lang, action, n, view, names)
            return t(lang, key) + (": " + rest if rest else "")
    head = t(lang, f"board.action.{action.kind}")
    return head + (": " + _args(lang, action, 0, view, names) if action.args else "")


def kind_label(kind: str, count: int, lang: str) -> str:
    return f"{t(lang, f'board.action.{kind}')} ({count})"


def _event_values(lang: str, data: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("seat", "target", "to", "other") and isinstance(value, int):
            out[key] = nm.seat(names, value)
        elif key in ("card", "gave", "got") and isinstance(value, str):
            out[key] = nm.board_card(lang, value)
        else:
            out[key] = value
    return out


def event_line(event: Event, seat: int, lang: str, names: dict[int, str]) -> str | None:
    """The line a private event shows in its recipient's direct chat (`board.private.<kind>`), else None. Public
    events are told by the narration (`service.render.narration`), which also tells one's own private events in
    the log and the recap (`narr.board.own.<kind>`); this is the live line beside the hand."""
    key = f"board.private.{event.kind}"
    if event.public or not has(key):
        return None
    data = event.data
    if event.kind == "exchange_cards" and seat != data.get("seat"):  # told from each side of the exchange
        data = {**data, "gave": data.get("got"), "got": data.get("gave"), "other": data.get("seat")}
    return fill(t(lang, key), _event_values(lang, data, names))
