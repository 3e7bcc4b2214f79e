"""What one seat knows when it decides, and what public facts are worth: the bot's shared measures.

`Seen` is built from `game.view(state, seat)` (the seat's own hand, loyalty and peeks, plus the public board) and
from the pending decision's public fields (cards already added to a siege, the knights sharing cards). Nothing
here reads another seat's hand or loyalty, so a bot built on it decides the same way whatever the hidden deal.

Costs are in "sword units": one black sword (or one white sword missed) is 1.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import product
from typing import Any

from engine.board import catalogue as cat
from engine.board.state import BoardState
from engine.bots.board import weights as W

GROUP = ("grail", "excalibur", "dragon", "picts", "saxons")

# Black deck make-up (the deck's order is unknown: the catalogue's shares are the bot's prior).
_BLACK_TOTAL = sum(cat.BLACK_COUNTS.values())
_SHARE = {
    "black_knight": sum(cat.BLACK_COUNTS[c] for c in cat.BLACK_KNIGHT_VALUE) / _BLACK_TOTAL,
    "lancelot": sum(cat.BLACK_COUNTS[c] for c in cat.LANCELOT_VALUE) / _BLACK_TOTAL,
    "grail": (cat.BLACK_COUNTS["despair"] + cat.BLACK_COUNTS["desolation"]) / _BLACK_TOTAL,
    "excalibur": cat.BLACK_COUNTS["excalibur"] / _BLACK_TOTAL,
    "war": (cat.BLACK_COUNTS["picts"] + cat.BLACK_COUNTS["mercenaries"] / 2) / _BLACK_TOTAL,
}
# Average value of a face-down black card on each fight quest.
_AVG_BLACK = {
    "black_knight": sum(v * cat.BLACK_COUNTS[c] for c, v in cat.BLACK_KNIGHT_VALUE.items())
    / sum(cat.BLACK_COUNTS[c] for c in cat.BLACK_KNIGHT_VALUE),
    "lancelot": sum(v[0] * cat.BLACK_COUNTS[c] for c, v in cat.LANCELOT_VALUE.items())
    / sum(cat.BLACK_COUNTS[c] for c in cat.LANCELOT_VALUE),
    "dragon": sum(v[1] * cat.BLACK_COUNTS[c] for c, v in cat.LANCELOT_VALUE.items())
    / sum(cat.BLACK_COUNTS[c] for c in cat.LANCELOT_VALUE),
}
# How bad each special black card is when it resolves (sword units), for Merlin cancels and Percival's choice.
SPECIAL_HARM = {
    "desolation": 1.2, "dark_forest": 1.2, "guinevere": 1.0, "mists_of_avalon": 2.0, "mordred": 0.8, "vivien": 0.8,
    "morgan_lose_life": 2.5, "morgan_discard_or_life": 1.0, "morgan_discard_or_three": 1.0,
    "morgan_three_black": 2.5, "morgan_two_engines": 1.5,
}


@dataclass
class Seen:
    """One seat's knowledge at one decision (see the module docstring)."""

    seat: int
    view: dict[str, Any]
    frame: dict[str, Any]
    turn: dict[str, Any]

    def __post_init__(self) -> None:
        v = self.view
        me = v["seats"][self.seat]
        self.me = me
        self.hand: list[str] = v["you"]["hand"]
        self.counts = Counter(self.hand)
        self.values = [cat.FIGHT_VALUE[c] for c in self.hand if c in cat.FIGHT_VALUE]
        self.life: int = me["life"]
        self.loc: str = me["location"]
        self.knight: str | None = me["knight"]
        self.quests: dict[str, dict[str, Any]] = v["quests"]
        self.engines: int = v["siege_engines"]
        self.white: int = v["swords"]["white"]
        self.black: int = v["swords"]["black"]
        self.excalibur = "excalibur" in me["relics"]
        self.living = [s["seat"] for s in v["seats"] if s["alive"] and not s["revealed"]]
        self.top: list[str] = v["you"]["black_top"]
        self.second: list[Any] = []  # after a first heroic action: what a sacrifice would allow (set by the bot)

    def present(self, quest: str) -> list[int]:
        return [i for i in self.quests[quest]["knights"] if i != self.seat]

    def is_open(self, quest: str) -> bool:
        return self.quests[quest]["open"]


