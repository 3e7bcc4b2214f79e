"""A card game may end while Morgan's silence holds: the group must get its voice back (C-SILENCE, C-END)."""

from __future__ import annotations

from sqlalchemy import select

from engine import get_game
from engine.bots.random_bot import RandomBot
from engine.core.simulate import play_game
from service.play import lobby
from service.play.publish import publish
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import Chat, GameRow, OutboxRow


def finished_in_silence(players: int) -> object:
    """The final state of the first seeded random card game that ends while the silence holds."""
    game = get_game("cards")
    for seed in range(2000):
        state = play_game(game, {"players": players}, seed, RandomBot(), record=False).state
        if game.result(state) is not None and game.view(state, None)["silence"]:
            return state
    raise AssertionError("no seeded game ended in silence")


def test_a_game_that_ends_in_silence_restores_the_group(backbone_local, recording):
    game_id = lobby.create_and_start("rec", "table", "cards", {}, ["a", "b", "c", "d"], 0, seed=1)
    final = finished_in_silence(4)
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        game.silence = True  # as if a Morgan had silenced the table before the last move
        chat = s.get(Chat, game.chat_id)
        seats = game_rows.seats_of(s, game_id)
        publish(s, game, chat, final, [], seats, game_rows.seat_users(s, game_id), None)
        ops = [row.op for row in s.scalars(select(OutboxRow).where(OutboxRow.chat == "table").order_by(OutboxRow.id))]
        assert game.silence is False
    assert "unrestrict" in ops and "restrict" not in ops[ops.index("unrestrict"):]
