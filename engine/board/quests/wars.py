"""The wars against the Picts and the Saxons (digest §6, B-QUEST): perpetual shared quests with the same rules, so one
module. Knights lay an ascending run of fight cards 1 to 5 (in any order with the `war_any_order` variant; Mordred
asks one more 5) before four figures (Pict or Saxon cards, and Mercenaries the drawer sends) are out."""

from __future__ import annotations

from collections import Counter

from engine.board import catalogue as cat
from engine.board import ops
from engine.board.frames import Events, Frame, decision
from engine.board.quests import fight, rewards
from engine.board.state import BoardState
from engine.board.views import war_needed
from engine.core.actions import Action
from engine.core.events import public


def accepts(s: BoardState, war: str, v: int) -> bool:
    if s.config["war_any_order"]:
        played = Counter(cat.FIGHT_VALUE[c] for c in s.war_white[war])
        allowed = Counter(cat.WAR_RUN)
        if s.mordred == war:
            allowed[cat.MORDRED_EXTRA] += 1
        return played[v] < allowed[v]
    return war_needed(s, war) == v


def actions(s: BoardState, seat: int) -> list[Action]:
    where = s.loc[seat]
    return [Action("fight", (v,)) for v in fight.fight_values(s.hands[seat]) if accepts(s, where, v)]


def act(s: BoardState, seat: int, action: Action, ev: Events) -> None:
    where = s.loc[seat]
    s.war_white[where].append(ops.play_white(s, seat, cat.FIGHT[action.args[0]], where, ev))
    if war_needed(s, where) is None:
        rewards.end_quest(s, where, True, seat, ev)


def add_figure(s: BoardState, war: str, card: str, ev: Events) -> None:
    s.war_black[war].append(card)
    ev.append(public("figure_added", war=war, figures=len(s.war_black[war])))
    if len(s.war_black[war]) >= cat.WAR_FIGURES:
        rewards.end_quest(s, war, False, None, ev)


def clear(s: BoardState, war: str) -> None:
    s.white_discard.extend(s.war_white[war])
    s.black_discard.extend(s.war_black[war])
    s.war_white[war] = []
    s.war_black[war] = []
    if s.mordred == war:
        s.mordred = None
        s.black_discard.append("mordred")


@decision("war_choice", rule="B-BLACK", turn=True)
class _WarChoice:
    """Mercenaries join, or Mordred strengthens, the war of the drawer's choice."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("war", (w,)) for w in cat.WARS]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        s.frames.pop()
        war = action.args[0]
        if frame["card"] == "mordred":
            if s.mordred is not None:  # only one Mordred exists; kept for safety of scripted states
                s.black_discard.append("mordred")
            s.mordred = war
            ev.append(public("mordred", war=war))
        else:
            add_figure(s, war, frame["card"], ev)
