"""How knights and the game end: the Grail's rescue and death (digest §4), the end of the game (§10), and the
three-player rule's reveal of each knight's loyalty. `turns.advance` calls these between every two steps."""

from __future__ import annotations

from engine.board import catalogue as cat
from engine.board import known, ops
from engine.board.frames import Events, Frame, decision
from engine.board.quests import rewards
from engine.board.state import BoardState
from engine.core.actions import Action
from engine.core.events import private, public

# Decisions at the level of a turn's own steps: the game may end by swords only between them.
_TURN_LEVEL = frozenset(("start_turn", "evil", "heroic", "post", "end_turn", "traitor_steal", "traitor_evil"))

# --- life and death ------------------------------------------------------------------------------


@decision("grail_rescue", rule="B-LIFE")
class _GrailRescue:
    """The Grail's holder may let a dying knight drink (himself too): back to 4 life, the Grail leaves the game."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [frame["seat"]] if frame["dying"] in s.doomed else []  # lapses if he left or unmasked meanwhile

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("drink"), Action("decline")]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        s.frames.pop()
        dying = frame["dying"]
        if action.kind == "decline":
            kill(s, dying, ev)
            return
        ops.remove_relic(s, seat, "grail", ev, "drunk")
        s.doomed.remove(dying)
        s.life[dying] = cat.GRAIL_REVIVE_LIFE
        ev.append(public("revived", seat=dying, by=seat, life=s.life[dying]))
        if s.turn.get("excalibur_to_rescuer") == dying:  # he won Excalibur dying: it is his rescuer's (B-LIFE)
            del s.turn["excalibur_to_rescuer"]
            s.relics[seat].append("excalibur")
            ev.append(public("relic_won", seat=seat, relic="excalibur"))
        if dying == s.current and s.turn:
            s.turn["cut"] = True

    @staticmethod
    def timeout(s: BoardState, frame: Frame, seat: int) -> Action:
        return Action("decline")


def kill(s: BoardState, seat: int, ev: Events) -> None:
    """Death: off the board, Excalibur and the Armor leave the game, white cards discarded (B-LIFE)."""
    if seat in s.doomed:
        s.doomed.remove(seat)
    if not s.alive[seat]:
        return
    rewards.leave_location(s, seat, None)
    s.alive[seat] = False
    s.life[seat] = 0
    for relic in list(s.relics[seat]):
        ops.remove_relic(s, seat, relic, ev, "death")
    s.white_discard.extend(s.hands[seat])
    s.hands[seat] = []
    known.cleared(s, seat)
    s.peeks[seat] = []
    ev.append(public("died", seat=seat))


def _before_heroic(s: BoardState) -> bool:
    """The current player's Evil phase is not over: his first heroic action is still ahead."""
    return not s.turn.get("types") and any(f["kind"] == "heroic" for f in s.frames)


def _swords_out(s: BoardState) -> bool:
    return s.swords_white + s.swords_black >= cat.SWORDS_TO_END


def process_deaths(s: BoardState, ev: Events) -> bool:
    """Offer the Grail to (or remove) a knight at 0 life. One dying on his own turn is removed at its end, except in
    his Evil phase: he then takes no heroic action and his cards go at once (B-TURN, seed 002 "Indien je jouw fase
    van 'voortgang van het Kwade' overleeft"); and except when the 12th sword is out: a death is resolved before the
    swords are counted (B-END, seed 002 FAQ: lost "op het ogenblik dat de laatste loyale ridder sterft, zelfs indien
    er 12 of meer zwaarden … op het bord zou komen")."""
    top = s.frames[-1]["kind"] if s.frames else "end_turn"
    for seat in s.doomed:
        if seat == s.current and top != "end_turn" and s.turns and not _before_heroic(s) and not _swords_out(s):
            continue
        holder = ops.relic_holder(s, "grail")
        if holder is not None:
            ops.push(s, {"kind": "grail_rescue", "seat": holder, "dying": seat})
        else:
            kill(s, seat, ev)
        return True
    return False


# --- end of the game -----------------------------------------------------------------------------


_HOLD_CARD = frozenset(("resolve_black", "face", "war_choice"))  # frames holding a drawn black card (`card`)


def _finish(s: BoardState, winner: str, reason: str, ev: Events) -> None:
    s.result = {
        "winner": winner, "reason": reason, "loyalty": list(s.loyalty),
        "swords": {"white": s.swords_white, "black": s.swords_black}, "siege_engines": s.engines,
    }
    for frame in s.frames:  # cards a decision held when the game ended go to their discard piles
        held = [frame["card"]] if frame["kind"] in _HOLD_CARD else []
        if frame["kind"] != "window":  # (its card is the one its resolve_black step holds)
            held += frame.get("cards", []) + (frame.get("chosen", []) if frame["kind"] == "clairvoyance" else [])
        for card in held:
            (s.white_discard if card in cat.WHITE_COUNTS else s.black_discard).append(card)
    s.frames.clear()
    ev.append(public("game_over", **s.result))


def check_end(s: BoardState, ev: Events) -> bool:
    if s.engines >= cat.MAX_ENGINES:
        _finish(s, "evil", "siege_engines", ev)
    elif s.swords_black >= cat.BLACK_SWORDS_LOSE:
        _finish(s, "evil", "black_swords", ev)
    elif (False in s.alive or True in s.revealed) and not any(
        s.alive[i] and not s.revealed[i] and s.loyalty[i] == "loyal" for i in range(s.n)
    ):
        _finish(s, "evil", "loyal_dead", ev)
    elif _swords_out(s) and not s.doomed and (not s.frames or s.frames[-1]["kind"] in _TURN_LEVEL):
        for i in range(s.n):
            if s.loyalty[i] == "traitor" and s.alive[i] and not s.revealed[i] and i not in s.doomed:
                s.loyalty_seen[i] = True
                ev.append(public("traitor_revealed", seat=i, why="end"))
                for _ in range(cat.TRAITOR_END_FLIP):
                    ops.flip_white_sword(s, ev, "traitor")
        won = s.swords_white > s.swords_black and s.swords_black < cat.BLACK_SWORDS_LOSE
        _finish(s, "loyal" if won else "evil", "swords", ev)
    else:
        return False
    return True


def three_player_rule(s: BoardState, ev: Events) -> None:
    """Three brave knights (B-VAR): each knight sees his loyalty card once 6 swords (or, by default, 6 siege
    engines) are out; `three_player_trigger` is a [choice] between the seeds (see the catalogue)."""
    swords = s.swords_white + s.swords_black >= cat.ACCUSE_THRESHOLD
    engines = s.engines >= cat.ACCUSE_THRESHOLD and s.config.get("three_player_trigger") != "swords"
    if swords or engines:  # (a state cached before the key existed has the default)
        for i in range(s.n):
            if not s.loyalty_seen[i]:
                s.loyalty_seen[i] = True
                ev.append(private("loyalty", i, seat=i, loyalty=s.loyalty[i]))