def seen(game: Any, state: BoardState, seat: int) -> Seen:
    """The seat's knowledge: its view, and the public fields of the decision due (a siege's cards, a split)."""
    frame = state.frames[-1] if state.frames else {}
    kind = frame.get("kind")
    public: dict[str, Any] = {"kind": kind}
    for key, kinds in _PUBLIC_FIELDS.items():
        if kind in kinds:
            public[key] = frame[key]
    if kind == "kay":  # the fight or siege he may add a card to, revealed to all: the frame below
        below = state.frames[-2]
        public.update({k: below[k] for k in ("quest", "cards", "roll") if k in below})
    return Seen(seat, game.view(state, seat), public, dict(state.turn))


# Fields of a pending decision that everybody at the table has seen (face-up cards, who shares, which quest).
_PUBLIC_FIELDS = {
    "cards": ("siege", "split"), "seats": ("split",), "target": ("messenger",), "card": ("volunteer",),
}


# --- the Traitor ---------------------------------------------------------------------------------------


def traitor_odds(s: Seen, target: int) -> float:
    """The chance that `target` is the Traitor, from public facts only and as if this seat were loyal (so that a
    Traitor's timeout, played loyal, accuses like anybody): 7 loyal cards and 1 Traitor card, of which the seats
    not yet shown loyal hold some and the rest lie unused; once a Traitor is revealed there is none left. A knight
    who accused while nobody was revealed accused a loyal knight, which a Traitor is far likelier to do."""
    seats = s.view["seats"]
    if any(x["revealed"] for x in seats) or seats[target]["loyalty"] is not None:
        return 0.0
    unknown = [x for x in seats if x["seat"] != s.seat and x["loyalty"] is None]
    unused = max(0, sum(cat.LOYALTY_COUNTS.values()) - len(seats))

    def weight(x: dict[str, Any]) -> float:
        return W.FALSE_ACCUSER if x["has_accused"] else 1.0

    return weight(seats[target]) / (sum(weight(x) for x in unknown) + unused)


# --- costs -------------------------------------------------------------------------------------------


def engine_cost(engines: int) -> float:
    """Cost of the siege engine that brings Camelot to `engines` (the 12th loses the game)."""
    if engines >= cat.MAX_ENGINES:
        return 100.0
    late = (W.ENGINE_TEN if engines >= 10 else 0) + (W.ENGINE_ELEVEN if engines == 11 else 0)
    return W.ENGINE_BASE + W.ENGINE_SLOPE * max(0, engines - 4) + late


def life_cost(life: int) -> float:
    """Cost of losing one life point from `life` (the last one kills)."""
    return W.LIFE.get(life, 20.0)


def black_sword_cost(s: Seen, k: int = 1) -> float:
    """Black swords hurt more as they near the seven that lose the game."""
    return k * (1.0 + (4.0 if s.black + k >= cat.BLACK_SWORDS_LOSE else 0.0) + 0.15 * s.black)


def loss_cost(s: Seen, quest: str) -> float:
    """What losing `quest` now would cost: black swords, engines, life of the knights there."""
    lose = cat.REWARDS[quest]["lose"]
    cost = black_sword_cost(s, lose["swords"] + (1 if s.view["mists_of_avalon"] else 0))
    cost += sum(engine_cost(s.engines + k) for k in range(1, lose.get("engines", 0) + 1))
    cost += 0.4 * len(s.quests[quest]["knights"]) * -lose["life"]
    return cost + (1.0 if s.view["heroism"] == quest else 0.0)


# --- black cards -------------------------------------------------------------------------------------


def fight_black_sum(s: Seen, quest: str) -> float:
    """Known value of the black cards on a fight quest, hidden ones at their average (own face-down cards known)."""
    mine = {(d["quest"], d["index"]): d["card"] for d in s.view["you"]["face_down"]}
    total = 0.0
    for k, card in enumerate(s.quests[quest]["black"]):
        card = mine.get((quest, k), card)
        total += _AVG_BLACK[quest] if card == "hidden" else _black_value(card, quest)
    return total


def _black_value(card: str, quest: str) -> int:
    if quest == "black_knight":
        return cat.BLACK_KNIGHT_VALUE[card]
    return cat.LANCELOT_VALUE[card][0 if quest == "lancelot" else 1]


