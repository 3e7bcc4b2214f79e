"""The beat task's work: reminders before a deadline, the timeout policy at it.

Deadlines are rows (never long ETA tasks), so one that passed while every process was down fires on the first
scan after restart. Reminders: the first in the player's direct chat, later ones mention them in the group.
At the deadline the seat's move is `game.timeout_action` (a `play_bot` with by="timeout", valid only while
the seat's prompt is the one the row was set for), announced in the group.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, exists, select

from service.play import autopilot, away, pilots, presenting, quiet
from service.play.asking import where
from service.play.hand_on import resume_checked
from service.play.move_messages import direct_chat_of
from service.play.pilots import moving_seats
from service.play.queue import enqueue, request_delivery
from service.render.clock import left_words
from service.sessions import get_sessions
from service.settings import get_settings
from service.store import deadlines as deadline_rows
from service.store import games as game_rows
from service.store import outbox, session_scope
from service.store.models import Chat, Deadline, GameRow, OutboxRow, ProcessedUpdate, utcnow


def scan(now: datetime | None = None) -> dict[str, int]:
    """One pass over due rows; returns counts of reminders sent and timeouts started. A person away on vacation
    gets no reminder, and their deadline is moved on or their seat handed to the autopilot (`away.at_deadline`).
    In a group's quiet hours nothing is sent and no timeout applied: it waits for their end (`quiet`), but for a
    direct-chat reminder its person asked to have anyway (`/quiet off`)."""
    now = now or utcnow()
    settings = get_settings()
    fractions = tuple(settings.reminder_fractions)
    counts = {"reminders": 0, "timeouts": 0}
    timeouts: list[tuple[int, int, int]] = []
    piloting: list[tuple[int, int]] = []
    chats: set[tuple[str, str]] = set()
    with session_scope() as s:
        for row in deadline_rows.due(s, now):
            game = s.get(GameRow, row.game_id)
            hush = quiet.end_of_quiet(s.get(Chat, game.chat_id).quiet, now)
            user = game_rows.seat_users(s, game.id).get(row.seat)
            if hush is not None and not (now < row.due_at and quiet.reminds_anyway(user, row)):
                # the group's quiet hours: what falls due now waits for their end (but a direct-chat reminder the
                # person asked to have anyway)
                row.next_at = hush
                row.due_at = max(row.due_at, hush) if now >= row.due_at else row.due_at
                continue
            away_until = user.away_until if user is not None and user.away_until else None
            if now >= row.due_at:
                verdict = away.at_deadline(s, game, row, away_until, now)  # a vacation moves it on, or pilots
                if verdict == "extended":
                    continue
                (piloting if verdict == "autopilot" else timeouts).append((game.id, row.seat, row.seq))
                row.next_at = now + timedelta(seconds=2 * settings.deadline_scan_interval)  # until the move lands
                continue
            seconds = (row.due_at - now).total_seconds()
            if user is not None and (away_until is None or away_until <= now):  # no reminders on a vacation
                lang = user.language or game.language
                if row.reminders == 0:
                    target = (game_platform(s, game), direct_chat_of(user))
                    text = presenting.t(lang, "ask.reminder", where=where(game, lang), left=left_words(lang, seconds))
                    outbox.add(s, *target, "send", {"text": text})
                else:
                    chat = s.get(Chat, game.chat_id)
                    target = (chat.platform, chat.platform_id)
                    name = user.name or user.platform_id
                    left = left_words(game.language, seconds)
                    text = presenting.t(game.language, "notice.reminder_group", mention=name, left=left)
                    outbox.add(
                        s, *target, "send", {"text": text, "mention_users": [user.platform_id]}, is_group=chat.is_group
                    )
                chats.add(target)
                counts["reminders"] += 1
            row.reminders += 1
            row.next_at = deadline_rows.next_time(row.started_at, row.due_at, row.reminders, fractions)
    for platform, chat in sorted(chats):
        request_delivery(platform, chat)
    for game_id, seat, seq in timeouts:
        enqueue("play_bot", game_id=game_id, seat=seat, seq=seq, by="timeout")
        counts["timeouts"] += 1
    for game_id, seat, _ in piloting:
        autopilot.to_autopilot(game_id, seat, pilots.AWAY)
    return counts


def resume_stalled_bots(now: datetime | None = None, limit: int = 200) -> int:
    """Recovery: an active game with bot seats that has not moved for `RECOVERY_GRACE` seconds (beyond three bot
    paces) and asks no person (no deadline row: a person's open prompt has one, written with the move) has lost
    its bot's move: the worker died between the move's commit and its hand-on, or the task was lost. Hand it on
    again. Only the database decides: the cached meta may be as stale as the hand-on that did not happen. (A
    bot asked in a window that also asks a person is handed on by the person's answer, or by the timeout.)"""
    now = now or utcnow()
    grace = get_settings().recovery_grace
    sessions = get_sessions()
    stalled = []
    asks_a_person = exists().where(Deadline.game_id == GameRow.id)
    with session_scope() as s:
        rows = s.execute(
            select(GameRow.id, GameRow.seq, GameRow.options, GameRow.updated)
            .where(GameRow.status == "active", GameRow.updated < now - timedelta(seconds=grace), ~asks_a_person)
            .order_by(GameRow.updated)
            .limit(limit)
        )
        for game_id, seq, options, updated in rows:
            options = options or {}
            pace = float(options.get("bot_delay") or 0.0)
            if not moving_seats(options) or updated > now - timedelta(seconds=grace + 3 * pace):
                continue
            # not already found with no bot to move at this seq
            if not sessions.marks.is_set(resume_checked(game_id, seq)):
                stalled.append(game_id)
    for game_id in stalled:
        enqueue("resume_bots", game_id=game_id)
    return len(stalled)


def forget_stale_caches(now: datetime | None = None) -> int:
    """Recovery: a move whose hand-on was lost left the game's cached meta behind the database, and the gateways'
    precheck, which lets a button one move ahead of the cache through, would refuse the next prompts' buttons as
    expired once more moves were made without a hand-on. The games last moved between `RECOVERY_GRACE` and three
    scans before that are looked at: those whose cache lags lose it (the precheck then lets their taps through to
    the worker, and the next move caches them again). Returns how many."""
    now = now or utcnow()
    settings = get_settings()
    since = now - timedelta(seconds=settings.recovery_grace + 3 * settings.deadline_scan_interval)
    with session_scope() as s:
        rows = s.execute(
            select(GameRow.id, GameRow.seq).where(
                GameRow.status == "active",
                GameRow.updated < now - timedelta(seconds=settings.recovery_grace),
                GameRow.updated >= since,
            )
        ).all()
    sessions = get_sessions()
    stale = [
        game_id for game_id, seq in rows if (meta := sessions.games.get_meta(game_id)) and meta.get("seq", seq) < seq
    ]
    for game_id in stale:
        sessions.games.forget(game_id)
    return len(stale)


def game_platform(s, game: GameRow) -> str:
    return s.scalar(select(Chat.platform).where(Chat.id == game.chat_id))


def sweep_outbox(platform: str | None = None) -> int:
    """Recovery: enqueue delivery for every chat with due rows (after a crash or a lost deliver task); with a
    broker, once per shard of those chats. `platform`: only its chats (a gateway that starts sends what its
    killed predecessor left). Returns how many tasks."""
    with session_scope() as s:
        chats = [c for c in outbox.chats_with_pending(s) if platform in (None, c[0])]
    if get_settings().celery_broker_url:
        shards = sorted({(platform, outbox.shard_of(chat)) for platform, chat in chats})
        for platform, shard in shards:
            enqueue("deliver", platform=platform, shard=shard)  # forced: not coalesced
        return len(shards)
    for platform, chat in chats:
        enqueue("deliver", platform=platform, chat=chat)
    return len(chats)


def prune(now: datetime | None = None, keep_days: float = 7.0) -> int:
    """Forget what only matters for a while: processed update ids and finished outbox rows older than `keep_days`
    (a platform does not redeliver an update days later). Returns how many rows went."""
    cutoff = (now or utcnow()) - timedelta(days=keep_days)
    with session_scope() as s:
        gone = s.execute(delete(ProcessedUpdate).where(ProcessedUpdate.created < cutoff)).rowcount
        gone += s.execute(delete(OutboxRow).where(OutboxRow.status != "pending", OutboxRow.created < cutoff)).rowcount
    return gone
