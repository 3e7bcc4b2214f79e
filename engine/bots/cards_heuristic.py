"""A sensible card-game player: remembers the Threat pile as a careful player would, quests when the Main
quest should succeed, tells the truth when loyal and shades it when a Traitor.

It reads only what the seat could know: face-up Threat cards (everyone saw them), face-down ones it laid itself,
announcements of the others' face-down cards, its own cards and looks. `as_loyal=True` (the service's timeout
player) plays as if loyal whatever the seat's loyalty, so a timeout reveals nothing.
"""

from __future__ import annotations

import random

from engine.cards.catalogue import CARDS, QUESTS, SUCCESS_TOTALS, TOO_LATE_MIN, TRAITOR
from engine.cards.resolve import apply_merlin, outcome, sort_pile, totals
from engine.cards.state import State, seen
from engine.core.actions import Action
from engine.core.game import Game


def remembered_pile(s: State, seat: int) -> list[str]:
    """The Threat pile as the seat remembers it: face-down cards of others count as what was announced."""
    pile = []
    for card, mask, ann in zip(s.threat, s.threat_seen, s.announced, strict=True):
        if seen(mask, seat):
            pile.append(card)
        elif ann is not None:
            pile.append(f"{ann[1]}_{ann[2]}")
    return pile


def estimate(s: State, seat: int) -> dict[str, int]:
    stacks, chars = sort_pile([c for c in remembered_pile(s, seat) if c in CARDS])
    return totals(stacks, chars)


def score(s: State, seat: int, quest: str) -> int:
    """White minus black swords if `quest` were resolved now on the remembered pile (Morgan #7 loss: -100)."""
    stacks, chars = sort_pile([c for c in remembered_pile(s, seat) if c in CARDS])
    res = {"main": quest, "stacks": stacks, "chars": chars, "removed": []}
    for cid in chars:
        if CARDS[cid].kind == "merlin":
            apply_merlin(res, cid)
    res["totals"] = totals(stacks, chars)
    if "morgan_7" in chars and res["totals"].get(quest, 0) >= TOO_LATE_MIN:
        return -100
    return sum(n if color == "white" else -n for _, color, n in outcome(res)[1])


class CardsHeuristicBot:
    def __init__(self, as_loyal: bool = False) -> None:
        self.as_loyal = as_loyal

    def choose(self, game: Game, state: State, seat: int, rng: random.Random) -> Action:
        legal = game.legal_actions(state, seat)
        if not legal:
            raise RuntimeError(f"seat {seat} has nothing to decide")
        traitor = not self.as_loyal and not state.solo and state.loyalty[seat] == TRAITOR
        kinds = {a.kind: a for a in legal}
        phase = state.phase
        if phase == "turn":
            return self._turn(state, seat, legal, traitor, rng)
        if phase == "count":
            want = state.morgan2_count + (2 if traitor else 1)
            return next((a for a in legal if a.args[0] == want), legal[0])
        if phase == "announce":
            card = CARDS[state.held]
            value = "q" if card.value is None else card.value
            if traitor:  # claim a value that tempts a quest at the wrong moment
                value = 5 if value != 5 else 2
            return Action("announce", (card.quest, value))
        if phase == "token":
            tot = estimate(state, seat)
            best = max(QUESTS, key=lambda q: tot.get(q, 0))
            return Action("token", (best,))
        if phase in ("traitor", "gawain_pick"):
            return self._pick(state, seat, legal, traitor)
        if phase == "vivien_keep":
            return kinds.get("keep", legal[0])
        if phase == "vivien_give":
            return legal[rng.randrange(len(legal))]
        if phase == "arthur" and "arthur" in kinds:
            tot = estimate(state, seat).get(state.quest, 0)
            if (tot in SUCCESS_TOTALS) == traitor:
                return kinds["arthur"]
        return kinds.get("pass", legal[0])

    def _turn(self, s: State, seat: int, legal: list[Action], traitor: bool, rng: random.Random) -> Action:
        quests = sorted((a for a in legal if a.kind == "quest"), key=lambda a: score(s, seat, a.args[0]))
        listen = [a for a in legal if a.kind == "listen"]
        if quests:
            best, worst = quests[-1], quests[0]
            if traitor and score(s, seat, worst.args[0]) <= -2:
                return worst
            if not traitor:
                best_score = score(s, seat, best.args[0])
                crowded = max(estimate(s, seat).values(), default=0) >= TOO_LATE_MIN - 2
                if best_score > 0 or (crowded and best_score >= -1) or not listen:
                    return best
        if listen:
            return listen[0]
        return legal[rng.randrange(len(legal))]

    def _pick(self, s: State, seat: int, legal: list[Action], traitor: bool) -> Action:
        hand = s.traitor_hand if s.phase == "traitor" else s.gawain_hand
        if legal[0].kind == "pass":
            return legal[0]

        def score(a: Action) -> int:
            card = CARDS[hand[a.args[0]]]
            return {"morgan": 3, "mordred": 2}.get(card.kind, 0) if traitor else {"merlin": 3}.get(card.kind, 0)

        return max(legal, key=score)
