"""What things are worth to a loyal knight (sword units): cards in hand, a step on a quest, a move, a siege fight,
a heal, each special white card. `loyal` scores each action with these."""

from __future__ import annotations

from typing import Any

from engine.board import catalogue as cat
from engine.bots.board import weights as W
from engine.bots.board.knowledge import (
    Seen,
    black_harm,
    black_rate,
    engine_cost,
    expected_black_harm,
    fight_odds,
    fight_plan,
    life_cost,
    loss_cost,
)


def card_worth(s: Seen, card: str) -> float:
    """How much the knight wants to keep a white card (low = spend or discard it first)."""
    if card in cat.FIGHT_VALUE:
        v = cat.FIGHT_VALUE[card]
        needed = any(s.quests[w]["needed"] == v for w in cat.WARS)
        return 0.2 + 0.06 * v + (0.15 if needed else 0) + (0.1 if s.counts[card] in (2, 3) else 0)
    if card == "grail":
        return 0.55 if s.is_open("grail") and not s.view["dark_forest"] else 0.12
    if card == "merlin":
        return W.MERLIN_KEEP
    return 0.6


def card_gain(hand_size: int) -> float:
    """What one more white card is worth with this many in hand."""
    return next((gain for most, gain in W.CARD_GAIN if hand_size <= most), 0.0)


# --- the Evil phase ----------------------------------------------------------------------------------


def evil_cost(s: Seen, choice: str) -> float:
    if choice == "siege":
        return engine_cost(s.engines + 1)
    if choice == "life":
        return life_cost(s.life) + (0.3 if s.life <= 4 else 0)
    return black_harm(s, s.top[0]) if s.top else expected_black_harm(s)


# --- quest progress ----------------------------------------------------------------------------------


def _race(needed: float, left: float, ours: float, theirs: float) -> float:
    """Chance the knights make `needed` steps before Evil makes `left` (steps per round `ours`, `theirs`)."""
    if needed <= 0:
        return 1.0
    if left <= 0:
        return 0.0
    x, y = left / max(theirs, 0.05), needed / max(ours, 0.05)
    return x * x / (x * x + y * y)


def _group_state(s: Seen, quest: str) -> tuple[float, float, str]:
    """(white steps still needed, black steps Evil still needs, black share kind) of a group quest."""
    q = s.quests[quest]
    if quest == "grail":
        spots = q["spots"]
        white = spots.count("grail")
        black = sum(1 for x in spots if x not in ("grail", None))
        full = white + black == cat.GRAIL_SPOTS
        return cat.GRAIL_SPOTS - white + (1 if full else 0), cat.GRAIL_SPOTS - black, "grail"
    if quest == "excalibur":
        return cat.EXCALIBUR_WIN - q["position"], q["position"], "excalibur"
    full = len(cat.WAR_RUN) + (1 if q["mordred"] else 0)
    return full - len(q["white"]), cat.WAR_FIGURES - q["figures"], "war"


def group_step_value(s: Seen, quest: str, extra_company: int = 0) -> float:
    """Worth of one more white step on Grail, Excalibur or a war, by the race it changes."""
    needed, left, share = _group_state(s, quest)
    company = len(s.present(quest)) + extra_company
    mine = _my_steps(s, quest)
    ours = 1.0 + W.COMPANY * company if mine >= needed else 0.6 + W.COMPANY * company
    theirs = black_rate(s, share)
    odds = _race(needed, left, ours, theirs)
    gain = _race(needed - 1, left, ours, theirs) - odds
    finish = 0.15 if needed <= 1 else 0.0
    return W.SWING[quest] * (odds / max(needed, 1) + gain) + finish


def _my_steps(s: Seen, quest: str) -> int:
    """How many steps this knight's own hand can make on a group quest."""
    if quest == "grail":
        return 0 if s.view["dark_forest"] else s.counts["grail"]
    if quest == "excalibur":
        return len(s.hand)
    q = s.quests[quest]
    steps, need = 0, q["needed"]
    have = list(s.values)
    while need is not None and need in have:
        have.remove(need)
        steps += 1
        need = need + 1 if need < cat.WAR_RUN[-1] else (cat.MORDRED_EXTRA if q["mordred"] and steps else None)
        if need == cat.MORDRED_EXTRA and not q["mordred"]:
            break
    return steps


def fight_value(s: Seen, quest: str, v: int) -> float:
    """Worth of playing a fight card of value `v` on a fight quest now."""
    played = [cat.FIGHT_VALUE[c] for c in s.quests[quest]["white"]]
    plan = fight_plan(played, s.values, quest)
    if plan is None or v not in plan:
        if quest == "dragon":  # a group fight: others may complete it
            return 0.25 * W.SWING[quest] / (9 - len(played)) * (0.5 + 0.1 * v)
        return -0.5 if plan is None else -0.1
    odds = fight_odds(s, quest, plan)
    base = W.SWING[quest] * (odds - W.FIGHT_OFFSET) / len(plan)
    return base + 0.04 * v + (0.3 if len(plan) == 1 and odds > 0.5 else 0)


