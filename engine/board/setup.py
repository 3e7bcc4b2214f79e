"""Setting up a table (digest §2, §12): configuration defaults, dealing, and the test-only `stack`.

`stack` (tests only) scripts any situation; every key is optional:
- `knights`: knight id per seat; `loyalty`: "loyal"/"traitor" per seat; `first`: the seat that starts;
- `hands`: white card ids per seat (the whole starting hand, replacing the Merlin + 5 deal);
- `white`, `black`: card ids to put on top of the white/black deck, top first; `dice`: the next d8 rolls;
- `skip_gesture`: start at the first turn without the opening gesture;
- `board`: state fields to overwrite after setup (`life`, `loc`, `engines`, `swords_white`, `relics`,
  `black_knight_white`, `black_knight_black` rows `[card, face_down, seat]`, `grail_black`, `grail_white`,
  `war_black`, `excalibur_position`, …; the short names of `state.RENAMED` too); cards it puts on the board are taken
  out of the decks so that all 168 cards stay accounted for.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.board import catalogue as cat
from engine.board import turns
from engine.board.state import RENAMED, BoardState, new_state
from engine.core.errors import IllegalAction
from engine.core.events import Event, private, public
from engine.core.rng import Rng

DEFAULTS: dict[str, Any] = {
    "knights": None,  # knight ids per seat, else random
    "traitor": "standard",  # "standard" | "none" (first game) | "among_us" (N loyal + 1 traitor)
    "three_player_rule": False,  # own loyalty visible only once 6 swords or 6 siege engines are out
    "three_player_trigger": cat.THREE_PLAYER_TRIGGERS[0],  # [choice] or "swords" only (Czech seed)
    "squires": False,  # Squire's challenge
    "squire_life": cat.START_LIFE,  # harder squires: 3 or fewer
    "squire_cards": cat.START_HAND,  # harder squires: fewer white cards (plus the Merlin)
    "war_any_order": False,  # [choice] Czech seed: Picts/Saxons cards in any order
    "first": None,  # starting seat when King Arthur is not in play, else random
}
_BOARD_CARDS = ("black_knight_white", "lancelot_white", "grail_black")


def normalize(config: dict[str, Any]) -> dict[str, Any]:
    cfg = {**DEFAULTS, **{k: v for k, v in config.items() if k not in ("variant", "stack")}}
    cfg.update(config.get("variant") or {})
    if "stack" in config:
        cfg["stack"] = config["stack"]
    n = cfg.get("players")
    if not isinstance(n, int) or not 3 <= n <= 7:
        raise IllegalAction("B-SETUP", "the board game takes 3 to 7 players")
    if cfg["traitor"] not in ("standard", "none", "among_us"):
        raise IllegalAction("B-VAR", f"unknown traitor variant {cfg['traitor']!r}")
    if cfg["three_player_trigger"] not in cat.THREE_PLAYER_TRIGGERS:
        raise IllegalAction("B-VAR", f"unknown three-player trigger {cfg['three_player_trigger']!r}")
    if cfg["knights"] is not None and (len(cfg["knights"]) != n or set(cfg["knights"]) - set(cat.KNIGHTS)):
        raise IllegalAction("B-SETUP", "knights must name one known knight per seat")
    return cfg


def _take(pool: list[str], card: str) -> str:
    pool.remove(card)
    return card


def setup(config: dict[str, Any], seed: int) -> tuple[BoardState, list[Event]]:
    cfg = normalize(config)
    stack = cfg.get("stack") or {}
    rng = Rng(seed)
    n = cfg["players"]
    s = new_state(cfg, rng)
    ev: list[Event] = []

    knights = stack.get("knights") or cfg["knights"] or rng.sample(cat.KNIGHTS, n)
    s.knight = [None] * n if cfg["squires"] else list(knights)
    if cfg["squires"]:
        s.life = [cfg["squire_life"]] * n

    white = [c for c, k in cat.WHITE_COUNTS.items() for _ in range(k)]
    black = [c for c, k in cat.BLACK_COUNTS.items() for _ in range(k)]
    rng.shuffle(white)
    rng.shuffle(black)
    board = {RENAMED.get(field, field): value for field, value in (stack.get("board") or {}).items()}
    for field in _BOARD_CARDS:
        for card in board.get(field, []):
            _take(white if field != "grail_black" else black, card)
    for row in board.get("black_knight_black", []) + board.get("lancelot_black", []):
        _take(black, row[0])
    for cards in board.get("war_white", {}).values():
        for card in cards:
            _take(white, card)
    for cards in board.get("war_black", {}).values():
        for card in cards:
            _take(black, card)
    for _ in range(board.get("grail_white", 0)):
        _take(white, "grail")
    top_white = [_take(white, c) for c in stack.get("white", [])]
    top_black = [_take(black, c) for c in stack.get("black", [])]
    hands = stack.get("hands")
    if hands:
        s.hands = [[_take(white, c) for c in hand] for hand in hands]
    else:
        size = cfg["squire_cards"] if cfg["squires"] else cat.START_HAND
        s.hands = [[_take(white, "merlin")] for _ in range(n)]
        for hand in s.hands:
            hand.extend(white.pop() for _ in range(size))
    s.white_deck = white + top_white[::-1]
    s.black_deck = black + top_black[::-1]
    s.dice = list(stack.get("dice", []))

    _deal_loyalty(s, cfg, stack.get("loyalty"))
    s.current = cfg["first_seat"] = _first_seat(s, cfg, stack)
    for field, value in board.items():
        setattr(s, field, copy.deepcopy(value))

    ev.append(public("setup", knights=list(s.knight), first=s.current))
    for i in range(n):
        ev.append(private("hand", i, seat=i, cards=sorted(s.hands[i])))
        if s.loyalty_seen[i]:
            ev.append(private("loyalty", i, seat=i, loyalty=s.loyalty[i]))
    turns.begin_turn(s)
    if not stack.get("skip_gesture"):
        s.frames.append({"kind": "gesture", "waiting": list(range(n)), "chosen": [None] * n})
    turns.advance(s, ev)
    return s, ev


def _deal_loyalty(s: BoardState, cfg: dict[str, Any], fixed: list[str] | None) -> None:
    n = s.n
    if cfg["traitor"] == "among_us":
        cards = ["loyal"] * n + ["traitor"]
        s.removed.extend(["loyal"] * (cat.LOYALTY_COUNTS["loyal"] - n))
    else:
        cards = ["loyal"] * cat.LOYALTY_COUNTS["loyal"] + ["traitor"]
        if cfg["traitor"] == "none":
            s.removed.append(_take(cards, "traitor"))
    s.rng.shuffle(cards)
    if fixed:
        s.loyalty = [_take(cards, c) for c in fixed]
    else:
        s.loyalty = [cards.pop() for _ in range(n)]
    s.loyalty_unused = cards
    if cfg["three_player_rule"]:
        s.loyalty_seen = [False] * n


def _first_seat(s: BoardState, cfg: dict[str, Any], stack: dict[str, Any]) -> int:
    if "first" in stack:
        return stack["first"]
    if "arthur" in s.knight:
        return s.knight.index("arthur")
    if cfg["first"] is not None:
        return cfg["first"]
    return s.rng.randrange(s.n)
