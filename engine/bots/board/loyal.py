"""How a loyal knight values each legal action (sword units, higher is better).

The plan in short: draw black cards in the Evil phase unless a cheap engine or a spare life point is safer; push
the quest where one stands when one's cards help, else go where the hand helps most (group quests with company,
solo fights only with a hand that can finish them); refill at the Round Table; fight the siege and spend Merlins
on engines as Camelot nears the twelfth; heal with triples; offer Merlins against the worst special black cards.
Measured against bot-only games, Excalibur and the wars pay best; the Grail is pursued only when cheap (see
`weights.SWING`). An accusation is made only where the public evidence makes its target likely enough to be the
Traitor (`knowledge.traitor_odds`) to be worth the sword a mistake flips.
"""

from __future__ import annotations

from engine.board import catalogue as cat
from engine.bots.board import weights as W
from engine.bots.board.knowledge import (
    Seen,
    black_harm,
    expected_black_harm,
    fight_black_sum,
    life_cost,
    traitor_odds,
)
from engine.bots.board.values import (
    card_gain,
    card_worth,
    evil_cost,
    fight_value,
    group_step_value,
    heal_value,
    leave_cost,
    move_value,
    quest_here_values,
    siege_value,
    special_value,
)
from engine.core.actions import Action

# --- scoring one action --------------------------------------------------------------------------------


def score(s: Seen, a: Action) -> float:
    """The loyal worth of `a` at the decision described by `s`."""
    kind, args = a.kind, a.args
    phase = s.frame.get("kind")
    if kind == "evil":
        return -evil_cost(s, args[0])
    if kind == "peek":
        return 10.0
    if phase in ("heroic", "post"):
        return heroic_score(s, a)
    return RESPONSES.get(phase, _no_opinion)(s, a)


def heroic_score(s: Seen, a: Action) -> float:
    kind, args = a.kind, a.args
    if kind == "fight":
        if s.loc in cat.WARS:
            return group_step_value(s, s.loc) - card_worth(s, cat.FIGHT[args[0]]) * 0.3
        return fight_value(s, s.loc, args[0])
    if kind == "grail":
        return group_step_value(s, "grail")
    if kind == "excal":
        return group_step_value(s, "excalibur") - card_worth(s, args[0])
    if kind == "draw":
        k = cat.GAWAIN_DRAW if s.knight == "gawain" else cat.ROUND_TABLE_DRAW
        return k * card_gain(len(s.hand))
    if kind == "siege":
        return siege_value(s)
    if kind == "move":
        return move_value(s, args[0])
    if kind == "play":
        return special_value(s, args[0], args[1] if len(args) > 1 else None)
    if kind == "galahad":  # the same card for free: the heroic action stays for something else
        return special_value(s, args[0], args[1] if len(args) > 1 else None) + W.FREE_POWER
    if kind == "heal":
        return heal_value(s, args[0])
    if kind == "accuse":
        return accuse_value(s, args[0])
    if kind == "arthur":
        return -1.0
    if kind == "sacrifice":
        second = max((heroic_score(s, b) for b in s.second if b.kind not in ("arthur", "sacrifice")), default=-9.0)
        return second - life_cost(s.life) - 0.15
    return 0.0  # end


def accuse_value(s: Seen, target: int) -> float:
    p = traitor_odds(s, target)
    wrong = W.ACCUSE_WRONG if s.white else W.ACCUSE_SPENT
    return p * W.ACCUSE_RIGHT - (1 - p) * wrong


def _no_opinion(s: Seen, a: Action) -> float:
    return 0.0


def _window(s: Seen, a: Action) -> float:
    card = s.view["drawn"]
    harm = expected_black_harm(s) if card in (None, "hidden") else black_harm(s, card)
    if a.kind == "merlin":  # offers cost nothing unless three are offered in all
        return a.args[0] if harm >= 3 * W.MERLIN_KEEP else -1.0
    if a.kind == "excalibur":
        return 1.0 if harm >= 3.2 else -1.0
    return 0.0


def _face(s: Seen, a: Action) -> float:
    return 1.0 if a.args[0] == "down" else 0.0  # one more white card; the value stays hidden from the Traitor


def _war_choice(s: Seen, a: Action) -> float:
    war = a.args[0]
    q = s.quests[war]
    if s.view["drawn"] == "mordred":
        return -len(q["white"]) * 0.1 - 0.3 * len(q["knights"])
    return -black_harm(s, war) - 0.05 * len(q["white"])


