"""The Holy Grail (digest §6, B-QUEST): seven spots filled from the relic by Grail cards and from the far end by
Despair and Desolation; all Grail cards win it, all black lose it. The Dark Forest forbids playing Grail cards until
a quest ends."""

from __future__ import annotations

from engine.board import catalogue as cat
from engine.board import ops
from engine.board.frames import Events
from engine.board.quests import rewards
from engine.board.state import BoardState
from engine.core.actions import Action
from engine.core.events import public

_PLAY = [Action("grail")]


def actions(s: BoardState, seat: int) -> list[Action]:
    return list(_PLAY) if "grail" in s.hands[seat] and not s.dark_forest else []


def act(s: BoardState, seat: int, action: Action, ev: Events) -> None:
    ops.play_white(s, seat, "grail", "grail", ev)
    play_grail_card(s, seat, ev)


def play_grail_card(s: BoardState, seat: int, ev: Events) -> None:
    if s.grail_white + len(s.grail_black) < cat.GRAIL_SPOTS:
        s.grail_white += 1
        if s.grail_white == cat.GRAIL_SPOTS:
            rewards.end_quest(s, "grail", True, seat, ev)
    else:  # full with some black: the Grail card removes the black card nearest the relic, both discarded
        s.black_discard.append(s.grail_black.pop())
        s.white_discard.append("grail")
        ev.append(public("grail_cleansed", seat=seat))


def black_card(s: BoardState, card: str, ev: Events) -> None:
    """Despair, or Desolation: it first takes away a Grail card, then lands as a Despair."""
    if card == "desolation" and s.grail_white:
        s.grail_white -= 1
        s.white_discard.append("grail")
        ev.append(public("grail_lost", why="desolation"))
    place_despair(s, card, ev)


def place_despair(s: BoardState, card: str, ev: Events) -> None:
    """Despair (or Desolation played as one) on the free spot farthest from the relic. On a full quest it is not
    placed: it removes the Grail card farthest from the relic and both are discarded (seed 002 DESPAIR: "wordt de
    kaart niet op het bord gelegd"; seed 004: "la carta non viene posta sul tabellone")."""
    if s.grail_white + len(s.grail_black) >= cat.GRAIL_SPOTS:
        s.grail_white -= 1
        s.white_discard.append("grail")
        s.black_discard.append(card)
        ev.append(public("grail_lost", why=card))
        return
    s.grail_black.append(card)
    ev.append(public("black_placed", quest="grail", card=card))
    if len(s.grail_black) == cat.GRAIL_SPOTS:
        rewards.end_quest(s, "grail", False, None, ev)


def clear(s: BoardState, quest: str) -> None:
    s.white_discard.extend(["grail"] * s.grail_white)
    s.black_discard.extend(s.grail_black)
    s.grail_white = 0
    s.grail_black = []
    s.grail_done = True
    if s.dark_forest:
        s.dark_forest = False
        s.black_discard.append("dark_forest")
