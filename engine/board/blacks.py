"""Black cards (digest §5, §11.2): drawing, the cancel window (3 Merlins, Excalibur), and each card's effect."""

from __future__ import annotations

from engine.board import catalogue as cat
from engine.board import known, ops
from engine.board.frames import Events, Frame, auto, decision
from engine.board.quests import excalibur, fight, grail, rewards, wars
from engine.board.state import BoardState
from engine.board.views import quest_open
from engine.core.actions import Action
from engine.core.events import private, public

# Special black cards that stay in play beside the board (they leave when their condition ends).
_STAYS = frozenset(("dark_forest", "mists_of_avalon", "vivien", "mordred"))


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
    the triple cancel of a special card, or sacrifice Excalibur to cancel any black card just drawn."""

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
        if action.kind == "excalibur":
            s.frames.pop()
            s.frames.pop()  # the resolve_black step below
            ops.remove_relic(s, seat, "excalibur", ev, "cancel")
            s.black_discard.append(frame["card"])
            ev.append(public("black_cancelled", card=frame["card"], by="excalibur", seat=seat))
            return
        if action.kind == "merlin":
            frame["merlins"].append([seat, action.args[0]])
        if frame["waiting"]:
            return
        s.frames.pop()
        order = ops.living(s)
        offers = [(i, min(k, s.hands[i].count("merlin"))) for i, k in frame["merlins"] if i in order]
        if sum(k for _, k in offers) < 3:  # (a knight who left meanwhile took his offer with him)
            ev.append(public("black_not_cancelled", card=frame["card"]))
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
        ev.append(public("black_cancelled", card=frame["card"], by="merlin", merlins=paid))

    @staticmethod
    def timeout(s: BoardState, frame: Frame, seat: int) -> Action:
        return Action("pass")


@auto("resolve_black")
def _resolve_black(s: BoardState, frame: Frame, ev: Events) -> None:
    card = frame["card"]
    quest = cat.QUEST_OF_BLACK.get(card)
    if quest and not (quest_open(s, quest) or (quest == "lancelot" and s.lance_stage == "dragon")):
        s.black_discard.append(card)
        ops.add_engines(s, 1, ev, "quest_over")
        return
    if card in cat.FACE_DOWN_ABLE:
        where = "black_knight" if card in cat.BLACK_KNIGHT_VALUE else s.lance_stage
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
        _special(s, card, ev)


def _special(s: BoardState, card: str, ev: Events) -> None:
    if card not in _STAYS:
        s.black_discard.append(card)
    if card == "dark_forest":
        s.dark_forest = True
    elif card == "mists_of_avalon":
        s.mists = True
    elif card == "vivien":
        s.vivien = True
    elif card == "guinevere":
        for i in ops.living(s):
            if s.loc[i] != cat.CAMELOT:
                rewards.leave_location(s, i, cat.CAMELOT)
        ev.append(public("all_to_camelot", why="guinevere"))
        s.turn["cut"] = True
    elif card == "morgan_lose_life":
        for i in ops.living(s):
            ops.change_life(s, i, -1, ev, card)
    elif card == "morgan_two_engines":
        ops.add_engines(s, cat.MORGAN_ENGINES, ev, card)
    elif card == "morgan_three_black":
        for _ in range(cat.MORGAN_CHAIN):
            start_draw(s, no_merlin=True)
    else:  # the two Morgans that let one knight spare the others a discard
        need = cat.MORGAN_VOLUNTEER_CARDS if card == "morgan_discard_or_three" else 0
        able = [i for i in ops.living(s) if len(s.hands[i]) >= need]
        if able:
            ops.push(s, {"kind": "volunteer", "card": card, "waiting": able, "volunteers": []})
        else:
            everyone_discards(s, 1)


def everyone_discards(s: BoardState, k: int, exempt: int | None = None) -> None:
    need = [0] * s.n
    for i in ops.living(s):
        if i != exempt:
            need[i] = min(k, len(s.hands[i]))
    if any(need):
        ops.push(s, {"kind": "discard", "need": need, "waiting": [i for i in range(s.n) if need[i]]})


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


@decision("volunteer", rule="B-BLACK")
class _Volunteer:
    """Morgan: one knight may volunteer (lose 2 life, or discard 3 cards) to spare everyone a discard."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return list(frame["waiting"])

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("pass"), Action("volunteer")]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        frame["waiting"].remove(seat)
        if action.kind == "volunteer":
            frame["volunteers"].append(seat)
        if frame["waiting"]:
            return
        s.frames.pop()
        order = ops.living(s)
        heroes = [i for i in frame["volunteers"] if i in order]  # one who left the board meanwhile spares nobody
        if not heroes:
            ev.append(public("no_volunteer", card=frame["card"]))
            everyone_discards(s, 1)
            return
        hero = min(heroes, key=order.index)
        ev.append(public("volunteer", seat=hero, card=frame["card"]))
        if frame["card"] == "morgan_discard_or_life":
            ops.change_life(s, hero, -cat.MORGAN_VOLUNTEER_LIFE, ev, frame["card"])
        else:
            need = [0] * s.n
            need[hero] = cat.MORGAN_VOLUNTEER_CARDS
            ops.push(s, {"kind": "discard", "need": need, "waiting": [hero]})

    @staticmethod
    def timeout(s: BoardState, frame: Frame, seat: int) -> Action:
        return Action("pass")


@decision("discard", rule="B-BLACK")
class _Discard:
    """Each asked knight discards white cards of his choice, one at a time."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [i for i in frame["waiting"] if s.hands[i]]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("discard", (c,)) for c in sorted(set(s.hands[seat]))]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        ops.discard_card(s, seat, action.args[0], ())  # a discard of choice shows only that a card went
        ev.append(public("white_discarded", seat=seat, count=1))
        frame["need"][seat] -= 1
        if not frame["need"][seat] or not s.hands[seat]:
            frame["waiting"].remove(seat)
        if not any(s.hands[i] for i in frame["waiting"]):
            s.frames.pop()

    @staticmethod
    def timeout(s: BoardState, frame: Frame, seat: int) -> Action:
        return Action("discard", (min(s.hands[seat]),)) if s.hands[seat] else Action("pass")
