"""A confirmation (leave, take a seat, take one's seat back) loses its button once answered, whatever the answer:
a second tap is impossible rather than refused; one sent again is a new message at the bottom of the chat, and
answering either closes both (issue 24: used confirmation buttons edited away)."""

from __future__ import annotations

from service.chat.recording import Call
from service.play import autopilot, lobby, pilots
from tests.service.days.helpers import buttons, command, seat, tap


def _board_game() -> int:
    return lobby.create_and_start("rec", "grp", "board", {}, ["alice", "bob"], 3, seed=5)


def _live(calls: list[Call], verb: str) -> list[str]:
    """The buttons of `verb` that a chat still shows: each message as last sent or edited."""
    latest: dict[str, Call] = {}
    for call in calls:
        latest[call.message_id] = call
    return buttons(list(latest.values()), verb)


def test_leaving_twice_asked_one_answer_closes_both(backbone_pg, recording):
    game_id = _board_game()
    command("alice", "leave")
    command("alice", "leave")  # asked again: a second message, at the bottom
    asked = [c for c in recording.sent("dm-alice") if buttons([c], "quit")]
    assert len(asked) == 2 and asked[0].message_id != asked[1].message_id
    tap("alice", buttons(asked[-1:], "quit")[0])
    assert seat(game_id, 0).pilot == pilots.LEFT
    assert _live(recording.sent("dm-alice"), "quit") == [], "no button to tap a second time"
    closed = [c for c in recording.sent("dm-alice") if c.text.endswith("✔ 🚪 Yes, leave the game")]
    assert {c.message_id for c in closed} == {c.message_id for c in asked}


def test_a_refused_confirmation_loses_its_button_too(backbone_pg, recording):
    game_id = _board_game()
    command("alice", "leave")
    tap("alice", buttons(recording.sent("dm-alice"), "quit")[-1])
    for person in ("carol", "dave"):  # both offered the seat
        tap(person, buttons(recording.sent("grp"), "sub")[-1], group=True)
    tap("carol", buttons(recording.sent("dm-carol"), "sub_ok")[-1])
    assert seat(game_id, 0).user_id is not None
    tap("dave", buttons(recording.sent("dm-dave"), "sub_ok")[-1])  # too late: refused, and spent
    dave = recording.sent("dm-dave")
    assert dave[-1].text == "That seat has been taken meanwhile."
    assert _live(dave, "sub_ok") == []
    assert _live(recording.sent("dm-carol"), "sub_ok") == []


def test_the_offer_to_take_a_seat_back_closes_whichever_way_it_is_taken_back(backbone_pg, recording):
    game_id = _board_game()
    assert autopilot.to_autopilot(game_id, 1, pilots.IDLE) == "ok"
    assert _live(recording.sent("dm-bob"), "reclaim"), "bob was offered his seat back"
    command("bob", "back")  # not by the button: the offer is answered all the same
    assert seat(game_id, 1).pilot is None
    assert _live(recording.sent("dm-bob"), "reclaim") == []

    assert autopilot.to_autopilot(game_id, 1, pilots.IDLE) == "ok"  # idle again: a new offer, at the bottom
    offers = _live(recording.sent("dm-bob"), "reclaim")
    assert len(offers) == 1
    tap("bob", offers[0])
    assert seat(game_id, 1).pilot is None and _live(recording.sent("dm-bob"), "reclaim") == []
