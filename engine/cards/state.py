"""The card game's state: one mutable object, copied cheaply, serialised whole by `snapshot`.

Conventions that keep the hot path fast: the Rumor deck's top card is the END of `deck` (pop is O(1));
the Threat pile's top card is the end of `threat`. Who has seen a card that is not face up is a bit mask of
seats (`PUBLIC` = every bit: face up or seen by all): the `*_seen` lists run parallel to their cards.
Loyalty cards live in slots: `loy[0..n-1]` are the seats', `loy[n]` and `loy[n+1]` the two set aside in the
middle (Vivien's); solo games have no slots.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.cards.catalogue import (
    CARDS,
    KNIGHT_DECK,
    LOYALTY_ASIDE,
    MORGANS,
    MORGANS_IN_DECK,
    RUMOR_COUNTS,
    RUMORS,
    loyalty_deck,
)
from engine.core.errors import IllegalAction
from engine.core.rng import Rng, copy_rng

PUBLIC = -1
"""Seen-mask of a face-up card or one everybody saw: all bits set, so `seen(PUBLIC, seat)` is always true."""


def seen(mask: int, seat: int | None) -> bool:
    """Whether `seat` (None: an onlooker) has seen a card with this seen-mask."""
    return mask == PUBLIC or (seat is not None and (mask >> seat) & 1 == 1)

_LISTS = (
    "deck", "discard", "discard_seen", "threat", "threat_seen", "announced", "aside", "loy", "revealed", "accused",
    "accusations", "knight_deck", "knights_played", "window", "traitor_hand", "traitor_seen", "gawain_hand",
    "gawain_seen",
)
_NESTED = ("known", "looks", "knights", "tristan_seen")


class State:
    """Everything about one game. Attributes are documented in `new_state`; `copy` is shallow-per-field."""

    __slots__ = (
        "n", "expert", "solo", "rng", "deck", "discard", "discard_seen", "threat", "threat_seen", "announced",
        "aside", "white", "black", "loy", "revealed", "accused", "accusations", "known", "looks", "knight_deck",
        "knights", "knights_played", "tristan_seen", "deck_known", "tristan_used", "silence", "morgan1", "morgan2",
        "morgan2_count", "token", "token_by", "current", "turn", "phase", "window", "after", "actor", "held",
        "held_seen", "quest", "accusing", "res", "traitor_hand", "traitor_seen", "gawain_hand", "gawain_seen",
        "vivien", "end_done", "end_flips", "result",
    )

    def copy(self) -> State:
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        new.rng = copy_rng(self.rng)
        for name in _LISTS:
            setattr(new, name, list(getattr(self, name)))
        new.known = [dict(d) for d in self.known]
        new.looks = [list(x) for x in self.looks]
        new.knights = [list(x) for x in self.knights]
        new.tristan_seen = [None if x is None else list(x) for x in self.tristan_seen]
        new.deck_known = set(self.deck_known)
        new.res = None if self.res is None else _copy_res(self.res)
        new.vivien = None if self.vivien is None else {**self.vivien, "slots": dict(self.vivien["slots"])}
        return new


def _copy_res(res: dict[str, Any]) -> dict[str, Any]:
    out = dict(res)
    out["stacks"] = {q: list(cs) for q, cs in res["stacks"].items()}
    out["chars"] = list(res["chars"])
    out["removed"] = list(res["removed"])
    out["totals"] = dict(res["totals"])
    return out


def _take(pool: list[str], wanted: list[str], what: str) -> None:
    for card in wanted:
        if card not in CARDS:
            raise IllegalAction("C-SETUP", f"stack: unknown card {card!r} in {what}")
        try:
            pool.remove(card)
        except ValueError:
            raise IllegalAction("C-SETUP", f"stack: too many {card!r} in {what}") from None


def new_state(config: dict[str, Any], seed: int) -> State:
    """Setup (C-SETUP). Config: `players` 1–7, `expert` bool, `first` seat (default 0), and the test-only `stack`.

    `stack` (tests only) may hold: `deck` (Rumor card ids, top first, put on top of the deck; the rest is
    shuffled below), `aside` (the 3 set-aside Morgans), `threat` (cards already on the Threat pile, bottom
    first, face up), `loyalty` (n + 2 values "loyal"/"traitor": the seats' then the two in the middle),
    `knights` (Knight deck, top first, on top of the rest), `hands` (Knight cards held per seat),
    `swords` ([white, black] already on the table). Morgans named in `deck`/`threat` count among the six.
    """
    n = int(config.get("players", 0))
    if not 1 <= n <= 7:
        raise IllegalAction("C-SETUP", "players must be 1..7")
    stack = config.get("stack") or {}
    s = State.__new__(State)
    s.n, s.expert, s.solo = n, bool(config.get("expert", False)), n == 1
    s.rng = rng = Rng(seed)

    # Loyalty (C-SETUP): shuffle the deck for this player count, deal one each, two stay in the middle.
    if s.solo:
        s.loy = []
    elif "loyalty" in stack:
        s.loy = list(stack["loyalty"])
        if sorted(s.loy) != sorted(loyalty_deck(n)) or len(s.loy) != n + LOYALTY_ASIDE:
            raise IllegalAction("C-SETUP", "stack: loyalty must be a permutation of the loyalty deck")
    else:
        s.loy = loyalty_deck(n)
        rng.shuffle(s.loy)
    s.known = [{} for _ in range(n)]
    s.revealed = [False] * n
    s.accused = [-1] * n  # accused[s] = the seat s accused, or -1
    s.accusations = []  # (accuser, accused, loyalty, swords) in order
    s.looks = [[] for _ in range(n)]  # Galahad looks: (seat, loyalty) per looker

    # Rumor deck (C-SETUP): 6 of the 9 Morgans go back in, 3 are set aside.
    pool = list(RUMORS)
    top = list(stack.get("deck", ()))
    threat = list(stack.get("threat", ()))
    _take(pool, top, "deck")
    _take(pool, threat, "threat")
    morgans_used = sum(1 for c in top + threat if c in MORGANS)
    if "aside" in stack:
        aside = list(stack["aside"])
        _take(pool, aside, "aside")
    else:
        spare = [c for c in pool if c in MORGANS]
        rng.shuffle(spare)
        aside = spare[: len(MORGANS) - MORGANS_IN_DECK]
        _take(pool, aside, "aside")
    if len(aside) != len(MORGANS) - MORGANS_IN_DECK or any(c not in MORGANS for c in aside) or morgans_used > 6:
        raise IllegalAction("C-SETUP", "stack: 3 Morgans must be set aside")
    rng.shuffle(pool)
    s.deck = pool + top[::-1]
    s.aside = aside
    s.threat = threat
    s.threat_seen = [PUBLIC] * len(threat)
    s.announced = [None] * len(threat)  # per Threat card: (seat, quest, value) announced for a face-down card
    s.discard, s.discard_seen = [], []
    swords = stack.get("swords", (0, 0))
    s.white, s.black = int(swords[0]), int(swords[1])

    # Knights (C-KNIGHTS, expert only).
    s.knights = [list(h) for h in stack.get("hands", [[] for _ in range(n)])]
    if len(s.knights) != n:
        raise IllegalAction("C-SETUP", "stack: hands must list every seat")
    if s.expert:
        kpool = list(KNIGHT_DECK)
        ktop = list(stack.get("knights", ()))
        for card in ktop + [k for h in s.knights for k in h]:
            if card not in kpool:
                raise IllegalAction("C-SETUP", f"stack: Knight card {card!r} not available")
            kpool.remove(card)
        rng.shuffle(kpool)
        s.knight_deck = kpool + ktop[::-1]
    else:
        s.knight_deck = []
        if any(s.knights):
            raise IllegalAction("C-SETUP", "stack: Knight cards need the expert variant")
    s.knights_played = []
    s.tristan_seen = [None] * n  # last Tristan look per seat: the deck, top first, as it was then
    s.deck_known = set()  # seats whose Tristan look still matches the deck (cleared by any shuffle)
    s.tristan_used = False

    s.silence = s.morgan1 = s.morgan2 = False
    s.morgan2_count = 0  # cards put on the Threat pile since Morgan #2 was revealed
    s.token, s.token_by = None, -1  # Merlin #4's face-down quest token and who chose it
    s.current = int(config.get("first", 0)) % n
    s.turn = 0
    s.phase = "turn"
    s.window = []  # seats still to answer in a response window
    s.after = "turn"  # where play goes once a sub-decision (Merlin #4, Vivien) is made: "turn" or "resolve"
    s.actor = s.current  # the seat a single-seat sub-decision belongs to
    s.held, s.held_seen = None, 0  # Morgan #1: the quest card the listener is looking at
    s.quest = None  # the quest declared (Arthur's window)
    s.accusing = -1  # the seat accused while Percival's window is open
    s.res = None  # the quest resolution in progress
    s.traitor_hand, s.traitor_seen = [], []  # a revealed Traitor's two drawn cards
    s.gawain_hand, s.gawain_seen = [], []  # Gawain's three drawn cards
    s.vivien = None
    s.end_done = False  # the final reveal happened
    s.end_flips = 0
    s.result = None
    return s


def all_rumors(s: State) -> list[str]:
    """Every Rumor card wherever it lies (deck, discards, Threat pile, aside, hands, resolution)."""
    cards = s.deck + s.discard + s.threat + s.aside + s.traitor_hand + s.gawain_hand
    if s.held is not None:
        cards.append(s.held)
    if s.res is not None:
        for cs in s.res["stacks"].values():
            cards += cs
        cards += s.res["chars"] + s.res["removed"]
    return cards


def conserved(s: State) -> bool:
    """C-COMP: the 62 Rumor cards are all somewhere, each exactly as often as in the box."""
    return Counter(all_rumors(s)) == RUMOR_COUNTS


def snapshot(s: State) -> dict[str, Any]:
    """The whole state as JSON-able data (secrets and the RNG included): what `digest` hashes."""
    out: dict[str, Any] = {}
    for name in State.__slots__:
        value = getattr(s, name)
        if name == "rng":
            version, internal, gauss = value.getstate()
            value = [version, list(internal), gauss]
        elif name == "deck_known":
            value = sorted(value)
        elif name == "known":
            value = [{str(k): v for k, v in d.items()} for d in value]
        elif name == "res" and value is not None:
            value = {k: (sorted(v.items()) if isinstance(v, dict) else v) for k, v in value.items()}
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out
