"""After a move (or a game start): render, write outbox rows, track each seat's prompt, set deadlines.

Runs inside the move's transaction, so the outbox rows commit with the action or not at all. The board (a
picture with its text, `board_post`) is edited only if its content changed (`games.board_digest`); a seat's panel
only if what it shows changed (the seq its buttons carry does not count: an unchanged prompt keeps its
`prompt_seq`, so its old buttons stay valid). A move's public events go to the group as one narrated message.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from engine import get_game
from engine.core.events import Event
from service.play import asking, board_post, ending, no_idle, presenting, spectators
from service.play.pilots import moving_seats
from service.render import days as days_text
from service.render import narration
from service.settings import get_settings
from service.store import deadlines as deadline_rows
from service.store import games as game_rows
from service.store import outbox
from service.store.models import Chat, GameRow, OutboxRow, Seat, User, utcnow
from service.store.users import direct_chat_markers

CHAT_MAX = OutboxRow.chat.type.length
# Seconds within which a person's next move joins their previous move's group message: the taps of one turn, not a
# move made after the group has talked (which the bot may not see) or after a while nobody would look up for.
PERSON_RUN = 120.0
# Test hook: seconds to sleep after applying a move and before committing (where a SIGKILL must lose nothing).
_PAUSE_ENV = "CAMELOT_TEST_PAUSE_IN_PLAY"


@dataclass
class Published:
    """What the caller does after commit: deliver to these chats; cache this meta for gateways' prechecks."""

    chats: set[tuple[str, str]] = field(default_factory=set)
    meta: dict[str, Any] = field(default_factory=dict)
    # the deadlines the move sets (games with people only): {seat: (prompt_seq, timing)} and seconds per timing
    prompts: dict[int, tuple[int, str]] | None = None
    durations: dict[str, float] = field(default_factory=dict)


def direct_chat_of(user: User) -> str:
    """The user's direct chat, or a marker the outbox resolves through the adapter at delivery time: `@user:<platform
    id>`, or `@uid:<row id>` when that would overflow the outbox's chat column (a Matrix id may be 255 long)."""
    if user.direct_chat:
        return user.direct_chat
    marker, by_id = direct_chat_markers(user)
    return marker if len(marker) <= CHAT_MAX else by_id


def seat_name(seat: Seat, users: dict[int, User], lang: str | None = None, left_by: str | None = None) -> str:
    """The seat's name as others see it, with its mark when the autopilot plays it or its owner is away
    (`service.render.days.mark`); a seat its person left is still named after them (`left_by`)."""
    user = users.get(seat.seat)
    name = (user.name or user.platform_id) if user is not None else left_by or f"Bot {seat.seat + 1}"
    mark = days_text.mark(lang, seat.pilot, user.away_until if user is not None else None, utcnow())
    return f"{name} {mark}" if mark else name


def table_names(game: GameRow, seats: list[Seat], users: dict[int, User]) -> tuple[dict[int, str], dict[int, str]]:
    """Each seat's name as the table sees it and the language its person reads."""
    left_by = (game.options or {}).get("left_by") or {}
    names = {seat.seat: seat_name(seat, users, game.language, left_by.get(str(seat.seat))) for seat in seats}
    langs = {
        seat.seat: seat.language or (users[seat.seat].language if seat.seat in users else None) or game.language
        for seat in seats
    }
    return names, langs


