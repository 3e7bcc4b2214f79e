"""The special white cards (digest §11.1, B-TURN): Merlin, Fate, Piety, Reinforcements, Heroism, the Lady of the
Lake, Messenger, Clairvoyance and Convocation, each played as a heroic action; and healing with three identical
cards (B-LIFE)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.board import black_specials, known, ops, splits, traitor
from engine.board import catalogue as cat
from engine.board.frames import Events, Frame, decision
from engine.board.quests import excalibur, fight, rewards
from engine.board.state import BoardState
from engine.board.views import quest_open
from engine.core.actions import Action
from engine.core.events import private, public


def _merlin_targets(s: BoardState) -> list[str]:
    targets = []
    if s.engines:
        targets.append("engine")
    if s.black_knight_black:
        targets.append("black_knight")
    if s.lancelot_black:
        targets.append(s.lancelot_stage)
    if s.grail_black and s.grail_black[-1] == "despair":
        targets.append("grail")
    targets += [w for w in cat.WARS if s.war_black[w]]
    return targets


def special_actions(s: BoardState, seat: int) -> list[Action]:
    """Heroic action type C: every special white card the seat may play now, with its choices."""
    acts: list[Action] = []
    others = [i for i in ops.living(s) if i != seat]
    for card in sorted({c for c in s.hands[seat] if c in cat.SPECIAL_WHITE}):
        if card == "merlin":
            if not s.vivien:
                acts += [Action("play", ("merlin", t)) for t in _merlin_targets(s)]
        elif card in ("fate", "piety", "reinforcements"):
            acts.append(Action("play", (card, "self" if card != "fate" else "draw")))
            if card != "fate":  # Fate's other use, the Traitor's unmasking, is a free action (see turns)
                acts.append(Action("play", (card, "others")))
        elif card == "heroism":
            acts += [Action("play", ("heroism", q)) for q in cat.QUESTS if quest_open(s, q)]
        elif card == "messenger":
            acts += [Action("play", ("messenger", i)) for i in others]
        elif card == "clairvoyance":
            if s.black_deck:
                acts.append(Action("play", (card,)))
        else:  # convocation, lady_of_the_lake
            acts.append(Action("play", (card,)))
    return acts


def heal_actions(s: BoardState, seat: int) -> list[Action]:
    return [Action("heal", (c,)) for c, k in sorted(Counter(s.hands[seat]).items()) if k >= 3]


def play_special(s: BoardState, seat: int, action: Action, ev: Events) -> None:
    """`play:<card>[:<choice>]`: the card is shown and discarded (Heroism stays on its quest), then it acts."""
    card, arg = action.args[0], (action.args[1] if len(action.args) > 1 else None)
    ops.take_card(s, seat, card, known.EVERYONE)
    ev.append(public("special_played", seat=seat, card=card, arg=arg))
    if card != "heroism":
        s.white_discard.append(card)
    EFFECTS[card](s, seat, arg, ev)


def _fate(s: BoardState, seat: int, arg: Any, ev: Events) -> None:
    """Everyone draws a white card; or the Traitor unmasks himself and every knight discards two."""
    if arg == "reveal":
        traitor.reveal_traitor(s, seat, ev, "fate")
        black_specials.everyone_discards(s, cat.FATE_REVEAL_DISCARD)
    else:
        for i in ops.living(s):
            ops.deal_white(s, i, 1, ev, "fate")


def _self_or_others(
    s: BoardState, seat: int, arg: Any, give: Callable[[BoardState, int, int, Events, str], None], own: int,
    ev: Events, why: str,
) -> None:
    """Piety's life, Reinforcements' cards: `own` to the player ("self"), or one to every other living knight."""
    for i, k in [(seat, own)] if arg == "self" else [(i, 1) for i in ops.living(s) if i != seat]:
        give(s, i, k, ev, why)


def _piety(s: BoardState, seat: int, arg: Any, ev: Events) -> None:
    _self_or_others(s, seat, arg, ops.change_life, cat.PIETY_SELF, ev, "piety")


def _reinforcements(s: BoardState, seat: int, arg: Any, ev: Events) -> None:
    _self_or_others(s, seat, arg, ops.deal_white, cat.REINFORCEMENTS_DRAW, ev, "reinforcements")


def _heroism(s: BoardState, seat: int, arg: Any, ev: Events) -> None:
    s.heroism = arg


def _lady_of_the_lake(s: BoardState, seat: int, arg: Any, ev: Events) -> None:
    if quest_open(s, "excalibur"):
        excalibur.move(s, 1, seat, ev)
    else:
        ops.change_life(s, seat, cat.LADY_LIFE, ev, "lady_of_the_lake")


def _messenger(s: BoardState, seat: int, arg: Any, ev: Events) -> None:
    ops.push(s, {"kind": "messenger", "target": arg, "given": 0})


def _clairvoyance(s: BoardState, seat: int, arg: Any, ev: Events) -> None:
    look = s.black_deck[-cat.CLAIRVOYANCE_LOOK:][::-1]
    del s.black_deck[-len(look):]
    ev.append(private("black_seen", seat, cards=list(look), why="clairvoyance"))
    ops.push(s, {"kind": "clairvoyance", "cards": look, "chosen": []})


def _convocation(s: BoardState, seat: int, arg: Any, ev: Events) -> None:
    away = [i for i in ops.living(s) if s.loc[i] != cat.CAMELOT]
    ops.push(s, {"kind": "convocation", "waiting": away, "going": []})
    if not away:
        _convocation_draw(s, ev)


def _merlin(s: BoardState, seat: int, target: Any, ev: Events) -> None:
    if target == "engine":
        s.engines -= 1
        ev.append(public("siege_engines", count=-1, total=s.engines, why="merlin"))
    elif target in cat.FIGHT_QUESTS:
        _, black = fight.fight_rows(s, target)
        s.black_discard.append(black.pop()[0])
    elif target == "grail":
        s.black_discard.append(s.grail_black.pop())
    else:
        s.black_discard.append(s.war_black[target].pop())
    ev.append(public("merlin", target=target))


def heal(s: BoardState, seat: int, card: str, ev: Events) -> None:
    """Three identical cards discarded face down (seed 002 FAQ: "met afbeelding naar beneden"): the table learns that
    he healed, not with which cards."""
    for _ in range(3):
        ops.discard_card(s, seat, card, ())
    ev.append(public("healed", seat=seat))
    ops.change_life(s, seat, 1, ev, "heal")


def _convocation_draw(s: BoardState, ev: Events) -> None:
    here = ops.present(s, cat.CAMELOT)
    proposer = s.current if s.current in here else (here[0] if here else None)
    splits.start_split(s, ops.draw_white(s, len(here)), here, proposer, "convocation", ev)


EFFECTS: dict[str, Callable[[BoardState, int, Any, Events], None]] = {
    "merlin": _merlin, "fate": _fate, "piety": _piety, "reinforcements": _reinforcements, "heroism": _heroism,
    "lady_of_the_lake": _lady_of_the_lake, "messenger": _messenger, "clairvoyance": _clairvoyance,
    "convocation": _convocation,
}
"""What each special white card does once played: `effect(state, seat, choice, events)`."""


@decision("convocation", rule="B-TURN")
class _Convocation:
    """Every knight away from Camelot may return; then one white card per knight in Camelot is shared."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return list(frame["waiting"])

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("stay"), Action("return")]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        frame["waiting"].remove(seat)
        if action.kind == "return":
            frame["going"].append(seat)
        if frame["waiting"]:
            return
        s.frames.pop()
        for i in frame["going"]:
            if s.alive[i] and not s.revealed[i]:
                rewards.leave_location(s, i, cat.CAMELOT)
                ev.append(public("moved", seat=i, to=cat.CAMELOT, why="convocation"))
        _convocation_draw(s, ev)

    @staticmethod
    def timeout(s: BoardState, frame: Frame, seat: int) -> Action:
        return Action("stay")


