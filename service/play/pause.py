"""`/pause` and `/resume` by the game's creator or a group admin: every deadline of the game frozen, then restarted
with the time that was left. With the lobby option "pausevote" (off unless chosen), a seated person's `/pause` or
`/resume` is a vote, told in the group ("2 of 3 needed"), and takes effect when a majority of the people playing their
seats have voted: a game the majority paused does not wait for its creator to come back.

A pause is `GameRow.paused_at`. While it is set the beat's scan passes the game's deadlines by (no reminder, no
timeout: `deadlines.due`) and a timeout already on its way is refused when it runs (`bot_move`), so a pause that
commits while a timeout fires wins. Moves may still be made; a prompt opened during the pause gets its whole time
from the resume. The resume moves every deadline of the game on by the time it stood still (since the pause, or
since the prompt opened if later). Both are changes under the game's lock (`autopilot.change_seats`), logged and told
in the group, and the board shows ⏸ while paused.

The votes are the game's (`options["pause_votes"]` or `options["resume_votes"]`, user ids), changed under its lock
like any change: two votes at once are counted one after the other, a repeated one is refused, and only the votes of
people who play their seat now count. A pause and a resume clear both, so a vote never carries over.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.play import autopilot
from service.render import days as texts
from service.store.models import Chat, Deadline, GameRow, Seat, User, utcnow
from service.store.users import user_for


def run(verb: str, cmd: dict[str, Any], game_id: int, admin: bool) -> str:
    """`/pause` or `/resume` in the game's group; a status word."""

    def edit(s: Session, game: GameRow, seats: list[Seat], chat: Chat) -> str:
        me = user_for(s, cmd["platform"], cmd["user"], cmd.get("user_name"))
        entitled = admin or (game.creator_id is not None and game.creator_id == me.id)
        if not entitled and not game.options.get("pause_vote"):
            return "not_creator"
        if (game.paused_at is not None) == (verb == "pause"):
            return "already_paused" if verb == "pause" else "not_paused"
        if not entitled:
            return _vote(s, game, seats, chat, me, verb)
        _carry_out(s, game, verb)
        autopilot.log(s, game, verb, None, None, me)
        autopilot.tell(s, game, chat, texts.t(game.language, f"days.{verb}d", name=me.name or me.platform_id))
        return "ok"

    return autopilot.change_seats(game_id, edit)


def _vote(s: Session, game: GameRow, seats: list[Seat], chat: Chat, me: User, verb: str) -> str:
    """A seated person's `/pause` or `/resume` in a game that pauses by vote: counted and told; the vote that makes
    a majority of the people playing their seats carries it out. Refused from one not playing a seat, and when
    repeated."""
    voters = {seat.user_id for seat in seats if seat.user_id is not None and seat.pilot is None}
    if me.id not in voters:
        return "not_seated"
    key = f"{verb}_votes"
    votes = set(game.options.get(key) or ()) & voters  # one who left or went idle no longer counts
    if me.id in votes:
        return "already_voted" if verb == "pause" else "already_voted_resume"
    votes.add(me.id)
    needed = len(voters) // 2 + 1
    name = me.name or me.platform_id
    autopilot.log(s, game, f"{verb}_vote", None, me, None, votes=len(votes), needed=needed)
    if len(votes) < needed:
        game.options = {**game.options, key: sorted(votes)}
        told = texts.t(game.language, f"days.{verb}_vote", name=name, votes=len(votes), needed=needed)
        autopilot.tell(s, game, chat, told)
        return "ok"
    _carry_out(s, game, verb)
    autopilot.log(s, game, verb, None, None, None, votes=len(votes))
    autopilot.tell(s, game, chat, texts.t(game.language, f"days.{verb}d_by_vote", votes=len(votes), seated=len(voters)))
    return "ok"


def _carry_out(s: Session, game: GameRow, verb: str) -> None:
    """Pause or resume now, spending every vote either way."""
    if verb == "pause":
        game.paused_at = utcnow()
    else:
        resume_clocks(s, game, utcnow())
    game.options = {key: value for key, value in game.options.items() if key not in ("pause_votes", "resume_votes")}


def resume_clocks(s: Session, game: GameRow, now: datetime) -> None:
    """Move every deadline of the paused game on by the time it stood still, and end the pause."""
    paused = game.paused_at
    for row in s.scalars(select(Deadline).where(Deadline.game_id == game.id)):
        shift = now - max(paused, row.started_at)
        row.started_at, row.due_at, row.next_at = row.started_at + shift, row.due_at + shift, row.next_at + shift
    game.paused_at = None