def write_messages(
    s: Session,
    game: GameRow,
    chat: Chat,
    state: Any,
    events: list[Event],
    seats: list[Seat],
    users: dict[int, User],
    actor: int | None,
    write_deadlines: bool = True,
    chosen: str | None = None,
) -> Published:
    """Render the move for every recipient into outbox rows (and, unless `write_deadlines` is False, write the
    deadlines of games with people: a caller that writes them itself takes `Published.prompts`). `chosen`: the code
    the actor tapped, which their answered question then names."""
    engine_game = get_game(game.kind)
    out = Published()
    names, langs = table_names(game, seats, users)
    pres = presenting.presentation(
        game.kind,
        state,
        events,
        game_id=game.id,
        seq=game.seq,
        group_lang=game.language,
        seat_langs=langs,
        seat_names=names,
        people=set(users),
        with_image=bool((game.options or {}).get("picture")),
    )
    group = (chat.platform, chat.platform_id)
    over = engine_game.result(state) is not None
    pending = {} if over else {p.seat: p for p in engine_game.pending(state)}
    settings = get_settings()
    opts = game.options or {}
    durations = {
        "turn": float(opts.get("turn_deadline", settings.turn_deadline)),
        "response": float(opts.get("response_deadline", settings.response_deadline)),
        no_idle.WINDOW: float(opts.get("window_deadline", settings.window_deadline)),
    }
    # the board's clock: a decision asked now runs its full time (one that goes on keeps its older clock, which
    # the beat's pass shows within a scan: `service.play.board_clock`)
    clocks = [
        durations[no_idle.timing(game.kind, pending[seat.seat])]
        for seat in seats
        if seat.seat in users and seat.seat in pending and seat.pilot is None
    ]
    board = board_post.with_clock(game, pres.board, min(clocks, default=None))
    if board_post.post(s, game, chat, board, pres.board_image):
        out.chats.add(group)
    lines = list(pres.lines)
    silence = pres.silence  # the engine ends the silence with the game (C-SILENCE)
    if silence is not None and silence != game.silence:
        game.silence = silence
        outbox.add(s, *group, "restrict" if silence else "unrestrict", is_group=chat.is_group)
        lines.append(presenting.t(game.language, "notice.silence_on" if silence else "notice.silence_off"))
    # a move is part of its seat's run: the seat's consecutive moves read as one message (`service.delivery.gather`),
    # a bot's through its turn, a person's while each comes within `PERSON_RUN` of the one before (a turn of taps)
    run = {} if actor is None else {"run": f"{game.id}:{actor}", **({"within": PERSON_RUN} if actor in users else {})}
    for text in narration.pack(lines):  # one message per move, split only past the platform's limit
        outbox.add(s, *group, "send", {"text": text, **run}, is_group=chat.is_group)
        out.chats.add(group)

    prompts: dict[int, tuple[int, str]] = {}
    for seat in seats:
        user = users.get(seat.seat)
        if user is None:  # a bot: its moves are enqueued by seq, it needs no panel or deadline
            seat.prompt_seq = None
            continue
        dm = (chat.platform, direct_chat_of(user))
        # if the bot cannot reach the user privately yet, delivery asks them in the group to open a direct chat
        reach = (
            {}
            if user.direct_chat
            else {"group": chat.platform_id, "name": seat_name(seat, users), "lang": langs[seat.seat]}
        )
        asked = seat.prompt_seq
        p = pres.panels.get(seat.seat)
        if p is not None:
            # `prompt_sig` keeps two digests: the panel as the engine offers it (without its buttons' seq), which
            # says whether the prompt changed, and the hand message as shown, which says whether it needs an edit
            # (an unchanged one would be an edit the platform refuses: "message is not modified")
            key = outbox.digest({"panel": presenting.panel_digest_key(p)})[:32]
            # the autopilot's seat is asked nothing: its owner's tap on the hand's buttons takes it back
            hand = asking.hand_payload(p, seat.seat in pending and seat.pilot is None, reach)
            shown = outbox.digest({"text": hand["text"], "buttons": hand["buttons"]})[:32]  # what the chat shows
            before = seat.prompt_sig or ""
            changed = key != before[:32] or seat.seat == actor
            if changed or seat.prompt_seq is None:
                seat.prompt_seq = game.seq if seat.seat in pending else None
            if changed:
                if shown != before[32:]:
                    outbox.upsert(s, *dm, asking.panel_ref(game.id, seat.seat), hand)
                    out.chats.add(dm)
                seat.prompt_sig = key + shown
            if seat.seat not in pending:
                seat.prompt_seq = None
        lang = langs[seat.seat]
        new = seat.prompt_seq if seat.prompt_seq != asked else None  # a decision that comes now
        comes = new is not None and asked is None
        recap = asking.recap(s, game, seat.seat, actor, events, lang, names) if comes else None
        for line in [recap] if recap else pres.private_lines.get(seat.seat, []):
            outbox.add(s, *dm, "send", {"text": line, **reach})
            out.chats.add(dm)
        if asked is not None and asked != seat.prompt_seq:
            answered = seat.seat == actor
            asking.close(s, dm, game.id, seat.seat, asked, lang, answered=answered, chosen=chosen if answered else None)
            out.chats.add(dm)
        if new is not None and p is not None and seat.pilot is None:
            left = durations[no_idle.timing(game.kind, pending[seat.seat])]
            asking.ask(s, dm, game, seat.seat, new, p, lang, left, reach)
            out.chats.add(dm)
        if seat.seat in pending and seat.prompt_seq is not None and seat.pilot is None:  # the autopilot has no clock
            prompts[seat.seat] = (seat.prompt_seq, no_idle.timing(game.kind, pending[seat.seat]))

    if users:  # all-bot tables have no deadlines to keep
        out.prompts, out.durations = prompts, durations
        if write_deadlines:
            deadline_rows.set_for_game(s, game.id, prompts, durations, tuple(settings.reminder_fractions), utcnow())
    out.meta = {
        "status": game.status,
        "seq": game.seq,
        "seats": {user.platform_id: seat for seat, user in users.items()},
        "prompts": {str(seat): seq for seat, (seq, _) in prompts.items()},
        # seats with a standing action (the gateways' precheck lets their taps through); kept out of every message
        "standing": [seat for seat in users if not over and engine_game.standing_actions(state, seat)],
        # the autopilot's seats (their owner's tap may take them back) and who lost a seat here (told it is not theirs)
        "piloted": sorted(moving_seats({"piloted": opts.get("piloted")})),
        "former": list(opts.get("former") or ()),
    }
    return out


def record_move(
    s: Session,
    game: GameRow,
    table: game_rows.Table,
    state: Any,
    events: list[Event],
    seat: int,
    write_deadlines: bool = True,
    chosen: str | None = None,
) -> Published:
    """Advance the game and queue what the move shows (`chosen`: the code a person tapped); the caller writes it
    all with `save_move` (or, with `write_deadlines` False, the deadlines too, with `save_move_if_current`)."""
    outbox.buffer(s)
    game.seq += 1
    result = get_game(game.kind).result(state)
    if result is not None:
        game.status = "finished"
        game.result = result
    pause = os.environ.get(_PAUSE_ENV)
    if pause:
        time.sleep(float(pause))
    chat = table.chat
    published = write_messages(s, game, chat, state, events, table.seats, table.users, seat, write_deadlines, chosen)
    if result is not None:
        names = {row.seat: seat_name(row, table.users) for row in table.seats}
        ending.announce(s, game, chat, state, seat, events, names)
    published.chats |= spectators.mirror(s, game, chat, outbox.buffered_rows(s))  # followers see what the chat sees
    return published
