"""The turn (digest §3, B-TURN, B-SACRIFICE): the Progression of Evil, one heroic action of five types (a move here;
the others in `quests`, `white_cards`, `traitor`), the sacrifice for a second one, and the loop that runs automatic
steps, deaths and the end checks (`ending`) until somebody has to decide. The revealed Traitor's turn is `traitor`'s."""

from __future__ import annotations

from engine.board import blacks, ending, knights, ops, traitor, white_cards
from engine.board import catalogue as cat
from engine.board.frames import AUTO, DECISIONS, Events, Frame, auto, decision
from engine.board.quests import rewards
from engine.board.quests.actions import do_quest_action, quest_actions
from engine.board.state import BoardState
from engine.board.views import quest_open
from engine.core.actions import Action
from engine.core.events import public

# A knight's own decisions that a Traitor unmasking himself mid-way cannot go on with (his Evil step and a war
# choice he still makes, as on his revealed turns; the heroic steps are skipped).
_KNIGHTS_ONLY = frozenset(("face", "siege", "messenger", "clairvoyance", "percival", "deal_first"))
_END = Action("end")
_SACRIFICE = Action("sacrifice")


def begin_turn(s: BoardState) -> None:
    ops.push(s, {"kind": "start_turn"})


@auto("start_turn")
def _start_turn(s: BoardState, frame: Frame, ev: Events) -> None:
    s.turns += 1
    s.turn = {"types": [], "sacrificed": False, "special": False, "galahad": False, "tristan": False,
              "arthur": False, "percival": False, "cut": False}
    ev.append(public("turn", seat=s.current, turn=s.turns))
    if s.revealed[s.current]:
        ops.push(s, {"kind": "traitor_steal"}, {"kind": "traitor_evil"}, {"kind": "end_turn"})
    else:
        ops.push(s, {"kind": "evil"}, {"kind": "heroic"}, {"kind": "post"}, {"kind": "end_turn"})


@auto("end_turn")
def _end_turn(s: BoardState, frame: Frame, ev: Events) -> None:
    k = s.order.index(s.current)
    for step in range(1, len(s.order) + 1):
        nxt = s.order[(k + step) % len(s.order)]
        if s.alive[nxt]:
            s.current = nxt
            begin_turn(s)
            return


# --- Progression of Evil -------------------------------------------------------------------------


def evil_options(s: BoardState) -> list[Action]:
    acts = [Action("evil", ("black",)), Action("evil", ("siege",))]
    if not s.black_deck and not s.black_discard:
        acts.pop(0)
    return acts


