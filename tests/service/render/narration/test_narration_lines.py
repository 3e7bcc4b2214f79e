"""Exact lines for scripted situations of the real engines: who, what and the result in words, a cause and what
it caused on one line, each reader's own view."""

from __future__ import annotations

from typing import Any

from engine import get_game
from engine.core.events import private, public
from service.render.narration import narrate, pack
from service.render.narration.messages import size

BOARD, CARDS = get_game("board"), get_game("cards")


def _board(knights: list[str], **stack: Any):
    stack = {"knights": knights, "first": 0, "skip_gesture": True, **stack}
    return BOARD.new_game({"players": len(knights), "stack": stack}, 1)


def _moves(game, state, seat: int, *codes: str) -> list:
    """The events of each code played by `seat`, one list per move."""
    return [game.apply_code(state, seat, code)[1] for code in codes]


def test_a_lost_siege_says_the_roll_the_total_and_the_cost():
    names = {0: "Kay", 1: "Bea", 2: "Cy"}
    state = _board(["kay", "gawain", "palamedes"], hands=[["fight_3", "fight_4", "grail"], ["grail"], ["grail"]],
                   dice=[8])
    *_, roll = _moves(BOARD, state, 0, "evil:siege", "siege", "add:3", "add:4", "roll")
    assert narrate("board", roll, "en", names) == ["🎲 Kay attacks the siege: 7 against a roll of 8 — lost, −1 ❤"]
    assert narrate("board", roll, "cs", names) == ["🎲 Kay útočí na obléhání: 7 proti hodu 8 — prohra, −1 ❤"]


def test_a_won_fight_tells_the_sums_and_every_reward_on_one_line():
    names = {0: "Galahad", 1: "Bea", 2: "Cy"}
    state = _board(
        ["galahad", "gawain", "palamedes"], hands=[["fight_3", "grail"], ["grail"], ["grail"]],
        board={"loc": ["black_knight", "camelot", "camelot"], "bk_white": ["fight_1", "fight_1", "fight_3"],
               "bk_black": [["black_knight_7", False, 1]], "relics": [["excalibur"], [], []]},
    )
    _, fight = _moves(BOARD, state, 0, "evil:siege", "fight:3")
    assert narrate("board", fight, "en", names) == [
        "⚔ Galahad: Fight 3 → Black Knight",
        "👁 Black cards on Black Knight: 7",
        "⚔ Black Knight won by Galahad: 9 against 7 — +1 ❤, 3 cards, ⚪ sword",
    ]
    mine = narrate("board", fight, "en", names, viewer=0)
    assert mine[-1].startswith("🃏 You draw ") and "3 cards" not in mine[-2], mine


def test_the_drawer_reads_his_hidden_card_where_the_others_read_that_it_is_hidden():
    names = {0: "Ann", 1: "Bea", 2: "Cy"}
    state = _board(["gawain", "palamedes", "percival"], black=["black_knight_5"], white=["grail"])
    draw, face = _moves(BOARD, state, 0, "evil:black", "face:down")
    assert narrate("board", draw, "en", names) == ["⚫ Ann draws a black card (hidden)"]
    assert narrate("board", draw, "en", names, viewer=0) == ["🤫 You draw Black Knight 5"]
    assert narrate("board", face, "en", names) == ["⚫ Ann hides a card on Black Knight"]
    assert narrate("board", face, "en", names, viewer=0) == [
        "🤫 You lay Black Knight 5 face down on Black Knight, draw Grail"
    ]


def test_an_exchange_is_told_from_each_side_and_replaces_the_public_line_for_them():
    events = [public("exchanged", seat=0, with_=2),
              private("exchange_cards", [0, 2], gave="merlin", got="fight_1", seat=0, other=2)]
    names = {0: "Ann", 1: "Bea", 2: "Cy"}
    assert narrate("board", events, "en", names) == ["👑 Ann and Cy swap a card"]
    assert narrate("board", events, "en", names, viewer=0) == ["👑 Exchange with Cy: you give Merlin, get Fight 1"]
    assert narrate("board", events, "en", names, viewer=2) == ["👑 Exchange with Ann: you give Fight 1, get Merlin"]
    assert narrate("board", events, "en", names, viewer=1) == ["👑 Ann and Cy swap a card"]


def test_a_relic_lost_with_a_death_is_told_after_the_death():
    events = [public("relic_removed", seat=1, relic="excalibur", why="death"), public("died", seat=1)]
    assert narrate("board", events, "en", {1: "Bea"}) == ["💀 Bea dies — 🗡 Excalibur lost"]


def _cards(players: int, **stack: Any):
    return CARDS.new_game({"players": players, "stack": stack}, 1)


def test_an_accusation_and_the_revealed_loyalty_are_one_line():
    names = {0: "Ann", 1: "Bea", 2: "Cy"}
    state = _cards(3, loyalty=["loyal", "traitor", "loyal", "loyal", "loyal"], swords=[2, 2])
    [events] = _moves(CARDS, state, 0, "accuse:1")
    assert narrate("cards", events, "en", names)[0] == "☝ Ann accuses Bea: a Traitor! — ⚪ sword"
    assert narrate("cards", events, "pl", names)[0] == "☝ Ann oskarża: Bea – zdrajca! — ⚪ miecz"


def test_a_quest_tells_the_pile_and_the_result():
    names = {0: "Ann", 1: "Bea", 2: "Cy"}
    state = _cards(3, threat=["picts_5", "picts_4", "picts_2"])
    [events] = _moves(CARDS, state, 0, "quest:picts")
    assert narrate("cards", events, "en", names)[:3] == [
        "📜 Ann goes on Picts", "📜 The pile: Picts 11", "✅ Picts 11: success — ⚪ sword"
    ]


def test_a_threat_card_is_named_in_the_move_and_can_be_left_unnamed_in_a_log():
    names = {0: "Ann", 1: "Bea", 2: "Cy"}
    state = _cards(3, deck=["morgan_3"])
    [events] = _moves(CARDS, state, 0, "listen")
    assert narrate("cards", events, "en", names)[0] == "🃏 Ann reveals Morgan #3 — 🔇 silence!"
    assert narrate("cards", events, "en", names, hide_threat=True)[0] == "🃏 Ann listens to a rumor — 🔇 silence!"


def test_the_lines_of_a_move_are_one_message_split_only_at_the_limit():
    lines = [f"line {i} " + "x" * 50 for i in range(200)]
    messages = pack(lines)
    assert len(messages) > 1 and all(size(m) <= 4096 for m in messages)
    assert "\n".join(messages).split("\n") == lines
    assert pack(["a", "b"]) == ["a\nb"]
    long = "🗡" * 3000  # outside the BMP: 2 UTF-16 units each, as Telegram counts
    assert [size(m) for m in pack([long])] == [4096, 1904]
    assert pack(["head"], header="📜") == ["📜\nhead"]
