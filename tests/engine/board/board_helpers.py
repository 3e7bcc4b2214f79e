"""Helpers for board-game tests: scripted tables, playing codes, and the invariants every state must keep."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from engine import get_game
from engine.board import catalogue as cat
from engine.board.state import BoardState

GAME = get_game("board")
QUIET_KNIGHTS = ["gawain", "palamedes", "percival", "galahad", "tristan", "kay", "arthur"]


def table(players: int = 3, seed: int = 1, **stack: Any) -> BoardState:
    """A table that starts at the first turn (no opening gesture) with `stack` scripting hands, decks, dice, board."""
    config: dict[str, Any] = {"players": players}
    for key in ("traitor", "three_player_rule", "three_player_trigger", "squires", "war_any_order", "squire_life",
                "squire_cards"):
        if key in stack:
            config[key] = stack.pop(key)
    stack.setdefault("skip_gesture", True)
    stack.setdefault("knights", QUIET_KNIGHTS[:players])  # Arthur last: seat 0 starts unless asked
    stack.setdefault("first", 0)
    config["stack"] = stack
    return GAME.new_game(config, seed)


def play(state: BoardState, seat: int, *codes: str) -> list:
    """Apply codes in order for one seat; returns all events."""
    events = []
    for code in codes:
        _, ev = GAME.apply_code(state, seat, code)
        events.extend(ev)
    return events


def codes(state: BoardState, seat: int) -> list[str]:
    return [GAME.encode(a) for a in GAME.legal_actions(state, seat)]


def asked(state: BoardState) -> list[tuple[int, str]]:
    return [(p.seat, p.kind) for p in GAME.pending(state)]


def card_census(s: BoardState) -> Counter:
    """Every white, black and loyalty card wherever it is: decks, discards, hands, quests, pending frames, removed."""
    c: Counter = Counter()
    for pile in (s.white_deck, s.white_discard, s.black_deck, s.black_discard, s.removed, s.loyalty_unused,
                 s.loyalty, s.black_knight_white, s.lancelot_white, s.grail_black):
        c.update(pile)
    for hand in s.hands:
        c.update(hand)
    c.update(r[0] for r in s.black_knight_black + s.lancelot_black)
    c["grail"] += s.grail_white
    for war in cat.WARS:
        c.update(s.war_white[war])
        c.update(s.war_black[war])
    for flag, card in ((s.dark_forest, "dark_forest"), (s.vivien, "vivien"), (s.mists, "mists_of_avalon"),
                       (s.mordred is not None, "mordred"), (s.heroism is not None, "heroism")):
        c[card] += bool(flag)
    for frame in s.frames:
        if frame["kind"] in ("resolve_black", "face", "war_choice"):
            c[frame["card"]] += 1
        c.update(frame.get("cards", []) if frame["kind"] != "window" else [])
        c.update(frame.get("chosen", []) if frame["kind"] == "clairvoyance" else [])
    return c


EXPECTED = Counter({**cat.WHITE_COUNTS, **cat.BLACK_COUNTS, **cat.LOYALTY_COUNTS})


def check_invariants(s: BoardState) -> None:
    census = card_census(s)
    assert census == EXPECTED, f"cards: extra {census - EXPECTED}, missing {EXPECTED - census}"
    assert sum(census.values()) == cat.TOTAL_CARDS == 168
    assert all(0 <= life <= cat.MAX_LIFE for life in s.life)
    assert s.swords_white + s.swords_black <= cat.MAX_SWORDS
    assert 0 <= s.engines <= cat.MAX_ENGINES
    assert 0 <= s.excalibur_position <= cat.EXCALIBUR_WIN
    assert len(s.black_knight_white) <= 4 and len(s.black_knight_black) <= 4 and len(s.lancelot_black) <= 5
    assert s.grail_white + len(s.grail_black) <= cat.GRAIL_SPOTS
    for i in range(s.n):
        if not s.alive[i] or s.revealed[i]:
            assert not s.hands[i]
        for holder in range(s.n):  # what a seat knows of a hand is really there
            assert not Counter(s.known[i][holder]) - Counter(s.hands[holder]), f"seat {i} on seat {holder}"
    if s.result is None:
        assert GAME.pending(s), "game not over but nobody is asked"
        for p in GAME.pending(s):
            assert GAME.legal_actions(s, p.seat), f"{p} has no legal action"


def json_round_trip(data: Any) -> Any:
    return json.loads(json.dumps(data))
