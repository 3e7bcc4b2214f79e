"""What the three fight quests share (digest §6, B-QUEST): fight cards laid to a pattern of groups of distinct values,
black cards placed (Black Knight and Lancelot/Dragon cards may go face down), and the fight's end when either side's
spots are full: the black cards are revealed, Sir Kay may add a card, and white must beat black (ties go to Evil).
Each quest's own rows and values are in `black_knight`, `lancelot` and `dragon`."""

from __future__ import annotations

from collections import Counter
from types import ModuleType

from engine.board import catalogue as cat
from engine.board import ops
from engine.board.frames import Events, Frame, auto
from engine.board.quests import black_knight, dragon, lancelot, rewards
from engine.board.state import BoardState
from engine.core.actions import Action
from engine.core.events import private, public

FIGHTS: dict[str, ModuleType] = {m.QUEST: m for m in (black_knight, lancelot, dragon)}


def fight_rows(s: BoardState, quest: str) -> tuple[list[str], list[list]]:
    return FIGHTS[quest].rows(s)


def pattern_ok(values: list[int], quest: str) -> bool:
    """The white spots can still be completed with groups of DISTINCT values (e.g. two pairs for the Black Knight)."""
    counts = sorted(Counter(values).values(), reverse=True)
    groups = cat.FIGHT_PATTERN[quest]
    return len(counts) <= len(groups) and all(c <= g for c, g in zip(counts, groups, strict=False))


def fight_values(hand: list[str]) -> list[int]:
    return sorted({cat.FIGHT_VALUE[c] for c in hand if c in cat.FIGHT_VALUE})


def actions(s: BoardState, seat: int) -> list[Action]:
    where = s.loc[seat]
    white, _ = fight_rows(s, where)
    played = [cat.FIGHT_VALUE[c] for c in white]
    return [Action("fight", (v,)) for v in fight_values(s.hands[seat]) if pattern_ok([*played, v], where)]


def act(s: BoardState, seat: int, action: Action, ev: Events) -> None:
    where = s.loc[seat]
    card = ops.play_white(s, seat, cat.FIGHT[action.args[0]], where, ev)
    white, _ = fight_rows(s, where)
    white.append(card)
    if len(white) == sum(cat.FIGHT_PATTERN[where]):
        start_fight_end(s, where, seat)


def place_black(s: BoardState, quest: str, card: str, down: bool, drawer: int, ev: Events) -> None:
    """A black card on a fight quest: face down only its drawer knows it, and he takes one white card for it."""
    _, black = fight_rows(s, quest)
    black.append([card, down, drawer])
    if down:
        ev.append(public("black_placed", quest=quest, card="hidden"))
        ev.append(private("face_down_value", drawer, quest=quest, card=card))
        ops.deal_white(s, drawer, 1, ev, "face_down")
    else:
        ev.append(public("black_placed", quest=quest, card=card))
    if len(black) == cat.BLACK_SPOTS[quest]:
        start_fight_end(s, quest, None)


def start_fight_end(s: BoardState, quest: str, by: int | None) -> None:
    """Last white or black spot filled: Sir Kay may add a card after the reveal, then the sums are compared."""
    result = {"kind": "fight_result", "quest": quest, "by": by, "bonus": 0}
    kay = [i for i in ops.present(s, quest) if s.knight[i] == "kay" and i not in s.doomed and s.hands[i]]
    if kay:
        ops.push(s, {"kind": "fight_reveal", "quest": quest}, {"kind": "kay", "seat": kay[0]}, result)
    else:
        ops.push(s, {"kind": "fight_reveal", "quest": quest}, result)


@auto("fight_reveal")
def _fight_reveal(s: BoardState, frame: Frame, ev: Events) -> None:
    _, black = fight_rows(s, frame["quest"])
    s.rng.shuffle(black)
    for row in black:
        row[1] = False
    ev.append(public("black_revealed", quest=frame["quest"], cards=[r[0] for r in black]))


@auto("fight_result")
def _fight_result(s: BoardState, frame: Frame, ev: Events) -> None:
    quest = frame["quest"]
    white, black = fight_rows(s, quest)
    here = ops.present(s, quest)
    bonus = frame["bonus"] + (1 if ops.relic_holder(s, "excalibur") in here else 0)
    w = sum(cat.FIGHT_VALUE[c] for c in white) + bonus
    b = sum(FIGHTS[quest].black_value(r[0]) for r in black)
    ev.append(public("fight", quest=quest, white=w, black=b, won=w > b))
    by = frame["by"] if frame["by"] is not None else (here[0] if here else None)
    rewards.end_quest(s, quest, w > b, by, ev)


def clear(s: BoardState, quest: str) -> None:
    """The quest's cards go to the discard piles; Lancelot turns over to the Dragon, the Dragon closes."""
    white, black = fight_rows(s, quest)
    s.white_discard.extend(white)
    s.black_discard.extend(r[0] for r in black)
    white.clear()
    black.clear()
    FIGHTS[quest].cleared(s)


def leave(s: BoardState, quest: str) -> None:
    """A knight leaving a solo quest before it ends discards the white cards played there (black cards stay)."""
    white, _ = fight_rows(s, quest)
    s.white_discard.extend(white)
    white.clear()