@decision("evil", rule="B-TURN", turn=True)
class _Evil:
    """Draw a black card, add a siege engine, or lose a life point (Percival may look at the top card first)."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        if s.revealed[seat]:  # he unmasked himself with Fate a moment ago: no life to lose
            return evil_options(s)
        acts = evil_options(s) + [Action("evil", ("life",))]
        if s.knight[seat] == "percival" and not s.turn["percival"] and s.black_deck:
            acts.append(Action("peek"))
        return acts + traitor.standing_actions(s, seat)

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        if action.kind == "peek":
            s.turn["percival"] = True
            knights.percival_look(s, seat, ev)
            return
        s.frames.pop()
        evil(s, seat, action.args[0], ev)


def evil(s: BoardState, seat: int, choice: str, ev: Events) -> None:
    ev.append(public("evil", seat=seat, choice=choice))
    if choice == "black":
        blacks.start_evil_draw(s, seat)
    elif choice == "siege":
        ops.add_engines(s, 1, ev, "evil")
    else:
        ops.change_life(s, seat, -1, ev, "evil")


# --- Heroic actions ------------------------------------------------------------------------------


_MOVE = {where: Action("move", (where,)) for where in cat.LOCATIONS}


def moves(s: BoardState, seat: int) -> list[Action]:
    here = s.loc[seat]
    taken = {s.loc[i] for i in range(s.n) if s.alive[i] and not s.revealed[i]} & cat.SOLO_QUESTS
    return [
        _MOVE[where] for where in cat.LOCATIONS
        if where != here and where not in taken and (where == cat.CAMELOT or quest_open(s, where))
    ]


def heroic_actions(s: BoardState, seat: int) -> list[Action]:
    return (_normal_actions(s, seat) or moves(s, seat)) + knights.free_actions(s, seat)


def _normal_actions(s: BoardState, seat: int) -> list[Action]:
    """Heroic actions of the types still open this turn (a sacrifice's second action needs a new type).
    When none is possible the knight must move (digest §3), which `heroic_actions` falls back to."""
    used = s.turn["types"]
    acts: list[Action] = []
    if "move" not in used and not s.turn["tristan"] and not knights.tristan_free(s, seat):
        acts += moves(s, seat)
    if "quest" not in used:
        acts += quest_actions(s, seat)
    if "special" not in used and not s.turn["special"]:
        acts += white_cards.special_actions(s, seat)
    if "heal" not in used:
        acts += white_cards.heal_actions(s, seat)
    if "accuse" not in used:
        acts += traitor.accuse_actions(s, seat)
    return acts


def _has_normal_action(s: BoardState, seat: int) -> bool:
    """Cheap test that a second heroic action is possible (so a sacrifice is worth offering): stops at the first."""
    used = s.turn["types"]
    if "move" not in used and not s.turn["tristan"] and not knights.tristan_free(s, seat) and moves(s, seat):
        return True
    if "quest" not in used and quest_actions(s, seat):
        return True
    if "heal" not in used and white_cards.heal_actions(s, seat):
        return True
    if "accuse" not in used and traitor.accuse_actions(s, seat):
        return True
    return bool(_normal_actions(s, seat))


def _action_type(action: Action) -> str:
    return {"move": "move", "play": "special", "heal": "heal", "accuse": "accuse"}.get(action.kind, "quest")


def move(s: BoardState, seat: int, where: str, ev: Events) -> None:
    rewards.leave_location(s, seat, where)
    ev.append(public("moved", seat=seat, to=where))


@decision("heroic", rule="B-TURN", turn=True)
class _Heroic:
    """One heroic action of the five types (move, quest action, special card, heal, accuse), plus free powers."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return heroic_actions(s, seat)

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        if knights.do_free(s, seat, action, ev):
            return
        s.frames.pop()
        kind = _action_type(action)
        s.turn["types"].append(kind)
        if kind == "move":
            move(s, seat, action.args[0], ev)
        elif kind == "special":
            s.turn["special"] = True
            white_cards.play_special(s, seat, action, ev)
        elif kind == "heal":
            white_cards.heal(s, seat, action.args[0], ev)
        elif kind == "accuse":
            traitor.accuse(s, seat, action.args[0], ev)
        else:
            do_quest_action(s, seat, action, ev)


def post_actions(s: BoardState, seat: int) -> list[Action]:
    acts = [_END]
    if not s.turn["sacrificed"] and s.life[seat] > 0 and seat not in s.doomed and _has_normal_action(s, seat):
        acts.append(_SACRIFICE)
    return acts + knights.free_actions(s, seat)


@decision("post", rule="B-SACRIFICE", turn=True)
class _Post:
    """After the heroic action: end the turn, sacrifice a life for a second action of another type, or use a power."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return post_actions(s, seat)

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        if action.kind == "end":
            s.frames.pop()
        elif action.kind == "sacrifice":
            s.turn["sacrificed"] = True
            ev.append(public("sacrifice", seat=seat))
            ops.change_life(s, seat, -1, ev, "sacrifice")
            ops.push(s, {"kind": "heroic"})
        else:
            knights.do_free(s, seat, action, ev)


def _skip(s: BoardState, kind: str) -> bool:
    cur = s.current
    if kind in ("heroic", "post") and (s.turn.get("cut") or not s.alive[cur] or s.revealed[cur]):
        return True
    if kind != "post":
        return False
    if cur in s.doomed:
        return True
    acts = post_actions(s, cur)
    if acts == [_END]:
        return True
    s.cache = (cur, acts)  # the decision stands: keep its legal actions for the coming look-up
    return False


def advance(s: BoardState, ev: Events) -> None:
    """Run automatic steps, deaths and end checks until a decision is due or the game is over."""
    while True:
        if s.result is not None or ending.check_end(s, ev):
            return
        if not all(s.loyalty_seen):
            ending.three_player_rule(s, ev)
        if s.doomed and s.frames[-1]["kind"] != "grail_rescue" and ending.process_deaths(s, ev):
            continue
        top = s.frames[-1]
        kind = top["kind"]
        step = AUTO.get(kind)
        if step is not None:
            s.frames.pop()
            step(s, top, ev)
            continue
        if _skip(s, kind):
            s.frames.pop()
            continue
        dec = DECISIONS[kind]
        if dec.turn and (not s.alive[s.current] or (s.revealed[s.current] and kind in _KNIGHTS_ONLY)):
            _close_for_the_dead(s, top, ev)
            continue
        asked = dec.who(s, top)
        if not asked:
            s.frames.pop()
            continue
        if not dec.turn:
            gone = [i for i in asked if not s.alive[i] or s.revealed[i]]
            if gone:
                _answer_for_gone(s, top, gone[0], ev)
                continue
        return


def _close_for_the_dead(s: BoardState, frame: Frame, ev: Events) -> None:
    """The current player left the board mid-turn (died, or unmasked himself with Fate): his turn's steps lapse; a
    card he was placing is placed the plain way (face up, a siege rolled with the cards already added)."""
    dec = DECISIONS[frame["kind"]]
    legal = [] if frame["kind"] in ("evil", "heroic", "post") else dec.legal(s, frame, s.current)
    if legal:
        dec.act(s, frame, s.current, legal[0], ev)
    else:
        s.frames.pop()


def _answer_for_gone(s: BoardState, frame: Frame, seat: int, ev: Events) -> None:
    """A knight who died or was revealed while asked: his answer is the safe default, or the question lapses."""
    dec = DECISIONS[frame["kind"]]
    default = dec.timeout(s, frame, seat) if dec.timeout else None
    if frame["kind"] == "split" and default == Action("refuse"):
        default = Action("accept")
    if default is not None and default in dec.legal(s, frame, seat):
        dec.act(s, frame, seat, default, ev)
    elif "waiting" in frame:
        frame["waiting"].remove(seat)
    else:
        s.frames.pop()
