"""An admin's levers on a running game: deadlines, forcing a seat to the autopilot, replacing a player, aborting
with a reason; each logged and told in the group (issue 24, item 7)."""

from __future__ import annotations

from sqlalchemy import select

from service.play import lobby
from service.store import session_scope
from service.store.models import Deadline, GameEvent, GameRow
from tests.service.days.helpers import buttons, command, game, options, seat, texts


def _game() -> int:
    return lobby.create_and_start("rec", "grp", "board", {}, ["alice", "bob"], 3, seed=5)


def _events(game_id: int) -> list[tuple[str, dict]]:
    with session_scope() as s:
        rows = s.scalars(select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.id))
        return [(e.kind, e.detail) for e in rows if e.actor_id is not None]


def test_an_admin_forces_a_seat_to_the_autopilot_and_gives_it_back(backbone_pg, recording):
    game_id = _game()
    command("bob", "autopilot", "1", group=True)  # no admin: nothing changes
    assert seat(game_id, 0).pilot is None
    command("carol", "autopilot", "2", "--admin", group=True)
    assert (seat(game_id, 1).pilot, seat(game_id, 1).bot) == ("forced", "autopilot")
    assert seat(game_id, 1).user_id is not None
    assert any("An admin handed bob's seat to the autopilot" in t for t in texts(recording.sent("grp")))
    assert any("An admin handed your seat" in t for t in texts(recording.sent("dm-bob")))
    command("carol", "autopilot", "2", "off", "--admin", group=True)
    assert seat(game_id, 1).pilot is None
    assert [kind for kind, _ in _events(game_id)] == ["autopilot", "back"]


def test_an_admin_replaces_a_player_and_a_substitute_is_asked_for(backbone_pg, recording):
    game_id = _game()
    command("carol", "replace", "2", "--admin", group=True)
    replaced = seat(game_id, 1)
    assert (replaced.user_id, replaced.pilot) == (None, "replaced")
    assert options(game_id)["former"] == ["bob"]
    assert buttons(recording.sent("grp"), "sub")
    assert "no longer yours" in recording.sent("dm-bob")[-1].text


def test_an_admin_changes_the_deadlines_of_a_running_game(backbone_pg, recording):
    game_id = _game()
    with session_scope() as s:
        before = s.scalars(select(Deadline).where(Deadline.game_id == game_id)).all()
    assert before
    command("carol", "set", "turn", "2", "--admin", group=True)
    assert options(game_id)["turn_deadline"] == 7200
    with session_scope() as s:
        for row in s.scalars(select(Deadline).where(Deadline.game_id == game_id, Deadline.timing == "turn")):
            assert abs((row.due_at - row.started_at).total_seconds() - 7200) < 1
    assert any("changed turn to 2" in t for t in texts(recording.sent("grp")))
    command("carol", "set", "turn", "nan", "--admin", group=True)
    assert options(game_id)["turn_deadline"] == 7200
    assert _events(game_id) == [("set", {"option": "turn", "value": "2"})]


def test_an_admin_aborts_with_a_reason(backbone_pg, recording):
    game_id = _game()
    command("carol", "abort", "the", "group", "moves", "--admin", group=True)
    assert game(game_id).status == "aborted"
    assert any("aborted the game: the group moves" in t for t in texts(recording.sent("grp")))
    with session_scope() as s:
        assert s.get(GameRow, game_id).status == "aborted"
    assert _events(game_id) == [("abort", {"reason": "the group moves"})]
