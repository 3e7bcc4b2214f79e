"""The pictures' geometry and colours as data: where each quest sits on the board, sizes of fonts and pieces.

Sizes are chosen for a phone: the picture is 720 px wide and still reads when shown 360 px wide (the smallest
text, 22 px, is then 11 px). Boxes are (left, top, width, height).
"""

from __future__ import annotations

WIDTH = 720
MARGIN = 12
GAP = 8

# --- colours -------------------------------------------------------------------------------------
BACKGROUND = (236, 226, 200)  # parchment
PANEL = (251, 247, 238)
INK = (38, 30, 22)
MUTED = (105, 95, 80)
FAINT = (190, 180, 160)
WHITE = (255, 255, 255)
BLACK = (30, 30, 30)
RED = (180, 32, 36)
GOLD = (214, 168, 40)
STONE = (140, 136, 128)
ENGINE = (128, 70, 36)
CLOSED = (170, 164, 152)
LOYAL_BG = (46, 110, 60)
EVIL_BG = (112, 22, 26)
DEAD_BG = (208, 204, 196)
LOST_HEART = (222, 212, 192)
TABLE = (206, 160, 104)  # the Round Table: light wood, so white and black swords both show

SEAT_COLOURS = (
    (37, 94, 168),
    (40, 122, 48),
    (200, 92, 0),
    (120, 52, 150),
    (0, 118, 120),
    (176, 36, 96),
    (92, 92, 24),
)
QUEST_COLOURS = {
    "black_knight": (48, 48, 54),
    "lancelot": (64, 86, 140),
    "dragon": (164, 44, 30),
    "excalibur": (28, 92, 156),
    "grail": (166, 124, 14),
    "picts": (46, 108, 58),
    "saxons": (138, 82, 36),
    "camelot": (96, 78, 58),
}
CARD_COLOURS = {  # the card game: a quest card takes its quest's colour, the others their kind's
    "merlin": (40, 100, 160),
    "morgan": (60, 30, 70),
    "mordred": (110, 20, 26),
    "vivien": (0, 110, 100),
    "hidden": (80, 60, 40),
    "empty": (170, 164, 152),
}

# --- fonts (pixels) --------------------------------------------------------------------------------
TITLE = 30
HEAD = 24
NAME = 24
BODY = 22
TOKEN = 20

# --- pieces --------------------------------------------------------------------------------------
TOKEN_RADIUS = 17
SLOT = (34, 44)  # a card on a quest: width, height
SLOT_GAP = 6
SLOTS_PER_ROW = 5
HEART = 22
BAND = 38  # a panel's title band

# --- the board game -------------------------------------------------------------------------------
HEADER = 104  # two lines: the turn (or the result), then swords, engines and decks
_ROW1_TOP = HEADER + GAP
_ROW1_HEIGHT = 262
_ROW2_TOP = _ROW1_TOP + _ROW1_HEIGHT + GAP
_ROW2_HEIGHT = 330
_ROW3_TOP = _ROW2_TOP + _ROW2_HEIGHT + GAP
_ROW3_HEIGHT = 132
_THIRD = (WIDTH - 2 * MARGIN - 2 * GAP) // 3
_SIDE = 200
_MIDDLE = WIDTH - 2 * MARGIN - 2 * GAP - 2 * _SIDE

# Camelot and the Round Table in the middle, the quests around them as on the real board; Lancelot and the
# Dragon are the two sides of one quest board, so they share a box.
PANELS: dict[str, tuple[int, int, int, int]] = {
    "black_knight": (MARGIN, _ROW1_TOP, _THIRD, _ROW1_HEIGHT),
    "lancelot": (MARGIN + _THIRD + GAP, _ROW1_TOP, _THIRD, _ROW1_HEIGHT),
    "saxons": (WIDTH - MARGIN - _THIRD, _ROW1_TOP, _THIRD, _ROW1_HEIGHT),
    "grail": (MARGIN, _ROW2_TOP, _SIDE, _ROW2_HEIGHT),
    "camelot": (MARGIN + _SIDE + GAP, _ROW2_TOP, _MIDDLE, _ROW2_HEIGHT),
    "picts": (WIDTH - MARGIN - _SIDE, _ROW2_TOP, _SIDE, _ROW2_HEIGHT),
    "excalibur": (MARGIN, _ROW3_TOP, WIDTH - 2 * MARGIN, _ROW3_HEIGHT),
}
SEATS_TOP = _ROW3_TOP + _ROW3_HEIGHT + GAP
SEAT_CARD = ((WIDTH - 2 * MARGIN - GAP) // 2, 108)
SWORD_PLACES = 12  # the Round Table: the game ends when the 12th sword lands (more may land in that action)
ENGINE_PLACES = 12

# The Round Table inside Camelot's walls: radii from the circle's centre.
ENGINE_RING = 123
WALL_RING = 110
TABLE_RING = 100
SWORD_RING = (58, 96)  # a sword's tip and pommel
CAMELOT_KNIGHTS = 36  # the ring of knights' tokens around the table's centre
ENGINE_SIZE = 22

# --- the card game --------------------------------------------------------------------------------
CARDS_HEADER = 64
THREAT_CARD = (MARGIN + 8, CARDS_HEADER + GAP + 8, 330, 470)  # left, top, width, height
SIDE_LEFT = THREAT_CARD[0] + THREAT_CARD[2] + 24
SILENCE_BANNER = 64
END_SWORD_PLACES = 7  # the card game ends at 7 swords of one colour
CHIP = 48  # a player's row in the card game's list of players
