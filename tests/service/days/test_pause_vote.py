"""`/pause` and `/resume` by a majority vote of the seated people, a lobby option off by default (issue 24 item 4):
each vote counted and told in the group, taking effect at the majority; a repeated, an outsider's or a stale vote
changes nothing, and two at once are both counted."""

from __future__ import annotations

import threading

from sqlalchemy import select

from service.callback import unpack
from service.play import lobby
from service.render.lobby import lobby_message
from service.store import session_scope
from service.store.models import Deadline, GameEvent, GameRow, User, utcnow
from tests.service.days.helpers import buttons, command, game, options, tap, texts


def _started(vote: bool = True) -> int:
    """A toy game of alice (its creator), bob and carol, through the lobby's commands."""
    command("alice", "newgame", "toy", group=True)
    command("bob", "join", group=True)
    command("carol", "join", group=True)
    if vote:
        command("alice", "set", "pausevote", "on", group=True)
    command("alice", "start", group=True)
    with session_scope() as s:
        return s.scalars(select(GameRow.id).where(GameRow.status == "active")).one()


def _events(game_id: int) -> list[str]:
    with session_scope() as s:
        return [e.kind for e in s.scalars(select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.id))]


def test_the_lobby_shows_the_option_off_by_default_and_its_button_turns_it_on(backbone_pg, toy_game, recording):
    status, game_id = lobby.create("rec", "grp", "alice", kind="toy")
    assert status == "ok" and not options(game_id).get("pause_vote")
    button = next(d for d in buttons(recording.sent("grp")) if (c := unpack(d)) and c.verb == "pausevote")
    assert "⏸ by vote: off" in [b.label for c in recording.sent("grp")[-1:] for row in c.buttons for b in row]
    tap("alice", button, group=True)
    assert options(game_id)["pause_vote"] is True
    with session_scope() as s:
        text, _ = lobby_message(lobby.lobby_view(s, s.get(GameRow, game_id)), "en")
    assert "pause and resume the game by a majority vote" in text
    assert lobby.set_option(game_id, "rec", "alice", "pausevote", "maybe") == "bad_value"


def test_without_the_option_only_the_creator_or_an_admin_pauses(backbone_pg, toy_game, recording):
    game_id = _started(vote=False)
    command("bob", "pause", group=True)
    assert game(game_id).paused_at is None and _events(game_id) == []
    assert texts(recording.sent("dm-bob"))[-1] == "Only the game's creator or a chat admin can do that."


def test_a_majority_of_votes_pauses_and_each_vote_is_told(backbone_pg, toy_game, recording):
    game_id = _started()
    command("bob", "pause", group=True)
    assert game(game_id).paused_at is None
    assert texts(recording.sent("grp"))[-1] == (
        "bob votes to pause the game: 1 of 2 needed. Seated players: /pause to vote."
    )
    command("bob", "pause", group=True)  # again: changes nothing
    assert texts(recording.sent("dm-bob"))[-1] == "Your vote to pause is already counted."
    command("dave", "help")  # he has written to the bot: refusals reach him
    command("dave", "pause", group=True)  # not seated: no vote
    assert texts(recording.sent("dm-dave"))[-1] == "You are not seated."
    assert options(game_id)["pause_votes"] == [_user_id("bob")] and game(game_id).paused_at is None

    command("carol", "pause", group=True)
    assert game(game_id).paused_at is not None
    group = texts(recording.sent("grp"))
    assert "⏸ 2 of the 3 seated players voted to pause the game: every clock is stopped until /resume." in group
    assert any(text.startswith("⏸ Paused") for text in group), "the board shows it"
    assert "pause_votes" not in options(game_id)
    assert _events(game_id) == ["pause_vote", "pause_vote", "pause"]

    command("alice", "resume", group=True)  # the creator's path stays
    assert game(game_id).paused_at is None
    command("carol", "pause", group=True)  # a new pause counts anew: the old votes were spent
    assert game(game_id).paused_at is None and options(game_id)["pause_votes"] == [_user_id("carol")]


