"""Issue 23 item 1: the group reads every public event of a move, told by the narration, in one message per move."""

from __future__ import annotations

import pytest

from engine import get_game
from service.play import lobby
from service.render.narration import narrate
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow
from tests.story_order import told_in_order


@pytest.mark.parametrize(("kind", "players"), [("cards", 4), ("board", 5)])
def test_every_move_is_told_in_order_and_a_bots_turn_is_one_message(backbone_local, recording, kind, players):
    game_id = lobby.create_and_start("rec", "table", kind, {}, [], players, seed=11)
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        config, seed, log = game.config, game.seed, game_rows.action_log(s, game_id)
    engine = get_game(kind)
    names = {seat: f"Bot {seat + 1}" for seat in range(players)}
    state = engine.new_game(config, seed)
    expected, tellers = [], []
    for seat, code in log:
        state, events = engine.apply_code(state, seat, code)
        lines = narrate(kind, events, "en", names)
        assert lines or not any(e.public for e in events), (code, [e.kind for e in events])
        if lines:
            expected.append("\n".join(lines))
            tellers.append(seat)
    shown: dict[str, str] = {}  # the group's messages as last edited (a bot's turn grows by edits)
    for call in recording.sent("table"):
        if call.method in ("send_text", "edit_text"):
            shown[call.message_id] = call.text
    board = next(c.message_id for c in recording.sent("table") if c.method == "send_text")
    messages = [text for message_id, text in shown.items() if message_id != board]
    # in order, each whole, a move never cut across two messages
    assert told_in_order([text.split("\n") for text in expected], messages) == []
    assert len(expected) > 50
    turns = sum(i == 0 or seat != tellers[i - 1] for i, seat in enumerate(tellers))
    assert len(messages) == turns + 1  # a bot's consecutive moves share their message; then the closing one
