"""The Traitor (digest §9, B-TRAITOR): accusations, his reveal (accused, or unmasking himself with Fate at
any moment of his own turn), and the revealed Traitor's own turn (steal a random white card, then feed Evil)."""

from __future__ import annotations

from engine.board import known, ops, turns
from engine.board.frames import Events, Frame, decision
from engine.board.quests import rewards
from engine.board.state import BoardState
from engine.core.actions import Action
from engine.core.events import private, public


def accuse_actions(s: BoardState, seat: int) -> list[Action]:
    if s.has_accused[seat] or not ops.accusations_open(s):
        return []
    return [Action("accuse", (i,)) for i in ops.living(s) if i != seat]


FATE_REVEAL = Action("play", ("fate", "reveal"))


def standing_actions(s: BoardState, seat: int) -> list[Action]:
    """Fate lets a Traitor who knows his loyalty unmask himself at any moment of his own turn, asked or not, also
    while others decide (B-TRAITOR, seed 002 FATE: "mag de verrader deze kaart in zijn beurt spelen"; not in another
    knight's turn); a dying knight (at 0 life, awaiting the Grail) can no longer act."""
    if (
        seat == s.current and s.turns and s.loyalty[seat] == "traitor" and "fate" in s.hands[seat]
        and s.loyalty_seen[seat] and not s.revealed[seat] and s.alive[seat] and seat not in s.doomed
    ):
        return [FATE_REVEAL]
    return []


def accuse(s: BoardState, seat: int, target: int, ev: Events) -> None:
    s.has_accused[seat] = True
    traitor = s.loyalty[target] == "traitor"
    ev.append(public("accused", seat=seat, target=target, traitor=traitor))
    if traitor:
        ops.add_swords(s, "white", 1, ev, "accusation")
        reveal_traitor(s, target, ev, "accused")
    else:
        s.known_loyal[target] = True
        ops.flip_white_sword(s, ev, "false_accusation")


def reveal_traitor(s: BoardState, seat: int, ev: Events, why: str) -> None:
    """The revealed Traitor discards his white cards, leaves the board, loses Excalibur and the Grail. A question
    he was asked meanwhile is answered for him with its safe default (see `turns.advance`), as for the dead."""
    rewards.leave_location(s, seat, None)
    s.white_discard.extend(s.hands[seat])
    s.hands[seat] = []
    known.cleared(s, seat)
    for relic in ("excalibur", "grail"):
        ops.remove_relic(s, seat, relic, ev, "traitor")
    s.revealed[seat] = True
    s.life[seat] = 0
    if seat in s.doomed:
        s.doomed.remove(seat)
    s.loyalty_seen[seat] = True
    ev.append(public("traitor_revealed", seat=seat, why=why))


# --- the revealed Traitor's turn -----------------------------------------------------------------


@decision("traitor_steal", rule="B-TRAITOR", turn=True)
class _TraitorSteal:
    """The revealed Traitor discards a random white card from the hand of a knight of his choice."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current] if any(s.hands[i] for i in ops.living(s)) else []

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("steal", (i,)) for i in ops.living(s) if s.hands[i]]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        s.frames.pop()
        target = action.args[0]
        hand = s.hands[target]
        card = hand[s.rng.randrange(len(hand))]
        ops.discard_card(s, target, card, ())  # only its holder sees which card he lost
        ev.append(public("stolen", seat=seat, target=target))
        ev.append(private("stolen_card", target, target=target, card=card))


@decision("traitor_evil", rule="B-TRAITOR", turn=True)
class _TraitorEvil:
    """Then he adds a siege engine or draws and applies the top black card."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return turns.evil_options(s)

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        s.frames.pop()
        turns.evil(s, seat, action.args[0], ev)
