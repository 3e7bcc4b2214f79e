"""The board game's whole state: plain lists and ints, mutated in place by the rules, JSON-able by `to_dict`.

Decks are lists with the top card LAST (a draw is `pop()`). Seats are indexed 0..n-1; `order` is the turn
order (clockwise, starting with King Arthur). Pending decisions live in `frames`, a stack whose top is the
decision (or automatic step) to take next; each frame is a small dict with a `kind`.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from engine.board import catalogue as cat
from engine.core.rng import copy_rng

_FIELDS = (
    "config", "n", "knight", "life", "loc", "alive", "hands", "loyalty", "loyalty_seen", "known_loyal",
    "has_accused", "revealed", "relics", "doomed", "peeks", "order", "current",
    "white_deck", "white_discard", "black_deck", "black_discard", "removed", "loyalty_unused",
    "black_knight_white", "black_knight_black", "lancelot_stage", "lancelot_white", "lancelot_black",
    "excalibur_position", "excalibur_done", "grail_white", "grail_black", "grail_done",
    "war_white", "war_black", "mordred", "heroism", "dark_forest", "vivien", "mists",
    "swords_white", "swords_black", "engines", "frames", "turn", "result", "dice", "turns", "known",
)

RENAMED = {
    "bk_white": "black_knight_white", "bk_black": "black_knight_black", "lance_stage": "lancelot_stage",
    "lance_white": "lancelot_white", "lance_black": "lancelot_black", "excal_pos": "excalibur_position",
    "excal_done": "excalibur_done",
}
"""Fields' short names before issue 22, still read: in states cached by the service, and in the test-only stack's
`board` keys (the golden playthroughs' headers and the service's tests script tables with them)."""


class BoardState:
    """One game. Fields are documented where `new_state` sets them."""

    __slots__ = (*_FIELDS, "rng", "cache")

    def to_dict(self) -> dict[str, Any]:
        data = {f: copy.deepcopy(getattr(self, f)) for f in _FIELDS}
        version, internal, gauss = self.rng.getstate()
        data["rng"] = [version, list(internal), gauss]
        return data

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        """Unpickle (the service caches states); one cached before `known` existed gets it empty, one cached before
        the fields' full names gets them (`RENAMED`)."""
        for field, value in state[1].items():
            setattr(self, RENAMED.get(field, field), value)
        if "known" not in state[1]:
            self.known = [[[] for _ in range(self.n)] for _ in range(self.n)]

    def copy(self) -> BoardState:
        state = BoardState()
        for f in _FIELDS:
            setattr(state, f, copy.deepcopy(getattr(self, f)))
        state.rng = copy_rng(self.rng)
        state.cache = None
        return state


def new_state(config: dict[str, Any], rng: random.Random) -> BoardState:
    """An empty table for `config["players"]` seats; setup (dealing) is done by the rules."""
    n = config["players"]
    s = BoardState()
    s.config = config
    s.rng = rng
    s.cache = None  # (seat, legal actions) of the current decision; `apply` clears it (not part of the snapshot)
    s.n = n
    s.knight = [None] * n  # knight id, or None for a squire (Squire's challenge)
    s.life = [cat.START_LIFE] * n
    s.loc = [cat.CAMELOT] * n
    s.alive = [True] * n
    s.hands = [[] for _ in range(n)]  # white card ids, kept sorted
    s.loyalty = ["loyal"] * n
    s.loyalty_seen = [True] * n  # False while the three-player rule hides a seat's own loyalty from it
    s.known_loyal = [False] * n  # accused and shown loyal (public)
    s.has_accused = [False] * n
    s.revealed = [False] * n  # revealed Traitor
    s.relics = [[] for _ in range(n)]  # "excalibur", "grail", "armor"
    s.doomed = []  # seats that reached 0 life and await death (or the Grail)
    s.peeks = [[] for _ in range(n)]  # black cards a seat knows on top of the deck, top first
    s.known = [[[] for _ in range(n)] for _ in range(n)]  # [seat][holder]: white cards seen go there (`known`)
    s.order = list(range(n))
    s.current = 0
    s.white_deck, s.white_discard, s.black_deck, s.black_discard = [], [], [], []
    s.removed = []  # cards out of the game (used Merlins are discarded, not removed)
    s.loyalty_unused = []  # loyalty cards not dealt
    s.black_knight_white, s.black_knight_black = [], []  # black cards on fight quests: [card, face_down, drawer_seat]
    s.lancelot_stage = "lancelot"  # "lancelot", then "dragon", then "done"
    s.lancelot_white, s.lancelot_black = [], []
    s.excalibur_position, s.excalibur_done = cat.EXCALIBUR_START, False
    # Grail cards count from the relic; black cards in play order, filling from the far end
    s.grail_white, s.grail_black, s.grail_done = 0, [], False
    s.war_white = {w: [] for w in cat.WARS}  # fight card ids of the run
    s.war_black = {w: [] for w in cat.WARS}  # Pict/Saxon/Mercenaries cards = figures
    s.mordred = None  # war that Mordred strengthens
    s.heroism = None  # quest holding the Heroism card
    s.dark_forest = s.vivien = s.mists = False
    s.swords_white = s.swords_black = s.engines = 0
    s.frames = []
    s.turn = {}
    s.result = None
    s.dice = []  # stacked d8 rolls (tests)
    s.turns = 0
    return s
