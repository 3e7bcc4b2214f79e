"""Steps of a tournament for the service tests: commands and taps as a gateway sends them (a group admin's command
carries the admin flag), the tournament message's buttons as the recording adapter received them, a place that
opens each table in its own recording chat, and the rows to check."""

from __future__ import annotations

import itertools
from datetime import timedelta

from sqlalchemy import select, update

from service.callback import pack_lobby, unpack
from service.chat.base import Inbound
from service.play import tournament_places
from service.play.dispatch import ADMIN_FLAG, submit
from service.store import session_scope
from service.store.models import GameRow, Tournament, TournamentRound, TournamentTable
from service.store.users import chat_for

GROUP = "club"
_ids = itertools.count(1)


def command(user: str, *args: str, admin: bool = False, chat: str = GROUP) -> None:
    words = (*args, ADMIN_FLAG) if admin else args
    submit(Inbound("rec", chat, user, f"tc{next(_ids)}", "command", command="tournament", args=words,
                   user_name=user.title(), is_group=chat == GROUP))


def tap(user: str, data: str, chat: str = GROUP) -> None:
    submit(Inbound("rec", chat, user, f"tt{next(_ids)}", "tap", text=data, user_name=user.title(),
                   is_group=chat == GROUP))


def known(*users: str) -> None:
    """The people write to the bot privately (`/tournament help`), so it knows their direct chats."""
    for user in users:
        command(user, "help", chat=f"dm-{user}")


def told(recording, user: str, chat: str = GROUP) -> str:
    """The last thing `user` was told where they asked (`chat`) or privately: a refusal is answered in the chat it
    came from, or, where refusals are told to the person alone, in their direct chat."""
    return next(c.text for c in reversed(recording.calls) if c.chat in (chat, f"dm-{user}") and c.text)


def panel_buttons(recording, tournament_id: int) -> dict[str, str]:
    """The newest tournament message's buttons in the group: verb (and value) → data."""
    for call in reversed(recording.sent(GROUP)):
        if call.buttons and any(unpack(b.data).lobby_id == tournament_id for row in call.buttons for b in row):
            taps = [unpack(b.data) for row in call.buttons for b in row]
            return {f"{t.verb}:{t.value}" if t.value else t.verb: pack_lobby(*t) for t in taps}
    return {}


def set_option(user: str, tournament_id: int, value: str) -> None:
    """The organiser's tap on an option button showing `value` next (what a tap sets; the button cycles)."""
    tap(user, pack_lobby(tournament_id, "t_set", value))


class TablePerChat:
    """Each table in its own recording chat, `<group>-t<tournament>-r<round>-<table>`."""

    def chat(self, s, tournament, round_number, table_number):
        return chat_for(s, "rec", f"{GROUP}-t{tournament.id}-r{round_number}-{table_number}", True)


def tables_in_chats(tournament_id: int) -> None:
    tournament_places.register("per_chat", TablePerChat())
    with session_scope() as s:
        tournament = s.get(Tournament, tournament_id)
        tournament.options = {**tournament.options, "place": "per_chat"}


def the_tournament() -> Tournament:
    with session_scope() as s:
        return s.scalars(select(Tournament).order_by(Tournament.id.desc())).first()


def rounds(tournament_id: int) -> list[tuple[int, list[tuple[int, str]]]]:
    """Each round's number with its tables' (game id, game status)."""
    with session_scope() as s:
        found = []
        for row in s.scalars(select(TournamentRound).where(TournamentRound.tournament_id == tournament_id)
                             .order_by(TournamentRound.number)):
            tables = s.scalars(select(TournamentTable).where(TournamentTable.round_id == row.id)
                               .order_by(TournamentTable.number))
            found.append((row.number, [(t.game_id, s.get(GameRow, t.game_id).status) for t in tables]))
        return found


def past_deadline(tournament_id: int):
    """A moment just after the current round's deadline."""
    with session_scope() as s:
        tournament = s.get(Tournament, tournament_id)
        deadline = s.scalar(select(TournamentRound.deadline).where(
            TournamentRound.tournament_id == tournament_id, TournamentRound.number == tournament.round))
    return deadline + timedelta(seconds=1)


def end_game(game_id: int, winner: str | None, loyalty: list[str], status: str = "finished") -> None:
    """End a game as the engine would have, with this result (or abort it)."""
    with session_scope() as s:
        result = {"winner": winner, "reason": "swords", "loyalty": loyalty} if status == "finished" else None
        s.execute(update(GameRow).where(GameRow.id == game_id).values(status=status, result=result))
