"""How a Traitor values each legal action: look loyal, help Evil where nobody can tell.

He draws black cards like everybody (an engine only once Camelot is near its fall), travels and plays like a
loyal knight but never finishes a quest, keeps his Merlins and Excalibur out of every cancel, never fights the
siege, spends his one accusation on a loyal knight (a false accusation flips a white sword), and as a revealed
Traitor strips the richest hand and adds engines. His loyal-looking choices come from `loyal.score`.
"""

from __future__ import annotations

from engine.board import catalogue as cat
from engine.bots.board import loyal
from engine.bots.board.knowledge import Seen, black_harm, expected_black_harm
from engine.core.actions import Action


def score(s: Seen, a: Action) -> float:
    kind, args = a.kind, a.args
    phase = s.frame.get("kind")
    if phase in ("traitor_steal", "traitor_evil"):
        return _revealed(s, a)
    if kind == "evil":
        if args[0] == "siege":
            return 1.0 if s.engines >= 9 else -1.0
        if args[0] == "life":
            return -2.0
        return 0.5 if not s.top else black_harm(s, s.top[0]) - expected_black_harm(s)
    if kind == "play" and args[0] == "fate" and args[1] == "reveal":
        return -9.0  # unmasked he would lose the two swords he flips at the end
    if kind == "accuse":
        return 3.0 if s.white and not s.view["seats"][args[0]]["accused"] else -3.0
    if kind == "siege" or (kind in ("play", "galahad") and args[0] == "merlin"):
        return -2.0
    if kind in ("fight", "grail", "excal") and _finishes(s):
        return -2.0
    if phase in ("window", "grail_rescue", "kay"):
        return 1.0 if kind in ("pass", "decline") else -1.0
    if phase in ("clairvoyance", "percival", "armor"):
        return -loyal.score(s, a)  # the worst cards on top or played, the mildest buried
    if phase == "war_choice":
        return -loyal.score(s, a)
    return loyal.score(s, a)


def _finishes(s: Seen) -> bool:
    """Whether one more white step where he stands would end the quest (a win he would rather not give)."""
    q = s.quests[s.loc]
    if s.loc == "grail":
        return q["spots"].count("grail") >= cat.GRAIL_SPOTS - 1
    if s.loc == "excalibur":
        return q["position"] >= cat.EXCALIBUR_WIN - 1
    if s.loc in cat.WARS:
        return q["needed"] is not None and q["needed"] >= cat.WAR_RUN[-1] and not q["mordred"]
    return len(q["white"]) >= sum(cat.FIGHT_PATTERN[s.loc]) - 1


def _revealed(s: Seen, a: Action) -> float:
    if a.kind == "steal":
        return s.view["seats"][a.args[0]]["hand"]
    if a.args[0] == "siege":
        return 1.0 + 0.2 * s.engines
    return expected_black_harm(s)