def quest_here_values(s: Seen, where: str, company: int = 0) -> float:
    """Best worth of a quest action at `where` with this hand (for moving there and for staying)."""
    if where == cat.CAMELOT or not s.is_open(where):
        return 0.0
    if where in ("grail", "excalibur") or where in cat.WARS:
        if _my_steps(s, where) == 0 or (where == "grail" and "grail" not in s.hand):
            return 0.0
        value = group_step_value(s, where, company)
        if where == "excalibur":
            value -= min(card_worth(s, c) for c in s.hand)
        return value
    played = [cat.FIGHT_VALUE[c] for c in s.quests[where]["white"]]
    plan = fight_plan(played, s.values, where)
    if plan is None:
        return 0.0
    return max(fight_value(s, where, v) for v in set(plan))


def move_value(s: Seen, to: str) -> float:
    if to == cat.CAMELOT:
        draw = (cat.GAWAIN_DRAW if s.knight == "gawain" else cat.ROUND_TABLE_DRAW) * card_gain(len(s.hand))
        defend = siege_value(s) if s.engines >= 7 else 0.0
        return W.MOVE_DISCOUNT * max(draw, defend) - leave_cost(s)
    if to in cat.SOLO_QUESTS and s.present(to):
        return -1.0
    return W.MOVE_DISCOUNT * quest_here_values(s, to, 0) - leave_cost(s) - 0.05


def leave_cost(s: Seen) -> float:
    """Leaving a solo fight throws away the white cards played there."""
    if s.loc in cat.SOLO_QUESTS and s.is_open(s.loc):
        return 0.35 * len(s.quests[s.loc]["white"])
    return 0.0


def siege_value(s: Seen) -> float:
    """A siege fight with the cheapest fight cards that reach 8 (the d8 is beaten only by a greater sum)."""
    if not s.engines:
        return -1.0
    total, spent = (1 if s.excalibur else 0), 0.0
    for v in sorted(s.values, reverse=True):
        if total >= cat.SIEGE_DIE:
            break
        total += v
        spent += card_worth(s, cat.FIGHT[v])
    win = min(1.0, max(0, total - 1) / cat.SIEGE_DIE)
    return win * W.SIEGE_RELIEF * engine_cost(s.engines) - (1 - win) * life_cost(s.life) - spent


def heal_value(s: Seen, card: str) -> float:
    if s.life >= cat.MAX_LIFE:
        return -5.0
    return life_cost(s.life) + (0.3 if s.life <= 2 else 0) - 3 * card_worth(s, card) + 0.1


def special_value(s: Seen, card: str, arg: Any) -> float:
    if card == "merlin":
        return _merlin_value(s, arg) - W.MERLIN_KEEP
    living = len(s.living)
    if card == "piety":
        if arg == "self":
            return sum(life_cost(min(cat.MAX_LIFE, s.life + k)) for k in range(1, 4)) * 0.5 - 0.8
        return 0.35 * (living - 1) - 0.8
    if card == "reinforcements":
        if arg == "self":
            return cat.REINFORCEMENTS_DRAW * card_gain(len(s.hand)) - 0.4
        return 0.3 * (living - 1) - 0.6
    if card == "fate":
        return 0.3 * living - 0.6 if arg == "draw" else -5.0
    if card == "lady_of_the_lake":
        if s.is_open("excalibur"):
            return group_step_value(s, "excalibur") + 0.1
        return life_cost(s.life) * 1.5 - 0.5
    if card == "heroism":
        return _heroism_value(s, arg)
    if card == "convocation":
        return 0.3 * (1 + sum(1 for i in s.living if s.view["seats"][i]["location"] == cat.CAMELOT)) - 0.5
    if card == "clairvoyance":
        return 0.35
    return -0.3  # messenger: the bot cannot tell what another hand lacks


def _merlin_value(s: Seen, target: str) -> float:
    if target == "engine":
        return engine_cost(s.engines) + (0.3 if s.engines >= 9 else 0)
    if target in cat.WARS:
        figures = s.quests[target]["figures"]
        return 0.9 * loss_cost(s, target) if figures >= cat.WAR_FIGURES - 1 else 0.3 + 0.15 * figures
    if target == "grail":
        black = sum(1 for x in s.quests["grail"]["spots"] if x not in ("grail", None))
        return 0.9 * loss_cost(s, "grail") if black >= cat.GRAIL_SPOTS - 1 else 0.35 + 0.12 * black
    left = cat.BLACK_SPOTS[target] - len(s.quests[target]["black"])
    return 0.8 * loss_cost(s, target) if left <= 1 else 0.3


def _heroism_value(s: Seen, quest: str) -> float:
    if quest in ("grail", "excalibur") or quest in cat.WARS:
        needed, left, share = _group_state(s, quest)
        odds = _race(needed, left, 1.0 + W.COMPANY * len(s.quests[quest]["knights"]), black_rate(s, share))
    else:
        odds = 0.5 if quest != s.loc else 0.7
    return (2 * odds - 1) * 0.9 - 0.3
