"""Issue 23 item 1: the group reads every public event of a move, told by the narration, in one message per move."""

from __future__ import annotations

import pytest

from engine import get_game
from service.play import lobby
from service.render.narration import narrate
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow


@pytest.mark.parametrize(("kind", "players"), [("cards", 4), ("board", 5)])
def test_each_moves_public_events_are_one_group_message_in_order(backbone_local, recording, kind, players):
    game_id = lobby.create_and_start("rec", "table", kind, {}, [], players, seed=11)
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        config, seed, log = game.config, game.seed, game_rows.action_log(s, game_id)
    engine = get_game(kind)
    names = {seat: f"Bot {seat + 1}" for seat in range(players)}
    state = engine.new_game(config, seed)
    expected = []
    for seat, code in log:
        state, events = engine.apply_code(state, seat, code)
        lines = narrate(kind, events, "en", names)
        assert lines or not any(e.public for e in events), (code, [e.kind for e in events])
        if lines:
            expected.append("\n".join(lines))
    sends = [c.text for c in recording.sent("table") if c.method == "send_text"]
    told = iter(sends)
    # in order, each whole (a silence's notice may follow a move's lines)
    missing = [text for text in expected if not any(sent == text or sent.startswith(f"{text}\n") for sent in told)]
    assert missing == []
    assert len(expected) > 50
