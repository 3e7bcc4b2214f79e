"""The card game's components as data (C-COMP): Rumor cards, Loyalty deck, swords, Knight cards, and every [choice].

Source of truth: the Polish seed rulebook (`shared/seeds/001_…`), digested in `shared/rules/card-game.md`.
Where the seed is silent or its icons were lost in OCR, the value chosen here is marked **[choice]** and
kept as one named constant so it can be corrected without touching the rules code.

Card ids are short English snake_case: `picts_q` ("?" card), `picts_4`, `merlin_3`, `morgan_4_2` (Morgan #4
worth +2), `mordred`, `vivien`. Several physical cards share an id (four `picts_q`): ids name what a card
shows, which is all a player can tell apart.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

# --- quests ---------------------------------------------------------------------------------------
QUESTS: tuple[str, ...] = ("picts", "saxons", "dragon", "excalibur", "grail")
WAR: tuple[str, ...] = ("picts", "saxons")
"""The "war" icon allows a quest against the Picts or the Saxons."""

QUEST_VALUES: tuple[int | None, ...] = (None, None, None, None, 2, 3, 4, 4, 5)
"""The nine cards of every quest: four "?" (None), one 2, one 3, two 4, one 5 (seed: Kompendium)."""

SWORDS: dict[str, int] = {"picts": 1, "saxons": 1, "dragon": 2, "excalibur": 2, "grail": 3}
"""[choice] Swords won or lost per quest. The seed's icons are lost; its example 1 gives Excalibur 2 and Picts 1."""

SUCCESS_TOTALS: frozenset[int] = frozenset({11, 12, 13})
"""Main quest totals that succeed (that quest's number of white swords); below them the quest is too early."""
MORGAN5_SUCCESS_TOTALS: frozenset[int] = frozenset({12, 13})
"""With Morgan #5 in the pile the Main quest succeeds only on these; 11 counts as too early."""
TOO_LATE_MIN = 14
"""Main quest total at or above this: that quest's black swords; a Secondary quest: the same, else nothing."""
TOO_EARLY_BLACK = 1
"""Black swords for a Main quest resolved too early."""
MERLIN5_EXACT_CARDS = 5
"""Merlin #5: the Main quest also succeeds when its stack (after Merlins' removals) holds exactly this many cards."""
MORGAN6_UNKNOWN_VALUE = 1
"""Morgan #6: every "?" is worth this instead of the number of "?" in its stack."""

# --- Rumor cards ----------------------------------------------------------------------------------


class Card(NamedTuple):
    """What a Rumor card is: `kind` is quest, merlin, morgan, mordred or vivien.

    `quest`/`value` for quest cards (value None = "?"); `number` for Merlin and Morgan (#1–#7);
    `bonus` for Morgan #4; `icons` = the quests a player may go on when this card is on top of the Threat pile.
    """

    id: str
    kind: str
    quest: str | None = None
    value: int | None = None
    number: int = 0
    bonus: int = 0
    icons: tuple[str, ...] = ()


MORGAN4_BONUSES: tuple[int, ...] = (1, 2, 3)
"""[choice] The seed describes Morgan effects #1–#7 for nine cards: #4 appears three times, worth +1, +2 and +3."""
MORGAN_NUMBERS: tuple[int, ...] = (1, 2, 3, 5, 6, 7)
"""The other six Morgans, once each."""
MORDRED_COUNT = 2
"""[choice] Mordred cards (the seed gives 17 character cards in all, not the split)."""
VIVIEN_COUNT = 1
"""[choice] Vivien cards."""
MERLIN_NUMBERS: tuple[int, ...] = (1, 2, 3, 4, 5)
MORDRED_ICONS: tuple[str, ...] = WAR
"""[choice] Mordred shows the "war" icon (Picts or Saxons)."""
MORGAN4_ICONS: tuple[str, ...] = QUESTS
"""[choice] The three Morgan #4 show the "any quest" icon; the other Morgans show none."""

MERLIN_REMOVES: dict[int, tuple[str, ...]] = {1: ("picts", "saxons"), 2: ("dragon", "grail"), 3: ("excalibur", "grail")}
"""Merlins #1–#3 remove the highest non-"?" card of each of these quests when a quest is resolved."""