def test_the_creator_still_pauses_at_once(backbone_pg, toy_game, recording):
    game_id = _started()
    command("bob", "pause", group=True)
    command("alice", "pause", group=True)
    assert game(game_id).paused_at is not None
    assert "pause_votes" not in options(game_id), "the pause spent the votes"


def test_two_votes_at_once_are_both_counted(backbone_pg, toy_game, recording):
    game_id = _started()
    go = threading.Barrier(2)

    def vote(user: str) -> None:
        go.wait()
        command(user, "pause", group=True)

    threads = [threading.Thread(target=vote, args=(user,)) for user in ("bob", "carol")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert game(game_id).paused_at is not None
    assert _events(game_id) == ["pause_vote", "pause_vote", "pause"]


def test_the_vote_of_one_who_no_longer_plays_their_seat_does_not_count(backbone_pg, toy_game, recording):
    game_id = _started()
    command("bob", "pause", group=True)
    command("bob", "leave")
    tap("bob", buttons(recording.sent("dm-bob"), "quit")[-1])  # the autopilot plays his seat now
    command("carol", "pause", group=True)  # alice and carol play: 2 of 2 needed, bob's vote gone
    assert game(game_id).paused_at is None
    assert texts(recording.sent("grp"))[-1].startswith("carol votes to pause the game: 1 of 2 needed.")


def test_a_majority_resumes_a_game_it_paused_without_its_creator(backbone_pg, toy_game, recording):
    game_id = _started()
    command("bob", "pause", group=True)
    command("carol", "pause", group=True)
    paused_at = game(game_id).paused_at
    with session_scope() as s:
        due = {row.seat: row.due_at for row in s.scalars(select(Deadline).where(Deadline.game_id == game_id))}

    command("carol", "resume", group=True)
    assert game(game_id).paused_at is not None
    assert texts(recording.sent("grp"))[-1] == (
        "carol votes to resume the game: 1 of 2 needed. Seated players: /resume to vote."
    )
    command("carol", "resume", group=True)  # again: changes nothing
    assert texts(recording.sent("dm-carol"))[-1] == "Your vote to resume is already counted."
    assert options(game_id)["resume_votes"] == [_user_id("carol")]

    command("bob", "resume", group=True)
    assert game(game_id).paused_at is None
    assert (
        "▶️ 2 of the 3 seated players voted to resume the game: every clock runs on with the time that was left."
        in texts(recording.sent("grp"))
    )
    assert "resume_votes" not in options(game_id) and "pause_votes" not in options(game_id)
    with session_scope() as s:
        moved = {row.seat: row.due_at for row in s.scalars(select(Deadline).where(Deadline.game_id == game_id))}
    stood = utcnow() - paused_at
    for seat, before in due.items():  # every clock moved on by the time the game stood still
        assert abs(((moved[seat] - before) - stood).total_seconds()) < 5, (seat, before, moved[seat])
    assert _events(game_id)[-3:] == ["resume_vote", "resume_vote", "resume"]


def test_a_resume_vote_needs_the_game_paused_and_the_creator_still_resumes_at_once(backbone_pg, toy_game, recording):
    game_id = _started()
    command("bob", "resume", group=True)  # not paused: no vote
    assert texts(recording.sent("dm-bob"))[-1] == "The game is not paused."
    assert "resume_votes" not in options(game_id)
    command("alice", "pause", group=True)
    command("bob", "resume", group=True)
    assert game(game_id).paused_at is not None
    command("alice", "resume", group=True)
    assert game(game_id).paused_at is None and "resume_votes" not in options(game_id)


def test_without_the_option_only_the_creator_or_an_admin_resumes(backbone_pg, toy_game, recording):
    game_id = _started(vote=False)
    command("alice", "pause", group=True)
    command("bob", "resume", group=True)
    assert game(game_id).paused_at is not None
    assert texts(recording.sent("dm-bob"))[-1] == "Only the game's creator or a chat admin can do that."


def _user_id(platform_id: str) -> int:
    with session_scope() as s:
        return s.scalar(select(User.id).where(User.platform_id == platform_id))
