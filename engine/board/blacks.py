"""Black cards (digest §5, §11.2, B-BLACK): drawing (Lancelot's Armor: `quests.lancelot`), the cancel window (three
Merlins against a special card, Excalibur against any), and where each card goes: its quest's module, the Black
Knight and Lancelot/Dragon cards face up or down, the other special cards to `black_specials`."""

from __future__ import annotations

from engine.board import black_specials, known, ops
from engine.board import catalogue as cat
from engine.board.frames import Events, Frame, auto, decision
from engine.board.quests import excalibur, fight, grail, wars
from engine.board.state import BoardState
from engine.board.views import quest_open
from engine.core.actions import Action
from engine.core.events import private, public


def start_draw(s: BoardState, no_merlin: bool = False) -> None:
    ops.push(s, {"kind": "draw_black", "no_merlin": no_merlin})


def start_evil_draw(s: BoardState, seat: int) -> None:
    """The Evil phase's black card: the holder of Lancelot's Armor draws two and keeps one (B-KNIGHT), unless
    Percival already used the Armor for his look this turn (he then draws the card he left on top)."""
    if "armor" in s.relics[seat] and not s.turn.get("percival"):
        ops.push(s, {"kind": "armor_draw"})
    else:
        start_draw(s)


@auto("draw_black")
def _draw_black(s: BoardState, frame: Frame, ev: Events) -> None:
    card = ops.draw_black(s)
    if card is None:  # both black piles empty: Evil advances on Camelot instead
        ops.add_engines(s, 1, ev, "no_black_card")
        return
    drawn(s, card, frame["no_merlin"], ev)


def drawn(s: BoardState, card: str, no_merlin: bool, ev: Events) -> None:
    """A black card is drawn: told (a Black Knight or Lancelot card only to its drawer), then the cancel window
    if anybody could cancel it, then its effect."""
    if hidden_draw(s, card):  # it may still go face down: only the drawer sees its value for now
        ev.append(public("black_drawn", seat=s.current, card="hidden"))
        ev.append(private("black_drawn", s.current, seat=s.current, card=card))
    else:
        ev.append(public("black_drawn", seat=s.current, card=card))
    merlin_ok = card in cat.SPECIAL_BLACK and not no_merlin and not s.vivien
    if merlin_ok or ops.relic_holder(s, "excalibur") is not None:
        ops.push(
            s,
            {"kind": "window", "card": card, "waiting": ops.living(s), "merlins": [], "merlin_ok": merlin_ok},
            {"kind": "resolve_black", "card": card},
        )
    else:
        ops.push(s, {"kind": "resolve_black", "card": card})


def hidden_draw(s: BoardState, card: str) -> bool:
    """A Black Knight or Lancelot/Dragon card drawn by a knight stays hidden from the others until placed."""
    return card in cat.FACE_DOWN_ABLE and not s.revealed[s.current]


@decision("window", rule="B-BLACK")
class _Window:
    """Every living knight is asked (asking only holders would leak who holds what): pass, offer Merlins towards
    the triple cancel of a special card, or sacrifice Excalibur to cancel any black card just drawn. Its public
    events name the card as `black_drawn` did: a knight's Black Knight or Lancelot card stays "hidden" (he may still
    place it face down; cancelled, it is discarded face down), a special card was read out."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return list(frame["waiting"])

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        acts = [Action("pass")]
        if frame["merlin_ok"]:
            acts += [Action("merlin", (k,)) for k in range(1, min(3, s.hands[seat].count("merlin")) + 1)]
        if "excalibur" in s.relics[seat]:
            acts.append(Action("excalibur"))
        return acts

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        frame["waiting"].remove(seat)
        shown = "hidden" if hidden_draw(s, frame["card"]) else frame["card"]  # as `black_drawn` told it
        if action.kind == "excalibur":
            s.frames.pop()
            s.frames.pop()  # the resolve_black step below
            ops.remove_relic(s, seat, "excalibur", ev, "cancel")
            s.black_discard.append(frame["card"])  # (face down: a hidden card stays unknown)
            ev.append(public("black_cancelled", card=shown, by="excalibur", seat=seat))
            return
        if action.kind == "merlin":
            frame["merlins"].append([seat, action.args[0]])
        if frame["waiting"]:
            return
        s.frames.pop()
        order = ops.living(s)
        offers = [(i, min(k, s.hands[i].count("merlin"))) for i, k in frame["merlins"] if i in order]
        if sum(k for _, k in offers) < 3:  # (a knight who left meanwhile took his offer with him)
            ev.append(public("black_not_cancelled", card=shown))
            return
        s.frames.pop()
        need, paid = 3, []
        for who, k in sorted(offers, key=lambda m: order.index(m[0])):
            take = min(k, need)
            for _ in range(take):
                ops.discard_card(s, who, "merlin", known.EVERYONE)
            paid.append([who, take])
            need -= take
            if not need:
                break
        s.black_discard.append(frame["card"])
        ev.append(public("black_cancelled", card=shown, by="merlin", merlins=paid))

    @staticmethod
    def timeout(s: BoardState, frame: Frame, seat: int) -> Action:
        return Action("pass")


@auto("resolve_black")
def _resolve_black(s: BoardState, frame: Frame, ev: Events) -> None:
    card = frame["card"]
    quest = cat.QUEST_OF_BLACK.get(card)
    if quest and not (quest_open(s, quest) or (quest == "lancelot" and s.lancelot_stage == "dragon")):
        s.black_discard.append(card)
        ops.add_engines(s, 1, ev, "quest_over")
        return
    if card in cat.FACE_DOWN_ABLE:
        where = "black_knight" if card in cat.BLACK_KNIGHT_VALUE else s.lancelot_stage
        if s.revealed[s.current]:
            fight.place_black(s, where, card, False, s.current, ev)
        else:
            ops.push(s, {"kind": "face", "card": card, "quest": where})
    elif card in ("despair", "desolation"):
        grail.black_card(s, card, ev)
    elif card == "excalibur":
        excalibur.black_card(s, ev)
    elif card in cat.WARS:
        wars.add_figure(s, card, card, ev)
    elif card in ("mercenaries", "mordred"):
        ops.push(s, {"kind": "war_choice", "card": card})
    else:
        black_specials.resolve(s, card, ev)


@decision("face", rule="B-BLACK", turn=True)
class _Face:
    """Black Knight and Lancelot/Dragon cards may go face down; the drawer then takes one white card."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("face", ("up",)), Action("face", ("down",))]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        s.frames.pop()
        fight.place_black(s, frame["quest"], frame["card"], action.args[0] == "down", seat, ev)


