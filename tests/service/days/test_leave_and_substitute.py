"""Leaving a running game hands the seat to the autopilot (never kills or reveals it), a substitute takes it over
with the seat's whole private view, and the one who left loses every access to it (issue 24, items 1 and 2)."""

from __future__ import annotations

import threading

from sqlalchemy import select

from engine import get_game
from service.play import autopilot, lobby, pilots, presenting
from service.play.board_now import board_now
from service.play.state import load_state
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import ActionRow, Deadline, GameEvent, GameRow
from tests.service.days.helpers import buttons, command, seat, tap, texts


def _board_game() -> int:
    return lobby.create_and_start("rec", "grp", "board", {}, ["alice", "bob"], 3, seed=5)


def _leave(user: str, recording) -> None:
    command(user, "leave")
    confirm = buttons(recording.sent(f"dm-{user}"), "quit")
    assert len(confirm) == 1, texts(recording.sent(f"dm-{user}"))
    tap(user, confirm[0])


def _private_panel(game_id: int, number: int) -> str:
    """The seat's panel as the service renders it now: its hand, loyalty and what it knows."""
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        state = load_state(s, game)
        names = {n: u.name or u.platform_id for n, u in game_rows.seat_users(s, game_id).items()}
    return presenting.panel(
        "board", state, number, game_id=game_id, seq=game.seq, lang="en", level=None, seat_names=names
    ).text


def test_leaving_hands_the_seat_to_the_autopilot_and_asks_for_a_substitute(backbone_pg, recording):
    game_id = _board_game()
    old_panel = [b for b in buttons(recording.sent("dm-alice")) if not b.startswith("!")]
    assert old_panel, "alice was sent a panel with choices"
    _leave("alice", recording)

    left = seat(game_id, 0)
    assert (left.user_id, left.bot, left.pilot) == (None, "autopilot", "left")
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        assert game.options["piloted"] == [0] and game.options["former"] == ["alice"]
        assert s.scalar(select(Deadline).where(Deadline.game_id == game_id, Deadline.seat == 0)) is None
        event = s.scalars(select(GameEvent).where(GameEvent.game_id == game_id)).one()
        assert (event.kind, event.seat, event.detail) == ("autopilot", 0, {"reason": "left"})
        state = load_state(s, game)
        assert state.alive[0] and "leave" not in [code for _, code in game_rows.action_log(s, game_id)]  # not killed
        piloted_moves = s.scalars(
            select(ActionRow.by).where(ActionRow.game_id == game_id, ActionRow.seat == 0, ActionRow.seq > 0)
        ).all()
        assert "user" not in piloted_moves
    group = texts(recording.sent("grp"))
    assert any("alice left the game" in text for text in group)
    assert any("alice 🤖 (left)" in text for text in group), "the board marks the seat, still named after her"
    assert buttons(recording.sent("grp"), "sub"), "the substitute call has its button"
    assert not any("Loyal" in text or "Traitor" in text for text in group if "left" in text)

    panel, confirmation = recording.sent("dm-alice")[-2:]
    assert "no longer yours" in panel.text and not panel.buttons  # her panel edited, its buttons gone
    assert confirmation.text.endswith("✔ 🚪 Yes, leave the game") and not confirmation.buttons  # answered once
    before = len(recording.sent("dm-alice"))
    tap("alice", old_panel[-1])
    assert texts(recording.sent("dm-alice")[before:]) == ["This seat is no longer yours."]


def test_a_substitute_takes_the_seat_with_its_private_view_and_the_old_owner_gets_nothing(backbone_pg, recording):
    game_id = _board_game()
    _leave("alice", recording)
    alice_seen = len(recording.sent("dm-alice"))
    tap("carol", buttons(recording.sent("grp"), "sub")[-1], group=True)
    confirm = buttons(recording.sent("dm-carol"), "sub_ok")
    assert len(confirm) == 1

    tap("dave", confirm[0])  # someone else's confirmation does nothing in his hands
    assert texts(recording.sent("dm-dave")) == ["That choice is not valid."]
    assert seat(game_id, 0).user_id is None

    tap("carol", confirm[0])
    taken = seat(game_id, 0)
    assert taken.pilot is None and taken.bot is None and taken.user_id is not None
    carol = recording.sent("dm-carol")
    assert any("You now play alice's seat" in c.text for c in carol)
    assert any(c.text == _private_panel(game_id, 0) for c in carol), "the seat's whole private view, to her"
    assert "Loyal" in _private_panel(game_id, 0) or "Traitor" in _private_panel(game_id, 0)
    assert any("carol takes over the seat of alice" in text for text in texts(recording.sent("grp")))
    assert len(recording.sent("dm-alice")) == alice_seen, "nothing reached the one who left after the handover"

    # carol plays on: a choice of her panel is applied as hers
    with session_scope() as s:
        log_before = len(game_rows.action_log(s, game_id))
    if seat(game_id, 0).prompt_seq is not None:
        choice = next(b for b in buttons(recording.sent("dm-carol")) if not b.startswith("!") and ":@" not in b)
        tap("carol", choice)
        with session_scope() as s:
            log = s.scalars(select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)).all()
        assert len(log) > log_before and any(a.seat == 0 and a.by == "user" for a in log[log_before:])


