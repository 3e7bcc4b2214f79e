"""Idle seats escalate: two timeouts in a row hand a seat to the autopilot (a substitute is asked for), the game no
longer waits on it, and any tap by its owner takes it back (issue 24, item 3)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from service.play import lobby
from service.play.scans import scan
from service.store import session_scope
from service.store.models import ActionRow, Deadline, GameEvent
from tests.service.days.helpers import buttons, seat, tap, texts


def _deadline(game_id: int, number: int) -> Deadline | None:
    with session_scope() as s:
        return s.scalar(select(Deadline).where(Deadline.game_id == game_id, Deadline.seat == number))


def _time_out(game_id: int, number: int) -> None:
    row = _deadline(game_id, number)
    assert row is not None, f"seat {number} has a deadline"
    assert scan(row.due_at + timedelta(seconds=1))["timeouts"] == 1


def _bob_moves(recording) -> None:
    choices = [b for b in buttons(recording.sent("dm-bob")) if not b.startswith("!")]
    tap("bob", choices[-1])


def _log(game_id: int) -> list[tuple[int, str]]:
    with session_scope() as s:
        stmt = select(ActionRow.seat, ActionRow.by).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)
        rows = s.execute(stmt)
        return [(number, by) for number, by in rows]


def test_two_timeouts_in_a_row_hand_the_seat_to_the_autopilot_and_a_tap_takes_it_back(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {"target": 40}, ["alice", "bob"], 0, seed=4)
    _time_out(game_id, 0)
    assert seat(game_id, 0).timeouts == 1 and seat(game_id, 0).pilot is None
    _bob_moves(recording)
    _time_out(game_id, 0)
    piloted = seat(game_id, 0)
    assert (piloted.pilot, piloted.bot, piloted.timeouts) == ("idle", "autopilot", 0)
    assert piloted.user_id is not None, "the owner keeps the seat: a tap takes it back"
    group = texts(recording.sent("grp"))
    timed_out = next(n for n, text in enumerate(group) if "has timed out again" in text)
    assert "ran out of time" in group[timed_out - 1], "the timeout first, then the hand-over"
    assert buttons(recording.sent("grp"), "sub")
    mine = texts(recording.sent("dm-alice"))
    offer = next(n for n, text in enumerate(mine) if text.startswith("The autopilot 🤖 plays your seat"))
    assert any("your time ran out" in text for text in mine[:offer]), "what was played for her, then the offer"
    assert not any("your time ran out" in text for text in mine[offer:]), mine[offer:]

    before = len(_log(game_id))
    for _ in range(3):  # alice's turns come: the autopilot plays them at once, no deadline is waited for
        _bob_moves(recording)
        assert _deadline(game_id, 0) is None and _deadline(game_id, 1) is not None
    after = _log(game_id)[before:]
    assert after.count((0, "bot")) >= 2 and all(by != "timeout" for _, by in after)

    old = [b for b in buttons(recording.sent("dm-alice")) if not b.startswith("!")][0]
    tap("alice", old)  # any tap by the owner: a long expired one too
    back = seat(game_id, 0)
    assert back.pilot is None and back.bot is None
    assert any("alice is back" in text for text in texts(recording.sent("grp")))
    _bob_moves(recording)
    assert _deadline(game_id, 0) is not None, "her clock runs again"
    with session_scope() as s:
        events = s.scalars(select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.id))
        kinds = [e.kind for e in events]
    assert kinds == ["autopilot", "back"]


def test_a_move_of_ones_own_breaks_the_run_of_timeouts(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {"target": 40}, ["alice", "bob"], 0, seed=4)
    _time_out(game_id, 0)
    _bob_moves(recording)
    tap("alice", [b for b in buttons(recording.sent("dm-alice")) if not b.startswith("!")][-1])
    assert seat(game_id, 0).timeouts == 0
    _bob_moves(recording)
    _time_out(game_id, 0)
    assert seat(game_id, 0).pilot is None and seat(game_id, 0).timeouts == 1


def test_the_lobby_sets_how_many_timeouts_escalate(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {"target": 40}, ["alice", "bob"], 0, seed=4)
    with session_scope() as s:
        from service.store.models import GameRow

        game = s.get(GameRow, game_id)
        game.options = {**game.options, "idle_limit": 1}
    _time_out(game_id, 0)
    assert seat(game_id, 0).pilot == "idle"
