"""Setup (C-SETUP): a new card game's state, dealt from the seed, or scripted by the test-only `stack`.

`new_state` documents every attribute of `State`; `engine.cards.stack` documents the stack's keys. The order of
the random draws (loyalty, set-aside Morgans, Rumor deck, Knight deck) is part of every recorded game: keep it.
"""

from __future__ import annotations

from typing import Any

from engine.cards import stack as stacking
from engine.cards.catalogue import KNIGHT_DECK, LOYALTY_ASIDE, MORGANS, MORGANS_IN_DECK, RUMORS, loyalty_deck
from engine.cards.state import PUBLIC, State
from engine.core.errors import IllegalAction
from engine.core.rng import Rng


def new_state(config: dict[str, Any], seed: int) -> State:
    """Config: `players` 1–7, `expert` bool, `first` seat (default 0), and the test-only `stack`."""
    n = int(config.get("players", 0))
    if not 1 <= n <= 7:
        raise IllegalAction("C-SETUP", "players must be 1..7")
    stack = config.get("stack") or {}
    s = State.__new__(State)
    s.n, s.expert, s.solo = n, bool(config.get("expert", False)), n == 1
    s.rng = rng = Rng(seed)

    # Loyalty (C-SETUP): shuffle the deck for this player count, deal one each, two stay in the middle.
    if s.solo:
        s.loyalty = []
    elif "loyalty" in stack:
        s.loyalty = list(stack["loyalty"])
        if sorted(s.loyalty) != sorted(loyalty_deck(n)) or len(s.loyalty) != n + LOYALTY_ASIDE:
            raise stacking.bad("loyalty must be a permutation of the loyalty deck")
    else:
        s.loyalty = loyalty_deck(n)
        rng.shuffle(s.loyalty)
    s.known = [{} for _ in range(n)]  # per seat: loyalty slots it knows besides its own (Galahad, Vivien)
    s.revealed = [None] * n  # the loyalty each seat showed (accused, final reveal), None if never
    s.loyalty_public = set()  # slots whose current card everybody knows (shown, and not offered a swap since)
    s.accused = [-1] * n  # accused[s] = the seat s accused, or -1
    s.accusations = []  # (accuser, accused, loyalty, swords) in order
    s.looks = [[] for _ in range(n)]  # Galahad looks: (seat, loyalty) per looker

    # Rumor deck (C-SETUP): 6 of the 9 Morgans go back in, 3 are set aside.
    pool = list(RUMORS)
    lay = stacking.layout(stack, n, pool)
    if "aside" in stack:
        aside = list(stack["aside"])
    else:
        spare = [c for c in pool if c in MORGANS]
        rng.shuffle(spare)
        aside = spare[: len(MORGANS) - MORGANS_IN_DECK]
    stacking.take(pool, aside, "aside")
    if len(aside) != len(MORGANS) - MORGANS_IN_DECK or any(c not in MORGANS for c in aside):
        raise stacking.bad("3 Morgans must be set aside")
    rng.shuffle(pool)
    s.aside = aside
    s.threat, s.threat_seen = lay.threat, lay.threat_seen
    s.announced = lay.announced  # per Threat card: (seat, quest, value) announced for a face-down card
    if lay.rest == "discard":
        s.deck, s.discard = lay.top[::-1], pool + lay.discard
    else:
        s.deck, s.discard = pool + lay.top[::-1], lay.discard
    s.discard_seen = [PUBLIC] * len(s.discard)
    swords = stack.get("swords", (0, 0))
    s.white, s.black = int(swords[0]), int(swords[1])

    # Knights (C-KNIGHTS, expert only).
    s.knights = [list(h) for h in stack.get("hands", [[] for _ in range(n)])]
    if len(s.knights) != n:
        raise stacking.bad("hands must list every seat")
    if s.expert:
        kpool = list(KNIGHT_DECK)
        ktop = list(stack.get("knights", ()))
        for card in ktop + [k for h in s.knights for k in h]:
            if card not in kpool:
                raise stacking.bad(f"Knight card {card!r} not available")
            kpool.remove(card)
        rng.shuffle(kpool)
        s.knight_deck = kpool + ktop[::-1]
    else:
        s.knight_deck = []
        if any(s.knights):
            raise stacking.bad("Knight cards need the expert variant")
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
    s.resolution = None  # the quest resolution in progress
    s.traitor_hand, s.traitor_seen = [], []  # a revealed Traitor's two drawn cards
    s.gawain_hand, s.gawain_seen = [], []  # Gawain's three drawn cards
    s.vivien = None
    s.end_done = False  # the final reveal happened
    s.end_flips = 0
    s.result = None
    stacking.table(s, stack)
    return s