def _volunteer(s: Seen, a: Action) -> float:
    if a.kind == "pass":
        return 0.0
    spared = 0.3 * (len(s.living) - 1)
    if s.frame["card"] == "morgan_discard_or_three":
        return spared - sum(sorted(card_worth(s, c) for c in s.hand)[: cat.MORGAN_VOLUNTEER_CARDS])
    return spared - life_cost(s.life) - life_cost(s.life - 1)


def _discard(s: Seen, a: Action) -> float:
    return -card_worth(s, a.args[0]) if a.kind == "discard" else -1.0


def _split(s: Seen, a: Action) -> float:
    if a.kind in ("accept", "refuse"):
        return 1.0 if a.kind == "accept" else 0.0
    given = s.view["proposal"]
    target = a.args[0]
    hand = s.view["seats"][target]["hand"] + sum(1 for x in given if x == target)
    return -hand - (0.5 if target == s.seat else 0)


def _gesture(s: Seen, a: Action) -> float:
    return -card_worth(s, a.args[0])


def _arthur_give(s: Seen, a: Action) -> float:
    return -card_worth(s, a.args[0]) if a.kind == "give" else -1.0


def _messenger(s: Seen, a: Action) -> float:
    if a.kind == "done":
        return 0.0
    target_loc = s.view["seats"][s.frame["target"]]["location"]
    card = a.args[0]
    useful = (target_loc == "grail" and card == "grail") or (target_loc == "excalibur")
    return (0.3 if useful else -0.1) - 0.2 * card_worth(s, card)


def _convocation(s: Seen, a: Action) -> float:
    if a.kind == "stay":
        return quest_here_values(s, s.loc) + leave_cost(s)
    return W.MOVE_DISCOUNT * 2 * card_gain(len(s.hand)) + 0.3


def _grail_rescue(s: Seen, a: Action) -> float:
    return 1.0 if a.kind == "drink" else 0.0


def _kay(s: Seen, a: Action) -> float:
    if a.kind == "pass":
        return 0.0
    if "roll" in s.frame:  # his own siege fight, after the roll
        total = sum(cat.FIGHT_VALUE[c] for c in s.frame["cards"]) + (1 if s.excalibur else 0)
        return 1.0 - 0.1 * a.args[0] if total <= s.frame["roll"] < total + a.args[0] else -1.0
    quest = s.frame["quest"]
    white = sum(cat.FIGHT_VALUE[c] for c in s.quests[quest]["white"]) + (1 if s.excalibur else 0)
    black = fight_black_sum(s, quest)
    if white > black or white + a.args[0] <= black:
        return -1.0
    return 2.0 - 0.1 * a.args[0]


def _siege(s: Seen, a: Action) -> float:
    total = sum(cat.FIGHT_VALUE[c] for c in s.frame["cards"]) + (1 if s.excalibur else 0)
    if a.kind == "roll":
        return 0.0
    if total >= cat.SIEGE_DIE:
        return -1.0
    v = a.args[0]
    over = total + v - cat.SIEGE_DIE
    return 1.0 - (0.1 * over if over >= 0 else 0.05 * -over)


def _clairvoyance(s: Seen, a: Action) -> float:
    return -black_harm(s, s.view["you"]["reorder"][a.args[0]])


def _bury(s: Seen, a: Action) -> float:
    return black_harm(s, s.view["you"]["bury"][a.args[0]])


def _deal_first(s: Seen, a: Action) -> float:
    """The Lady of the Lake's knight names who is dealt first: the knight with the fewest cards."""
    return -s.view["seats"][a.args[0]]["hand"]


def _armor(s: Seen, a: Action) -> float:
    """Lancelot's Armor: keep the milder of the two black cards (the other goes under the deck)."""
    return -black_harm(s, s.view["you"]["armor"][a.args[0]])


RESPONSES = {
    "window": _window, "face": _face, "war_choice": _war_choice, "volunteer": _volunteer, "discard": _discard,
    "split": _split, "gesture": _gesture, "arthur": _arthur_give, "messenger": _messenger,
    "convocation": _convocation, "grail_rescue": _grail_rescue, "kay": _kay, "siege": _siege,
    "clairvoyance": _clairvoyance, "percival": _bury, "armor": _armor, "deal_first": _deal_first,
}
