"""A card game may end while Morgan's silence holds: the group must get its voice back (C-SILENCE, C-END).

The engine ends the silence with the game (its view and a `silence_off` event); the worker follows the view.
"""

from __future__ import annotations

from sqlalchemy import select

from engine import get_game
from service.play import lobby
from service.play.move_messages import write_messages
from service.render.i18n import t
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import Chat, GameRow, OutboxRow

GAME = get_game("cards")


def ended_in_silence() -> tuple[object, list]:
    """A 4-player game in which Morgan's silence holds when an accusation of the Traitor brings the 7th white sword."""
    stack = {"loyalty": ["loyal", "loyal", "traitor", "loyal", "loyal", "loyal"], "swords": [6, 0],
             "threat": ["morgan_3"], "silence": True}
    state = GAME.new_game({"players": 4, "stack": stack}, 1)
    assert GAME.view(state, None)["silence"]
    _, events = GAME.apply_code(state, 0, "accuse:2")
    assert GAME.result(state) is not None
    return state, events


def test_a_game_that_ends_in_silence_restores_the_group(backbone_local, recording):
    game_id = lobby.create_and_start("rec", "table", "cards", {}, ["a", "b", "c", "d"], 0, seed=1)
    final, events = ended_in_silence()
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        game.silence = True  # as if a Morgan had silenced the table before the last move
        chat = s.get(Chat, game.chat_id)
        seats = game_rows.seats_of(s, game_id)
        write_messages(s, game, chat, final, events, seats, game_rows.seat_users(s, game_id), None)
        rows = list(s.scalars(select(OutboxRow).where(OutboxRow.chat == "table").order_by(OutboxRow.id)))
        assert game.silence is False
        lifted = t(game.language, "notice.silence_off")
        ops = [row.op for row in rows]
        texts = [row.payload.get("text", "") for row in rows if row.op == "send"]
    assert "unrestrict" in ops and "restrict" not in ops[ops.index("unrestrict"):]
    assert any(lifted in text for text in texts)