def _build_cards() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for q in QUESTS:
        for v in sorted(set(QUEST_VALUES), key=lambda x: x or 0):
            cid = f"{q}_{'q' if v is None else v}"
            cards[cid] = Card(cid, "quest", quest=q, value=v, icons=(q,))
    for n in MERLIN_NUMBERS:
        cards[f"merlin_{n}"] = Card(f"merlin_{n}", "merlin", number=n)
    for n in MORGAN_NUMBERS:
        cards[f"morgan_{n}"] = Card(f"morgan_{n}", "morgan", number=n)
    for b in MORGAN4_BONUSES:
        cards[f"morgan_4_{b}"] = Card(f"morgan_4_{b}", "morgan", number=4, bonus=b, icons=MORGAN4_ICONS)
    cards["mordred"] = Card("mordred", "mordred", icons=MORDRED_ICONS)
    cards["vivien"] = Card("vivien", "vivien")
    return cards


CARDS: dict[str, Card] = _build_cards()
"""Every distinct Rumor card id → what it is."""


def _build_rumors() -> tuple[str, ...]:
    deck: list[str] = []
    for q in QUESTS:
        deck += [f"{q}_{'q' if v is None else v}" for v in QUEST_VALUES]
    deck += [f"merlin_{n}" for n in MERLIN_NUMBERS]
    deck += [f"morgan_{n}" for n in MORGAN_NUMBERS] + [f"morgan_4_{b}" for b in MORGAN4_BONUSES]
    deck += ["mordred"] * MORDRED_COUNT + ["vivien"] * VIVIEN_COUNT
    return tuple(deck)


RUMORS: tuple[str, ...] = _build_rumors()
"""All 62 Rumor cards (with repeats), in catalogue order."""
RUMOR_COUNTS: Counter[str] = Counter(RUMORS)
MORGANS: tuple[str, ...] = tuple(c for c in RUMORS if CARDS[c].kind == "morgan")
MORGANS_IN_DECK = 6
"""Setup: 6 of the 9 Morgans are shuffled back into the Rumor deck; the other 3 are set aside (expert variant)."""

# --- swords and loyalty ---------------------------------------------------------------------------
SWORDS_TOTAL = 16
"""[choice] The box holds 16 swords: once all are on the table, further swords are not placed (flips still happen)."""
END_SWORDS = 7
"""The game ends when this many swords of one color are on the table (after the resolution in progress)."""
ACCUSE_MIN_SWORDS = 4
"""Accusations are allowed once this many swords (any color) are on the table."""
ACCUSE_SWORDS = 1
"""Swords for an accusation (black if the accused is Loyal, white if a Traitor); Percival doubles it."""
PERCIVAL_SWORDS = 2
"""Swords (or flips) when Percival is played."""

LOYAL, TRAITOR = "loyal", "traitor"
LOYALTY_ASIDE = 2
"""Loyalty cards left face down in the middle (Vivien's)."""


def loyalty_deck(players: int) -> list[str]:
    """2–6 players: players+1 Loyal and 1 Traitor; 7 players: all 9 (7 Loyal, 2 Traitors); solo: none."""
    if players == 1:
        return []
    if players == 7:
        return [LOYAL] * 7 + [TRAITOR] * 2
    return [LOYAL] * (players + 1) + [TRAITOR]


# --- expert variant: Knight cards ---------------------------------------------------------------
KNIGHTS: dict[str, int] = {"arthur": 3, "tristan": 2, "gawain": 2, "galahad": 1, "percival": 1}
"""The nine Knight cards and how many of each."""
KNIGHT_DECK: tuple[str, ...] = tuple(k for k, n in KNIGHTS.items() for _ in range(n))
GAWAIN_DRAW = 3
"""Gawain draws this many Rumor cards and plays one (not a Morgan)."""

# --- engine limits (not rules) ------------------------------------------------------------------
TURN_CAP = 1000
"""Pathological play (e.g. bots that only listen) is stopped after this many turns: result reason `turn_cap`,
no winner. Real games last a few dozen turns (random bots: about 20 actions; heuristic bots, 7 players: ~90)."""
COUNT_CHOICES = 20
"""Morgan #2: the numbers offered for the count announcement are 1..max(COUNT_CHOICES, true count)."""
EXHAUSTED_ICONS: tuple[str, ...] = QUESTS
"""[choice] When the Rumor deck and its discards are both empty nobody can listen; the top card then counts as
showing these icons ("any quest") so the game can go on (the seed does not cover this)."""
