"""The board bot's tunable numbers, in sword units (one black sword = 1), kept apart from its rules of thumb.

They were set by measuring bot-only games (`python -m engine.bots.board.measure`); change them the same way.
"""

from __future__ import annotations

# What winning (and not losing) each quest is worth: swords both ways, plus life, cards, relics, engines spared.
SWING = {
    "black_knight": 5.0, "lancelot": 3.5, "dragon": 4.6, "excalibur": 7.4, "grail": 1.0, "picts": 4.2, "saxons": 4.2,
}
ENGINE_BASE = 0.75  # a siege engine while Camelot is safe (4 or fewer)
ENGINE_SLOPE = 0.12  # each engine beyond 4 makes the next one dearer
ENGINE_TEN, ENGINE_ELEVEN = 2.5, 6.0  # extra for the 10th and 11th: one or two steps from losing (a Traitor adds)
LIFE = {6: 0.22, 5: 0.34, 4: 0.56, 3: 0.9, 2: 1.64}  # losing one life point from this much life (from 1: death)
THREAT = 0.45  # a black card that would lose a quest only hastens a loss that is likely anyway
BLACK_DRAWS = 0.75  # black cards per knight per round (most knights draw one in their Evil phase)
COMPANY = 0.54  # steps per round that each other knight on a group quest adds
MOVE_DISCOUNT = 0.31  # a quest action next turn, seen from this one
FIGHT_OFFSET = 0.25  # a solo fight is worth starting only above these odds
SIEGE_RELIEF = 1.0  # an engine removed, against the engine that would come next
MERLIN_KEEP = 0.9  # a Merlin in hand: an engine or a figure removed later, or a third of a cancel
FALSE_ACCUSER = 8.0  # how much likelier a Traitor than a loyal knight is to have accused a loyal knight
ACCUSE_RIGHT = 3.0  # unmasking the Traitor: a white sword, and his two-sword flip at the end averted
ACCUSE_WRONG = 2.0  # accusing a loyal knight: a white sword turns black
ACCUSE_SPENT = 0.6  # an accusation wasted where no white sword can flip: none is left for later
CARD_GAIN = ((2, 0.45), (4, 0.3), (6, 0.15), (8, 0.05))  # one more white card with at most this many in hand
FREE_POWER = 0.1  # Galahad playing a special card for free rather than as his heroic action
