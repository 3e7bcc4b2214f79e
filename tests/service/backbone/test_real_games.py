"""The real engines and renderers through the in-process pipeline: complete bot games, and a human seat's
panel carrying buttons that play."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import get_game
from service.chat.base import Inbound
from service.play import ending, lobby
from service.play.dispatch import submit
from service.render import narration
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow


def seat_turns(game_id: int, seat: int = 0, limit: int = 500) -> Iterator[int]:
    """The seat's open prompt (its seq) each time the seat has one, until the game is over (at most `limit` times);
    the caller answers it before asking for the next."""
    for _ in range(limit):
        with session_scope() as s:
            game = s.get(GameRow, game_id)
            if game.status != "active":
                return
            row = next(r for r in game_rows.seats_of(s, game_id) if r.seat == seat)
        if row.prompt_seq is None:
            return
        yield row.prompt_seq


@pytest.mark.parametrize(("kind", "players"), [("cards", 4), ("board", 4)])
def test_bot_game_finishes_and_replays(backbone_local, recording, kind, players):
    game_id = lobby.create_and_start("rec", "table", kind, {}, [], players, seed=7)
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        log = game_rows.action_log(s, game_id)
        assert game.status == "finished", (game.status, len(log))
        engine_game = get_game(kind)
        assert engine_game.result(engine_game.replay(game.config, game.seed, log)) == game.result
        state = engine_game.replay(game.config, game.seed, log)
        moves = narration.moves(kind, game.config, game.seed, log)
    assert recording.sent("table")
    # the closing message (issue 23 item 9): who won and why, the swords, the decisive play, every seat's loyalty
    # and numbers, in words; the game's last message in the group
    names = {seat: f"Bot {seat + 1}" for seat in range(players)}
    closing = ending.closing_text(kind, state, moves, "en", names)
    assert recording.sent("table")[-1].text == closing
    assert "winner=" not in closing and "⭐" in closing and closing.count("\n   ") == players
    assert all(f"Bot {seat + 1}" in closing for seat in range(players))


def test_a_human_seat_plays_a_card_game_by_buttons(backbone_local, recording):
    game_id = lobby.create_and_start("rec", "table", "cards", {}, ["alice"], 2, seed=3)
    for n, _ in enumerate(seat_turns(game_id, limit=200)):
        panels = [c for c in recording.sent("dm-alice") if c.buttons]
        data = next(b.data for row in panels[-1].buttons for b in row if not b.data.split(":", 2)[2].startswith("@"))
        submit(Inbound("rec", "dm-alice", "alice", f"h{n}", "tap", text=data))
    with session_scope() as s:
        log = game_rows.action_log(s, game_id)
    assert any(seat == 0 for seat, _ in log)