def black_harm(s: Seen, card: str) -> float:
    """What this black card would cost if it resolved now."""
    quest = cat.QUEST_OF_BLACK.get(card)
    if quest == "lancelot":
        quest = "lancelot" if s.is_open("lancelot") else "dragon"
    if quest and not s.is_open(quest):
        return engine_cost(s.engines + 1)
    if card in cat.BLACK_KNIGHT_VALUE or card in cat.LANCELOT_VALUE:
        q = "black_knight" if card in cat.BLACK_KNIGHT_VALUE else quest
        left = cat.BLACK_SPOTS[q] - len(s.quests[q]["black"])
        return (W.THREAT * loss_cost(s, q) if left <= 1 else 0.25 + 0.1 * _black_value(card, q)) + 0.1
    if card in ("despair", "desolation"):
        spots = s.quests["grail"]["spots"]
        black = sum(1 for x in spots if x not in ("grail", None))
        harm = W.THREAT * loss_cost(s, "grail") if black >= cat.GRAIL_SPOTS - 1 else 0.45 + 0.12 * black
        return harm + (0.6 if card == "desolation" and "grail" in spots else 0)
    if card == "excalibur":
        pos = s.quests["excalibur"]["position"]
        return W.THREAT * loss_cost(s, "excalibur") if pos <= 1 else 0.4 + 0.1 * max(0, 4 - pos)
    if card in cat.WARS:
        return _figure_harm(s, card)
    if card == "mercenaries":
        return min(_figure_harm(s, w) for w in cat.WARS)
    if card == "morgan_lose_life":
        return sum(life_cost(s.view["seats"][i]["life"]) for i in s.living)
    if card == "morgan_two_engines":
        return engine_cost(s.engines + 1) + engine_cost(s.engines + 2)
    if card == "dark_forest" and not s.is_open("grail"):
        return engine_cost(s.engines + 1)
    return SPECIAL_HARM.get(card, 0.8)


def _figure_harm(s: Seen, war: str) -> float:
    figures = s.quests[war]["figures"]
    return W.THREAT * loss_cost(s, war) if figures >= cat.WAR_FIGURES - 1 else 0.3 + 0.15 * figures


def expected_black_harm(s: Seen) -> float:
    """The average cost of an unknown black card (catalogue shares, each kind at its current cost)."""
    total = 0.0
    for card, count in cat.BLACK_COUNTS.items():
        total += count * black_harm(s, card)
    return total / _BLACK_TOTAL


# --- fight plans ---------------------------------------------------------------------------------------


def fight_plan(played: list[int], hand: list[int], quest: str) -> list[int] | None:
    """The strongest cards from `hand` that complete the quest's white spots with its pattern, or None."""
    pattern = cat.FIGHT_PATTERN[quest]
    need = sum(pattern) - len(played)
    have = Counter(hand)
    best: list[int] | None = None
    best_sum = -1
    ranges = [range(min(have[v], max(pattern)) + 1) for v in cat.FIGHT_VALUES]
    for pick in product(*ranges):
        if sum(pick) != need:
            continue
        counts = Counter(played)
        for v, k in zip(cat.FIGHT_VALUES, pick, strict=True):
            counts[v] += k
        groups = sorted((c for c in counts.values() if c), reverse=True)
        if len(groups) > len(pattern) or any(c != g for c, g in zip(groups, pattern, strict=False)):
            continue
        total = sum(v * k for v, k in zip(cat.FIGHT_VALUES, pick, strict=True))
        if total > best_sum:
            best, best_sum = [v for v, k in zip(cat.FIGHT_VALUES, pick, strict=True) for _ in range(k)], total
    return best


def black_rate(s: Seen, share: str) -> float:
    """Expected black cards of one kind per round of turns (most knights draw a black card in their Evil phase)."""
    return W.BLACK_DRAWS * len(s.living) * _SHARE[share]


def fight_odds(s: Seen, quest: str, plan: list[int]) -> float:
    """Chance the white side wins a fight quest if the knight plays `plan` (one card a turn) from now."""
    white = sum(cat.FIGHT_VALUE[c] for c in s.quests[quest]["white"]) + sum(plan) + (1 if s.excalibur else 0)
    black = fight_black_sum(s, quest)
    room = cat.BLACK_SPOTS[quest] - len(s.quests[quest]["black"])
    helpers = 1 + (len(s.present(quest)) if quest == "dragon" else 0)
    more = min(room, black_rate(s, "black_knight" if quest == "black_knight" else "lancelot") * len(plan) / helpers)
    black += more * _AVG_BLACK[quest]
    if room - more < 0.6:  # the black spots would fill first: the quest ends early, a loss
        return 0.1
    margin = white - black
    return max(0.03, min(0.97, 0.5 + margin / 9))
