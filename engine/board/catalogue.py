"""The board game's components as data: cards with counts, quests and their constants, knights, choices.

Card ids are short English snake_case strings; localized names belong to the renderer. Every **[choice]**
of the rules digest (`shared/rules/board-game.md`) that the seeds leave open is a named constant here.
"""

from __future__ import annotations

# --- white deck (84 cards, digest §11.1) ---------------------------------------------------------
FIGHT_VALUES = (1, 2, 3, 4, 5)
FIGHT = {v: f"fight_{v}" for v in FIGHT_VALUES}
FIGHT_VALUE = {card: v for v, card in FIGHT.items()}

SPECIAL_WHITE = (
    "merlin", "convocation", "fate", "piety", "clairvoyance", "heroism", "reinforcements", "lady_of_the_lake",
    "messenger",
)
WHITE_COUNTS: dict[str, int] = {
    "fight_1": 14, "fight_2": 12, "fight_3": 10, "fight_4": 8, "fight_5": 7,
    "grail": 18,
    "merlin": 7, "convocation": 1, "fate": 1, "piety": 1, "clairvoyance": 1, "heroism": 1,
    "reinforcements": 1, "lady_of_the_lake": 1, "messenger": 1,
}

# --- black deck (76 cards, digest §11.2) ---------------------------------------------------------
BLACK_KNIGHT_VALUE = {"black_knight_1": 1, "black_knight_3": 3, "black_knight_5": 5, "black_knight_7": 7}
# Lancelot/Dragon cards: (value on the Lancelot side, value on the Dragon side)
LANCELOT_VALUE = {"lancelot_1": (1, 5), "lancelot_3": (3, 7), "lancelot_5": (5, 9), "lancelot_7": (7, 11)}
MORGAN = (
    "morgan_lose_life", "morgan_discard_or_life", "morgan_discard_or_three", "morgan_three_black", "morgan_two_engines",
)
SPECIAL_BLACK = ("desolation", "dark_forest", "guinevere", "mists_of_avalon", "mordred", "vivien", *MORGAN)
BLACK_COUNTS: dict[str, int] = {
    "black_knight_1": 5, "black_knight_3": 3, "black_knight_5": 2, "black_knight_7": 1,
    "lancelot_1": 4, "lancelot_3": 3, "lancelot_5": 3, "lancelot_7": 1,
    "despair": 15, "excalibur": 15, "picts": 4, "saxons": 4, "mercenaries": 4,
    "desolation": 2, "dark_forest": 1, "guinevere": 1, "mists_of_avalon": 1, "mordred": 1, "vivien": 1,
    **{m: 1 for m in MORGAN},
}
FACE_DOWN_ABLE = frozenset((*BLACK_KNIGHT_VALUE, *LANCELOT_VALUE))
# Black cards whose quest may be over: then they add a siege engine instead (digest §5).
QUEST_OF_BLACK = {
    "despair": "grail", "desolation": "grail", "dark_forest": "grail", "excalibur": "excalibur",
    **{c: "lancelot" for c in LANCELOT_VALUE},
}

LOYALTY_COUNTS = {"loyal": 7, "traitor": 1}
TOTAL_CARDS = sum(WHITE_COUNTS.values()) + sum(BLACK_COUNTS.values()) + sum(LOYALTY_COUNTS.values())  # 168

# --- knights (digest §8) -------------------------------------------------------------------------
KNIGHTS = ("arthur", "galahad", "gawain", "kay", "palamedes", "percival", "tristan")

# --- quests (digest §6, §7) ----------------------------------------------------------------------
CAMELOT = "camelot"  # the Round Table and the Siege area; moving between them is free, so one location
QUESTS = ("black_knight", "lancelot", "dragon", "excalibur", "grail", "picts", "saxons")
LOCATIONS = (CAMELOT, *QUESTS)
SOLO_QUESTS = frozenset(("black_knight", "lancelot"))
FIGHT_QUESTS = frozenset(("black_knight", "lancelot", "dragon"))
WARS = ("picts", "saxons")
PERPETUAL = frozenset(("black_knight", "picts", "saxons"))

