"""The special black cards (digest §11.2, B-BLACK) that are not a quest's: the Dark Forest, the Mists of Avalon and
Vivien stay beside the board until a quest ends; Guinevere calls everyone back to Camelot; the Morgans cost life,
siege engines, three more black cards, or a discard that one volunteer may take on alone."""

from __future__ import annotations

from engine.board import blacks, ops
from engine.board import catalogue as cat
from engine.board.frames import Events, Frame, decision
from engine.board.quests import rewards
from engine.board.state import BoardState
from engine.core.actions import Action
from engine.core.events import public

# Special black cards that stay in play beside the board (they leave when their condition ends).
_STAYS = frozenset(("dark_forest", "mists_of_avalon", "vivien", "mordred"))


def resolve(s: BoardState, card: str, ev: Events) -> None:
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
            blacks.start_draw(s, no_merlin=True)
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
