"""`/pause` and `/resume` by the game's creator or a group admin: every deadline of the game frozen, then restarted
with the time that was left.

A pause is `GameRow.paused_at`. While it is set the beat's scan passes the game's deadlines by (no reminder, no
timeout: `deadlines.due`) and a timeout already on its way is refused when it runs (`bot_move`), so a pause that
commits while a timeout fires wins. Moves may still be made; a prompt opened during the pause gets its whole time
from the resume. The resume moves every deadline of the game on by the time it stood still (since the pause, or
since the prompt opened if later). Both are changes under the game's lock (`autopilot.change_seats`), logged and told
in the group, and the board shows ⏸ while paused.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.play import autopilot
from service.render import days as texts
from service.store.models import Chat, Deadline, GameRow, Seat, utcnow
from service.store.users import user_for


def run(verb: str, cmd: dict[str, Any], game_id: int, admin: bool) -> str:
    """`/pause` or `/resume` in the game's group; a status word."""

    def edit(s: Session, game: GameRow, seats: list[Seat], chat: Chat) -> str:
        me = user_for(s, cmd["platform"], cmd["user"], cmd.get("user_name"))
        if not (admin or (game.creator_id is not None and game.creator_id == me.id)):
            return "not_creator"
        if (game.paused_at is not None) == (verb == "pause"):
            return "already_paused" if verb == "pause" else "not_paused"
        if verb == "pause":
            game.paused_at = utcnow()
        else:
            resume_clocks(s, game, utcnow())
        autopilot.log(s, game, verb, None, None, me)
        autopilot.tell(s, game, chat, texts.t(game.language, f"days.{verb}d", name=me.name or me.platform_id))
        return "ok"

    return autopilot.change_seats(game_id, edit)


def resume_clocks(s: Session, game: GameRow, now: datetime) -> None:
    """Move every deadline of the paused game on by the time it stood still, and end the pause."""
    paused = game.paused_at
    for row in s.scalars(select(Deadline).where(Deadline.game_id == game.id)):
        shift = now - max(paused, row.started_at)
        row.started_at, row.due_at, row.next_at = row.started_at + shift, row.due_at + shift, row.next_at + shift
    game.paused_at = None
