"""The commands and buttons of games that last days: `/leave` mid-game, `/sub`, and their confirmations (`ROUTED`
in `service.play.commands`; `/pause`, `/away` and the admin's are in their own modules, reached through `run`).
A board game whose lobby chose the tabletop rule (`leaving die`) makes the confirmed `/leave` the engine's B-LEAVE
move instead (`person_move.leave_dying`).

Leaving and taking a seat are each confirmed by a second tap in the person's direct chat. The confirming button
names the seat and the person's row id (signed with the rest, `service.callback`), so it does nothing in anyone
else's hands; the change itself is decided again under the game's lock (`autopilot.change_seats`): a seat taken
meanwhile, by a substitute or its returning owner, is refused. A refusal is a status word that `commands` tells the
person alone (`lobby.reply.<status>`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.play import admin_controls, autopilot, away, lobby, pause, person_move, pilots, quiet
from service.play.move_messages import direct_chat_of
from service.play.queue import request_delivery
from service.render import days as texts
from service.store import games as game_rows
from service.store import outbox, session_scope
from service.store.models import Chat, GameRow, Seat, User
from service.store.users import chat_for, user_for

TAPS = ("sub", "sub_ok", "quit", "reclaim")  # the buttons of this module (`dispatch` routes them here as "days_tap")


def run(verb: str, args: list[str], cmd: dict[str, Any], admin: bool) -> str:
    """One command or button of games that last days; returns the status word."""
    if verb == "days_tap":
        return _tap(args, cmd)
    if verb in ("away", "back"):
        return away.run(verb, args, cmd)
    if verb == "quiet":
        return quiet.personal(cmd, args)
    game_id = cmd.get("game_id") if verb in ("set", "abort") else _chat_game(cmd)
    if game_id is None:
        return "no_game"
    if verb in ("pause", "resume"):
        return pause.run(verb, cmd, game_id, admin)
    if verb == "sub":
        return _offer_seat(cmd, game_id, args[0] if args else None)
    return admin_controls.run(verb, args, cmd, game_id, admin)


def running(game_id: int | None) -> bool:
    """Whether `game_id` names a running game (an admin's `/set` and `/abort` then come here)."""
    if game_id is None:
        return False
    with session_scope() as s:
        return s.scalar(select(GameRow.status).where(GameRow.id == game_id)) == "active"


def _chat_game(cmd: dict[str, Any]) -> int | None:
    """The open game of the group the command came from (None from a direct chat)."""
    if not cmd.get("is_group"):
        return None
    with session_scope() as s:
        game = game_rows.open_game_in_chat(s, chat_for(s, cmd["platform"], cmd["chat"], True))
        return game.id if game is not None else None


def leave(cmd: dict[str, Any], game_id: int | None) -> str:
    """`/leave` (or a lobby's Leave button) on the game `game_id` of the group it came from: a lobby's seat is left
    at once; a running game's after the confirmation sent to the direct chat. From a direct chat (`game_id` None),
    a confirmation for each running game the person sits in."""
    if game_id is None and cmd.get("is_group"):
        return "no_lobby"
    with session_scope() as s:
        game = s.get(GameRow, game_id) if game_id is not None else None
        if game is not None and game.status == "lobby":
            leave_lobby = True
        else:
            leave_lobby = False
            me = user_for(s, cmd["platform"], cmd["user"], cmd.get("user_name"), cmd.get("language"))
            held = _held_seats(s, me, game_id)
            if not held:
                return "not_seated" if game is not None else "no_game"
            for game_row, seat in held:
                dies = pilots.leaving_dies(game_row.kind, game_row.options)
                msgid = "days.confirm_leave_die" if dies else "days.confirm_leave"
                text, keyboard = texts.confirm(
                    me.language or game_row.language, game_row.id, "quit", seat.seat, me.id, msgid
                )
                target = _dm(s, cmd["platform"], me, {"text": text, "buttons": texts.buttons(keyboard)})
    if leave_lobby:
        return lobby.leave(game_id, cmd["platform"], cmd["user"])
    request_delivery(*target)
    return "ok"


def _held_seats(s: Session, me: User, game_id: int | None) -> list[tuple[GameRow, Seat]]:
    """The person's seats in running games (in `game_id` only, if given)."""
    stmt = (
        select(GameRow, Seat)
        .join(Seat, Seat.game_id == GameRow.id)
        .where(Seat.user_id == me.id, GameRow.status == "active")
        .order_by(GameRow.id)
    )
    if game_id is not None:
        stmt = stmt.where(GameRow.id == game_id)
    return [(game, seat) for game, seat in s.execute(stmt)]


def _offer_seat(cmd: dict[str, Any], game_id: int, number: str | None) -> str:
    """`/sub [seat]` or the substitute call's button, in the game's group: the confirmation goes to the person's
    direct chat, for the seat named (or the first that wants a substitute)."""
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        chat = s.get(Chat, game.chat_id) if game is not None else None
        if game is None or game.status != "active" or chat is None or chat.platform_id != cmd["chat"]:
            return "no_game"
        me = user_for(s, cmd["platform"], cmd["user"], cmd.get("user_name"), cmd.get("language"))
        seats = game_rows.seats_of(s, game_id)
        if autopilot.seat_of(seats, me) is not None:
            return "already"
        wanted = [seat for seat in seats if seat.pilot in pilots.WANTED]
        if number is not None:
            wanted = [seat for seat in wanted if str(seat.seat) == number or str(seat.seat + 1) == number]
        if not wanted:
            return "no_seat"
        seat = wanted[0]
        text, keyboard = texts.confirm(
            me.language or game.language, game.id, "sub_ok", seat.seat, me.id, "days.confirm_sub", seat=seat.seat + 1
        )
        # one who never wrote to the bot is asked in the group to open a direct chat (`delivery.senders`)
        reach = {} if me.direct_chat else {"group": chat.platform_id, "name": me.name or me.platform_id,
                                           "lang": me.language or game.language}
        target = _dm(s, cmd["platform"], me, {"text": text, "buttons": texts.buttons(keyboard), **reach})
    request_delivery(*target)
    return "ok"


def _tap(args: list[str], cmd: dict[str, Any]) -> str:
    """A button of this module: args are the game id, the verb and its value."""
    game_id, verb, value = int(args[0]), args[1], args[2] if len(args) > 2 else ""
    if verb == "sub":
        return _offer_seat(cmd, game_id, value) if cmd.get("is_group") else "forged"
    seat, _, user_id = value.partition("_")
    if cmd.get("is_group") or not (seat.isdigit() and user_id.isdigit()):
        return "forged"
    if verb == "reclaim":
        status = autopilot.reclaim(game_id, cmd["platform"], cmd["user"])
        return "ok" if status in ("ok", "not_piloted") else status
    if verb == "quit" and _leaving_dies(game_id):  # the table's rule: leaving is dying (B-LEAVE), a move
        return person_move.leave_dying(cmd, game_id, int(seat), int(user_id))
    # decided in the change's own transaction, the first to commit (it claims the tap with its effect)
    return autopilot.change_seats(game_id, (_quit if verb == "quit" else _take)(int(seat), int(user_id), cmd))


def _leaving_dies(game_id: int) -> bool:
    """The game's lobby chose the tabletop rule for /leave (set before the start, it does not change after)."""
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        return game is not None and pilots.leaving_dies(game.kind, game.options)


def _tapper(s: Session, cmd: dict[str, Any], user_id: int) -> User | None:
    """The tapper, if they are the person the confirmation was sent to (else it works in no one's hands)."""
    me = s.scalar(select(User).where(User.platform == cmd["platform"], User.platform_id == cmd["user"]))
    return me if me is not None and me.id == user_id else None


def _quit(number: int, user_id: int, cmd: dict[str, Any]) -> autopilot.Edit:
    def edit(s: Session, game: GameRow, seats: list[Seat], chat: Chat) -> str:
        if _tapper(s, cmd, user_id) is None:
            return "forged"
        seat = next((x for x in seats if x.seat == number), None)
        if seat is None or seat.user_id != user_id:
            return "not_seated"
        autopilot.hand_over(s, game, seat, chat, pilots.LEFT)
        return "ok"

    return edit


def _take(number: int, user_id: int, cmd: dict[str, Any]) -> autopilot.Edit:
    def edit(s: Session, game: GameRow, seats: list[Seat], chat: Chat) -> str:
        me = _tapper(s, cmd, user_id)
        if me is None:
            return "forged"
        seat = next((x for x in seats if x.seat == number), None)
        if any(x.user_id == user_id for x in seats):
            return "already"
        if seat is None or seat.pilot not in pilots.WANTED:
            return "seat_taken"
        autopilot.substitute(s, game, seat, chat, me)
        return "ok"

    return edit


def _dm(s: Session, platform: str, user: User, payload: dict[str, Any]) -> tuple[str, str]:
    """Queue a message for the person's direct chat; returns where, to request its delivery after commit."""
    chat = direct_chat_of(user)
    outbox.add(s, platform, chat, "send", payload)
    return platform, chat
