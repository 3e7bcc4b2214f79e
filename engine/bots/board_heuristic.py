"""A heuristic board-game player: scores each legal action with a few rules of thumb and takes the best.

Playing as loyal it pushes quests forward, heals when low and keeps Camelot safe; playing for a Traitor it
stalls quests and feeds Evil. The service uses `as_loyal=True` for a seat that timed out, whatever its loyalty,
so a timeout never reveals alignment.
"""

from __future__ import annotations

import random
from typing import Any

from engine.board import catalogue as cat
from engine.core.actions import Action
from engine.core.game import Game


class BoardHeuristicBot:
    def __init__(self, as_loyal: bool = False) -> None:
        self.as_loyal = as_loyal

    def choose(self, game: Game, state: Any, seat: int, rng: random.Random) -> Action:
        actions = game.legal_actions(state, seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has nothing to decide")
        traitor = not self.as_loyal and state.loyalty[seat] == "traitor" and state.loyalty_seen[seat]
        score = _traitor_score if traitor else _loyal_score
        best, best_score = [], float("-inf")
        for action in actions:
            value = score(state, seat, action)
            if value > best_score:
                best, best_score = [action], value
            elif value == best_score:
                best.append(action)
        return best[rng.randrange(len(best))]


def _fight_count(hand: list[str]) -> int:
    return sum(1 for c in hand if c in cat.FIGHT_VALUE)


def _card_worth(card: str) -> float:
    """How much a loyal knight wants to keep a white card (low = discard it first)."""
    if card in cat.FIGHT_VALUE:
        return cat.FIGHT_VALUE[card]
    return {"grail": 3.5, "merlin": 6}.get(card, 5)


def _loyal_score(s: Any, seat: int, a: Action) -> float:
    kind, args = a.kind, a.args
    life, hand = s.life[seat], s.hands[seat]
    if kind == "evil":
        threat = _threat(s)
        if args[0] == "life":
            return 6 if life >= 5 else (4 if life >= 4 and threat else -5)
        if args[0] == "siege":
            return 4.5 if s.engines <= 3 else (3 if s.engines <= 7 and threat else -2)
        return 3.5 - 1.5 * threat
    if kind == "peek":
        return 10
    if kind == "heal":
        return 9 if life <= 2 else (1 if life < cat.MAX_LIFE else -9)
    if kind == "fight":
        return 8 + args[0] / 10
    if kind == "grail":
        return 8
    if kind == "excal":
        return 7.5 - _card_worth(args[0]) / 10 if len(hand) >= 2 else 3
    if kind == "draw":
        return 7 if len(hand) < 6 else 3
    if kind == "siege":
        strength = sum(sorted((cat.FIGHT_VALUE[c] for c in hand if c in cat.FIGHT_VALUE), reverse=True)[:3])
        return 7.5 if s.engines >= 6 and strength >= 7 else 0
    if kind == "move":
        return _move_score(s, seat, args[0])
    if kind == "play":
        return _special_score(s, seat, args)
    if kind == "accuse":
        return -3
    if kind in ("end", "pass", "stay", "done", "decline"):
        return 0
    if kind == "arthur":  # a blind exchange helps nobody in particular
        return -0.5
    if kind == "sacrifice":
        return 1 if life >= 5 else -1
    if kind == "add":  # siege: add the strongest cards until the sum beats any d8 roll
        return args[0] / 10 if _siege_sum(s) < cat.SIEGE_DIE else -1
    if kind == "roll":
        return 0
    if kind == "kay":
        return args[0]
    if kind in ("give", "discard"):
        if isinstance(args[0], int):  # split proposal: spread cards round the table
            return -sum(1 for x in s.frames[-1]["assign"] if x == args[0])
        return -_card_worth(args[0])
    if kind in ("accept", "drink", "face"):
        return 1 if kind != "face" else (1 if args[0] == "down" else 0)
    if kind == "war":
        return -len(s.war_black[args[0]])
    if kind == "merlin":
        return 0
    if kind == "excalibur":
        return -1
    if kind == "top":
        return 0
    return 0


def _threat(s: Any) -> int:
    """How many quests one more black card would lose."""
    near = [
        len(s.bk_black) == cat.BLACK_SPOTS["black_knight"] - 1,
        s.lance_stage != "done" and len(s.lance_black) == cat.BLACK_SPOTS["lancelot"] - 1,
        not s.grail_done and len(s.grail_black) == cat.GRAIL_SPOTS - 1,
        not s.excal_done and s.excal_pos == 1,
        *(len(s.war_black[w]) == cat.WAR_FIGURES - 1 for w in cat.WARS),
    ]
    return sum(near)


def _siege_sum(s: Any) -> int:
    return sum(cat.FIGHT_VALUE[c] for c in s.frames[-1].get("cards", []))


def _move_score(s: Any, seat: int, to: str) -> float:
    """Go where the knight can help most: a quest in danger that his hand can push forward."""
    hand = s.hands[seat]
    here = s.loc[seat]
    stay = 0.0 if here == cat.CAMELOT else _usefulness(s, seat, here)
    if to == cat.CAMELOT:  # refill a thin hand, or defend the walls
        defend = 4 if s.engines >= 8 and _fight_count(hand) >= 2 else 0
        return min(_MOVE_CAP, 1.5 + max(defend, 1.3 * max(0, 5 - len(hand))) - stay)
    return min(_MOVE_CAP, 1.5 + _usefulness(s, seat, to) - stay)


_MOVE_CAP = 6.5  # acting where one stands (quest actions score 7+) beats travelling


def _usefulness(s: Any, seat: int, quest: str) -> float:
    """What the knight's hand can do for a quest, plus company: knights on one group quest finish it together."""
    company = sum(1 for i in range(s.n) if i != seat and s.alive[i] and s.loc[i] == quest)
    base = _hand_for(s, seat, quest)
    if base <= 0 or quest in cat.SOLO_QUESTS:
        return base
    return base + 0.8 * company + (2 if quest == _focus(s) else 0)


_GROUP = ("grail", "excalibur", "dragon", "picts", "saxons")


def _focus(s: Any) -> str:
    """The group quest the whole table should work on: the one its hands can push furthest, weighted by danger."""
    best, best_score = "grail", float("-inf")
    for quest in _GROUP:
        if quest == "grail" and (s.grail_done or s.dark_forest):
            continue
        if (quest == "excalibur" and s.excal_done) or (quest == "dragon" and s.lance_stage != "dragon"):
            continue
        knights = [i for i in range(s.n) if s.alive[i] and not s.revealed[i]]
        there = sum(1 for i in knights if s.loc[i] == quest)  # sticky: the table keeps its focus once there
        score = 3 * there + sum(_hand_for(s, i, quest) for i in knights)
        if score > best_score:
            best, best_score = quest, score
    return best


def _hand_for(s: Any, seat: int, quest: str) -> float:
    hand = s.hands[seat]
    values = [cat.FIGHT_VALUE[c] for c in hand if c in cat.FIGHT_VALUE]
    if quest == "grail":
        return 0 if s.dark_forest or "grail" not in hand else hand.count("grail") + len(s.grail_black)
    if quest == "excalibur":
        return min(len(hand), 4) / 2 + (cat.EXCALIBUR_START - s.excal_pos)
    if quest in cat.WARS:
        played = {cat.FIGHT_VALUE[c] for c in s.war_white[quest]}
        later = sum(0.3 for v in cat.WAR_RUN if v not in played and v in values)
        nxt = min((v for v in cat.WAR_RUN if v not in played), default=cat.MORDRED_EXTRA)
        return (2 + later + len(s.war_black[quest]) / 2) if nxt in values else later
    white, rows = (s.bk_white, s.bk_black) if quest == "black_knight" else (s.lance_white, s.lance_black)
    played = [cat.FIGHT_VALUE[c] for c in white]
    pattern = cat.FIGHT_PATTERN["black_knight" if quest == "black_knight" else "lancelot"] if quest != "dragon" else ()
    fits = sum(1 for v in values if not pattern or played.count(v) < max(pattern))
    pairs = sum(1 for v in set(values) if values.count(v) >= 2)
    return (1 + pairs + fits / 2 + len(rows)) if values else 0


def _special_score(s: Any, seat: int, args: tuple) -> float:
    card = args[0]
    arg = args[1] if len(args) > 1 else None
    if card == "merlin":  # keep Merlins for the triple cancel unless a threat is close
        return 7 if _merlin_urgent(s, arg) else -1
    if card == "piety":
        return 7 if arg == "self" and s.life[seat] <= 2 else 2
    if card == "reinforcements":
        return 3 if arg == "self" else 2
    if card == "fate":
        return 2 if arg == "draw" else -9
    if card == "lady_of_the_lake":
        return 5
    return 1


def _merlin_urgent(s: Any, target: str) -> bool:
    if target == "engine":
        return s.engines >= 8
    if target in cat.WARS:
        return len(s.war_black[target]) >= cat.WAR_FIGURES - 1
    if target == "grail":
        return len(s.grail_black) >= cat.GRAIL_SPOTS - 2
    rows = s.bk_black if target == "black_knight" else s.lance_black
    return len(rows) >= cat.BLACK_SPOTS[target] - 1


def _traitor_score(s: Any, seat: int, a: Action) -> float:
    kind, args = a.kind, a.args
    if kind == "evil":
        return {"siege": 4 if s.engines < 10 else 1, "black": 3, "life": -4}[args[0]]
    if kind in ("fight", "grail"):
        return 1
    if kind == "play" and args[0] == "fate" and len(args) > 1 and args[1] == "reveal":
        return 2
    if kind == "accuse":
        return 3
    if kind in ("refuse", "decline"):
        return 2
    if kind == "face":
        return 1 if args[0] == "down" else 0
    if kind == "steal":
        return len(s.hands[args[0]])
    return _loyal_score(s, seat, a) / 4