def test_a_substitute_and_the_returning_owner_at_once_exactly_one_wins(backbone_pg, recording):
    game_id = _board_game()
    assert autopilot.to_autopilot(game_id, 1, pilots.IDLE) == "ok"  # bob's seat went idle: a substitute is asked for
    tap("carol", buttons(recording.sent("grp"), "sub")[-1], group=True)
    confirm = buttons(recording.sent("dm-carol"), "sub_ok")[-1]
    bob_buttons = [b for b in buttons(recording.sent("dm-bob")) if not b.startswith("!")]
    assert bob_buttons

    go = threading.Barrier(2)

    def carol_confirms() -> None:
        go.wait()
        tap("carol", confirm)

    def bob_taps() -> None:
        go.wait()
        tap("bob", bob_buttons[-1])

    threads = [threading.Thread(target=carol_confirms), threading.Thread(target=bob_taps)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with session_scope() as s:
        owner = game_rows.seat_users(s, game_id)[1].platform_id
        events = [e.kind for e in s.scalars(select(GameEvent).where(GameEvent.game_id == game_id))]
    won = {"bob": "back", "carol": "takeover"}[owner]
    assert events == ["autopilot", won], events
    assert seat(game_id, 1).pilot is None
    loser = "carol" if owner == "bob" else "bob"
    told = texts(recording.sent(f"dm-{loser}"))
    assert told[-1] in ("That seat has been taken meanwhile.", "This seat is no longer yours.")


def test_a_leave_code_never_offered_is_refused_on_ones_own_turn(backbone_pg, recording):
    from service.callback import pack

    game_id = _board_game()
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        state = load_state(s, game)
        mine = next(x for x in game_rows.seats_of(s, game_id) if x.seat == 0)
    assert any(p.seat == 0 for p in get_game("board").pending(state)), "alice's turn"
    tap("alice", pack(game_id, mine.prompt_seq, "leave"))  # signed, as a leaked key would make it
    assert texts(recording.sent("dm-alice"))[-1] == "That choice is not valid."
    with session_scope() as s:
        assert all(code != "leave" for _, code in game_rows.action_log(s, game_id))


def test_a_redelivered_or_repeated_confirmation_changes_nothing_more(backbone_pg, recording):
    from service.chat.base import Inbound
    from service.play.dispatch import submit

    game_id = _board_game()
    _leave("alice", recording)
    tap("carol", buttons(recording.sent("grp"), "sub")[-1], group=True)
    confirm = buttons(recording.sent("dm-carol"), "sub_ok")[-1]
    twice = Inbound("rec", "dm-carol", "carol", "same-update", "tap", text=confirm)
    submit(twice)
    submit(twice)  # the platform delivered it again: a duplicate
    tap("carol", confirm)  # tapped again: she sits there already
    with session_scope() as s:
        events = [e.kind for e in s.scalars(select(GameEvent).where(GameEvent.game_id == game_id))]
    assert events == ["autopilot", "takeover"]
    assert texts(recording.sent("dm-carol"))[-1] == "You are already seated."
    tap("alice", buttons(recording.sent("dm-alice"), "quit")[-1])  # her old confirmation, after she left
    assert seat(game_id, 0).pilot is None and texts(recording.sent("dm-alice"))[-1] == "You are not seated."


def test_status_and_follow_show_the_board_as_pinned_with_the_seats_marks_and_the_clock(backbone_pg, recording):
    game_id = _board_game()
    _leave("alice", recording)
    with session_scope() as s:
        pinned, _ = board_now(s, s.get(GameRow, game_id))
    assert "alice 🤖 (left)" in pinned and "⏳" in pinned  # bob is asked: his clock runs

    command("bob", "status", group=True)
    assert texts(recording.sent("grp"))[-1] == pinned
    command("dave", "follow", str(game_id))
    assert texts(recording.sent("dm-dave"))[-1].endswith("\n\n" + pinned)
