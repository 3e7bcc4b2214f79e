"""`/tournament` and the tournament message's buttons (run by the `command` job through `service.play.commands`).

In a group: `/tournament new [board|cards]` (a chat admin: the gateway's admin flag) opens a tournament there, its
options as buttons on its message; `/tournament start` (its organiser or a chat admin) closes registration and
opens round 1; `/tournament standings`; `/tournament withdraw`; `/tournament cancel` (organiser or admin);
`/tournament` or `/tournament help` explains. The buttons (`t_join`, `t_leave`, `t_start`, `t_cancel`, and `t_set`
with `<option>-<value>`) carry the tournament's id; `service.play.dispatch` hands them on as the command
`tournament_tap`, which no one can type. A tournament acts only in its own chat: a tap or command naming another
chat's is refused as if there were none.

Returns the status word `service.play.commands` answers with (`lobby.reply.<status>`; "ok" shows in the
tournament's message, "shown" was answered here).
"""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy.orm import Session

import engine
from service.play import tables, tournament_options, tournament_places, tournament_rounds
from service.play.queue import request_delivery
from service.play.tournament_show import ranked, show, tell
from service.render import tournaments as texts
from service.render.i18n import normalize
from service.settings import get_settings
from service.store import outbox, session_scope
from service.store.models import Tournament, TournamentPlayer, utcnow
from service.store.users import chat_for, user_for
from service.tournaments import course, rows

ADMIN_ONLY = ("start", "cancel", "set")


def run(verb: str, args: list[str], cmd: dict[str, Any], admin: bool) -> str:
    """`verb` "tournament" (typed: `args` the subcommand and its words) or "tournament_tap" (`args`: the
    tournament's id, the button's verb and value)."""
    sub = args[0] if args and verb == "tournament" else "help"
    if verb == "tournament" and sub not in ("new", "start", "standings", "withdraw", "cancel"):
        _reply(cmd, texts.help_text(cmd.get("language")))
        return "shown"
    if not cmd.get("is_group"):
        return "group_only"
    if verb == "tournament_tap":
        if len(args) != 3 or not args[0].isdigit():
            return "bad_value"
        return _act(args[1].removeprefix(texts.TAP), cmd, admin, int(args[0]), args[2])
    if sub == "new":
        return _new(cmd, args[1:], admin)
    return _act({"withdraw": "leave"}.get(sub, sub), cmd, admin, None, "")


def _new(cmd: dict[str, Any], args: list[str], admin: bool) -> str:
    if not admin:
        return "not_admin"
    kind = next((a for a in args if a in engine.GAMES and a in tournament_options.SEATS), "board")
    platform = cmd["platform"]
    with session_scope() as s:
        chat = chat_for(s, platform, cmd["chat"], True)
        if rows.in_chat(s, chat.id) is not None:
            return "tournament_busy"
        creator = user_for(s, platform, cmd["user"], cmd.get("user_name"), cmd.get("language"))
        settings = get_settings()
        tournament = Tournament(
            chat_id=chat.id,
            creator_id=creator.id,
            kind=kind,
            options={
                **tournament_options.defaults(kind),
                **({"place": tournament_places.OWN} if tables.own_places(platform, bool(cmd.get("forum"))) else {}),
            },
            language=normalize(chat.language or cmd.get("language") or settings.default_language),
            seed=random.SystemRandom().randrange(2**31),
        )
        s.add(tournament)
        s.flush()
        where = show(s, tournament)
    request_delivery(*where)
    return "ok"


def _act(verb: str, cmd: dict[str, Any], admin: bool, tournament_id: int | None, value: str) -> str:
    """A verb on the chat's tournament (`tournament_id` from a button: it must be this chat's)."""
    platform = cmd["platform"]
    with session_scope() as s:
        chat = chat_for(s, platform, cmd["chat"], True)
        if tournament_id is None:
            found = rows.in_chat(s, chat.id, open_only=verb != "standings")
            tournament_id = found.id if found is not None else None
        tournament = rows.lock(s, tournament_id) if tournament_id is not None else None
        if tournament is None or tournament.chat_id != chat.id:
            return "no_tournament"
        if verb != "standings" and tournament.status not in rows.OPEN:
            return "no_tournament"  # over or cancelled: its buttons are gone, an old one changes nothing
        me = user_for(s, platform, cmd["user"], cmd.get("user_name"), cmd.get("language"))
        organiser = admin or tournament.creator_id == me.id
        if verb == "start":
            user_id = me.id
        elif verb == "standings":
            played = tournament.round - (tournament.status == "running")  # the current round is not over
            where = tell(s, tournament, texts.standings_text(tournament.language, tournament.id, played,
                                                             ranked(s, tournament)))
        else:
            if verb in ADMIN_ONLY and not organiser:
                return "tournament_admin"
            status = _change(s, tournament, verb, me.id, value)
            if status != "ok":
                return status
            where = show(s, tournament)
            if verb == "cancel":
                tell(s, tournament, texts.cancelled_text(tournament.language, tournament.id))
    if verb == "start":
        return tournament_rounds.start(tournament_id, user_id, admin)
    request_delivery(*where)
    return "shown" if verb == "standings" else "ok"


def _change(s: Session, tournament: Tournament, verb: str, user_id: int, value: str) -> str:
    """Register, withdraw, cancel or set an option, under the tournament's lock."""
    status, number = tournament.status, tournament.round
    mine = rows.registration(s, tournament.id, user_id)
    if verb == "join":
        if not course.may_register(status, number):
            return "registration_closed"
        if mine is not None and mine.withdrawn_after is None:
            return "already_registered"
        if mine is not None:
            mine.withdrawn_after = None  # back before their next round was seated
        else:
            first = course.first_round_for(status, number)
            s.add(TournamentPlayer(tournament_id=tournament.id, user_id=user_id, first_round=first, created=utcnow()))
        return "ok"
    if verb == "leave":
        if mine is None or mine.withdrawn_after is not None:
            return "not_registered"
        if status == "registration" or mine.first_round > number:
            s.delete(mine)  # not seated yet: the registration is taken back
        else:
            mine.withdrawn_after = number
        return "ok"
    if verb == "cancel":
        tournament.status = "cancelled"  # a table still running plays on as an ordinary game
        return "ok"
    if verb == "set":
        return tournament_options.set_option(tournament, value) if status == "registration" else "started"
    return "bad_value"


def _reply(cmd: dict[str, Any], text: str) -> None:
    with session_scope() as s:
        outbox.add(s, cmd["platform"], cmd["chat"], "send", {"text": text}, is_group=bool(cmd.get("is_group")))
    request_delivery(cmd["platform"], cmd["chat"])