@decision("messenger", rule="B-TURN", turn=True)
class _Messenger:
    """Give up to 3 white cards to the chosen knight, one at a time (it lapses if he leaves the board)."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        target = frame["target"]
        return [s.current] if s.alive[target] and not s.revealed[target] else []

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("done")] + [Action("give", (c,)) for c in sorted(set(s.hands[seat]))]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        if action.kind == "give":
            card, target = action.args[0], frame["target"]
            ops.take_card(s, seat, card, (target,))
            s.hands[target].append(card)
            known.gained(s, target, [card], (seat,))
            frame["given"] += 1
            ev.append(public("white_given", seat=seat, to=target, count=1))
            ev.append(private("white_received", [seat, target], seat=seat, to=target, card=card))
        if action.kind == "done" or frame["given"] >= cat.MESSENGER_MAX or not s.hands[seat]:
            s.frames.pop()


@decision("clairvoyance", rule="B-TURN", turn=True)
class _Clairvoyance:
    """Put the looked-at black cards back in the order of choice: pick the next card from the top each time."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("top", (i,)) for i in range(len(frame["cards"]))]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        frame["chosen"].append(frame["cards"].pop(action.args[0]))
        if len(frame["cards"]) > 1:
            return
        s.frames.pop()
        order = frame["chosen"] + frame["cards"]
        s.black_deck.extend(reversed(order))
        for i in range(s.n):
            s.peeks[i] = []
        s.peeks[seat] = list(order)
        ev.append(public("black_reordered", seat=seat, count=len(order)))