# Fight patterns: group sizes of DISTINCT values that the white spots must make up.
FIGHT_PATTERN = {"black_knight": (2, 2), "lancelot": (3, 2), "dragon": (3, 3, 3)}
BLACK_SPOTS = {"black_knight": 4, "lancelot": 5, "dragon": 5}
GRAIL_SPOTS = 7
WAR_FIGURES = 4
WAR_RUN = (1, 2, 3, 4, 5)
MORDRED_EXTRA = 5

# [choice] Excalibur track: the seeds do not print its length. Positions 0..EXCALIBUR_WIN, start in the middle;
# a knight's action moves it +1 (towards the knights), an Excalibur black card -1; 0 loses, EXCALIBUR_WIN wins.
EXCALIBUR_START = 5
EXCALIBUR_WIN = 10

# Victory / defeat of each quest: life for each knight present, white cards, swords, siege engines.
# `share` cards go to the knights present by agreement; `draw` cards to the single (solo) knight.
REWARDS = {
    "black_knight": {"win": {"life": 1, "draw": 3, "swords": 1}, "lose": {"life": -1, "swords": 1}},
    "lancelot": {"win": {"life": 1, "draw": 4, "swords": 1, "relic": "armor"}, "lose": {"life": -1, "swords": 1}},
    "dragon": {"win": {"life": 2, "share": 7, "swords": 2}, "lose": {"life": -2, "swords": 2}},
    "excalibur": {"win": {"life": 1, "share": 7, "swords": 2, "relic": "excalibur"}, "lose": {"life": -1, "swords": 2}},
    "grail": {"win": {"life": 1, "share": 7, "swords": 3, "relic": "grail"}, "lose": {"life": -1, "swords": 3}},
    "picts": {"win": {"life": 1, "share": 4, "swords": 1}, "lose": {"life": -1, "swords": 1, "engines": 2}},
    "saxons": {"win": {"life": 1, "share": 4, "swords": 1}, "lose": {"life": -1, "swords": 1, "engines": 2}},
}

# --- counters and limits -------------------------------------------------------------------------
START_LIFE = 4
MAX_LIFE = 6
GRAIL_REVIVE_LIFE = 4
START_HAND = 5  # plus one Merlin each
MAX_SWORDS = 16
SWORDS_TO_END = 12
BLACK_SWORDS_LOSE = 7
MAX_ENGINES = 12
ACCUSE_THRESHOLD = 6  # siege engines, or swords of any colour
# [choice] Three brave knights: each knight may look at his loyalty once 6 swords are out (seed 000, Czech:
# "šest mečů") or once 6 swords or 6 siege engines are (seed 002, Dutch FAQ: "een 6° zwaard of 6°
# belegeringsmachine"); the config key `three_player_trigger` picks "swords_or_engines" (default) or "swords".
THREE_PLAYER_TRIGGERS = ("swords_or_engines", "swords")
ROUND_TABLE_DRAW = 2
GAWAIN_DRAW = 3
ROUND_TABLE_HAND_LIMIT = 12  # may draw only with fewer cards than this
SIEGE_DIE = 8
REINFORCEMENTS_DRAW = 4
PIETY_SELF = 3
LADY_LIFE = 2
CLAIRVOYANCE_LOOK = 5
MESSENGER_MAX = 3
FATE_REVEAL_DISCARD = 2
TRAITOR_END_FLIP = 2
MORGAN_VOLUNTEER_LIFE = 2
MORGAN_VOLUNTEER_CARDS = 3
MORGAN_CHAIN = 3
MORGAN_ENGINES = 2

# Heroic action types (digest §3): a sacrifice's second action must be of a different type.
ACTION_TYPES = ("move", "quest", "special", "heal", "accuse")

# [choice] Squire's challenge: the squire knighted after a won quest is the one whose action won it when he is a
# squire present, else the first squire present in turn order; he gets a random knight not yet in play.
# [choice] Opening gesture and won-card splits: the deciding knight (first player; the knight who completed the
# quest) proposes who gets each card, every other knight concerned accepts or refuses; a refusal or timeout
# deals the cards at random, one by one, starting with the proposer.
