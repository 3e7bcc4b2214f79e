"""The board game's tabletop rule as a lobby option (issue 24 item 1, B-LEAVE): with `leaving die`, a confirmed
/leave mid-game is the engine's leave action, a move of the seat, and the knight dies; without it the autopilot
plays the seat (test_leave_and_substitute)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from service.callback import unpack
from service.play import lobby
from service.play.state import load_state
from service.render import i18n
from service.render.lobby import lobby_message
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import ActionRow, GameEvent, GameRow
from tests.service.days.helpers import buttons, command, game, options, seat, tap, texts

NEW_TEXTS = (
    "lobby.button.leaving.autopilot",
    "lobby.button.leaving.die",
    "lobby.leaving.autopilot",
    "lobby.leaving.die",
    "days.confirm_leave_die",
)


def _lobby_text(game_id: int) -> str:
    with session_scope() as s:
        return lobby_message(lobby.lobby_view(s, s.get(GameRow, game_id)), "en")[0]


def _started_with_leaving_die(recording) -> int:
    """A board lobby through its commands: alice and bob, the tabletop rule chosen, bots in the empty seats."""
    command("alice", "newgame", "board", "3", group=True)
    command("bob", "join", group=True)
    command("alice", "set", "leaving", "die", group=True)
    command("alice", "set", "bots", "on", group=True)
    command("alice", "start", group=True)
    with session_scope() as s:
        return s.scalars(select(GameRow.id).where(GameRow.status == "active")).one()


@pytest.mark.parametrize("lang", i18n.available_languages())
def test_the_option_speaks_every_language(lang):
    for msgid in NEW_TEXTS:
        assert i18n.t(lang, msgid) != msgid, (lang, msgid)
    assert "{game_id}" not in i18n.t(lang, "days.confirm_leave_die", game_id=7)


def test_the_lobby_shows_the_option_and_its_button_cycles_it(backbone_pg, recording):
    status, game_id = lobby.create("rec", "grp", "alice", kind="board")
    assert status == "ok"
    assert "hands their seat to the autopilot" in _lobby_text(game_id)
    button = next(d for d in buttons(recording.sent("grp")) if (c := unpack(d)) and c.verb == "leaving")
    tap("alice", button, group=True)
    assert options(game_id)["leaving"] == "die"
    assert "Tabletop rule: one who leaves mid-game dies at once" in recording.sent("grp")[-1].text
    again = next(d for d in buttons(recording.sent("grp")[-1:]) if (c := unpack(d)) and c.verb == "leaving")
    tap("bob", again, group=True)  # not the creator: nothing changes
    assert options(game_id)["leaving"] == "die"
    tap("alice", again, group=True)
    assert options(game_id)["leaving"] == "autopilot"


def test_the_option_is_the_board_games_and_takes_only_its_values(backbone_pg, recording):
    status, board = lobby.create("rec", "grp", "alice", kind="board")
    assert lobby.set_option(board, "rec", "alice", "leaving", "explode") == "bad_value"
    assert "leaving" not in options(board)
    lobby.abort(board, "rec", "alice")
    status, cards = lobby.create("rec", "grp", "alice", kind="cards")
    assert status == "ok"
    assert lobby.set_option(cards, "rec", "alice", "leaving", "die") == "bad_value"
    assert "Leaving" not in _lobby_text(cards) and "leaves mid-game" not in _lobby_text(cards)


def test_with_the_tabletop_rule_leave_kills_the_knight_as_a_move(backbone_pg, recording):
    game_id = _started_with_leaving_die(recording)
    command("bob", "leave")
    asked = recording.sent("dm-bob")[-1]
    assert "leaving is dying" in asked.text
    confirm = buttons([asked], "quit")
    assert len(confirm) == 1

    tap("alice", confirm[0])  # someone else's confirmation does nothing in her hands
    with session_scope() as s:
        assert load_state(s, game(game_id)).alive[1]
    tap("bob", confirm[0])

    with session_scope() as s:
        state = load_state(s, s.get(GameRow, game_id))
        log = s.execute(select(ActionRow.seat, ActionRow.code, ActionRow.by).where(ActionRow.game_id == game_id))
        assert (1, "leave", "user") in [tuple(row) for row in log]
        assert not state.alive[1], "the knight died"
        assert game_rows.seat_users(s, game_id)[1].platform_id == "bob", "no autopilot, no substitute: his seat"
        assert s.scalars(select(GameEvent).where(GameEvent.game_id == game_id)).all() == []
    left = seat(game_id, 1)
    assert (left.pilot, left.bot) == (None, None)
    group = texts(recording.sent("grp"))
    assert any("bob leaves the game" in text for text in group), group[-5:]
    assert not buttons(recording.sent("grp"), "sub"), "no substitute is asked for"

    with session_scope() as s:
        before = len(game_rows.action_log(s, game_id))
    tap("bob", confirm[0])  # tapped again: his knight is already dead
    with session_scope() as s:
        assert len(game_rows.action_log(s, game_id)) == before
    assert texts(recording.sent("dm-bob"))[-1] == "You are not seated."
