"""Who plays a seat of a running game: handing it to the autopilot, taking it back, and a substitute taking it over.

Each change runs under the game's row lock (`change_seats`), as a move does, so a change and a move, or two changes
(a substitute and the returning owner at once), are applied one after the other and the second sees the first: it
finds the seat no longer as it expected and is refused. A change bumps the game's roster (`GameRow.roster`): a bot
move computed from a cached table of the old roster is not written (`games.save_move_if_current`). It is logged
(`GameEvent`), told in the group, and the game is published again (board marks, panels, deadlines) in the same
transaction; after commit the autopilot's seat is handed on if it must decide.

A seat whose owner left (or was replaced) has no user: the board marks it "🤖 (left)", its panel goes to no one, and
its former owner's old panel is replaced by a line saying the seat is no longer theirs. A substitute becomes the
seat's user: the next move's messages send them the seat's panel (hand, loyalty, what the seat knows), and only them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.play import asking, pilots, spectators
from service.play.hand_on import request_deliveries, schedule_bot
from service.play.move_messages import direct_chat_of, write_messages
from service.play.state import load_state
from service.render import days as texts
from service.sessions import get_sessions
from service.store import games as game_rows
from service.store import outbox, session_scope, table_epochs
from service.store.models import Chat, GameEvent, GameRow, Seat, User

Edit = Callable[[Session, GameRow, list[Seat], Chat], str]


def change_seats(game_id: int, edit: Edit) -> str:
    """Run `edit(s, game, seats, chat)` on the running game under its lock; when it answers "ok", write the game
    again and hand on the autopilot's move. Returns `edit`'s status ("no_game" if the game is not running). `edit`
    decides before it changes anything: a refusal leaves no trace."""
    with session_scope() as s:
        game = game_rows.lock_game(s, game_id)
        if game is None or game.status != "active":
            return "no_game"
        seats = game_rows.seats_of(s, game_id)
        chat = s.get(Chat, game.chat_id)
        status = edit(s, game, seats, chat)
        if status != "ok":
            return status
        republish(s, game, seats, chat)
        state = load_state(s, game)
        chats = _chats(s)
    get_sessions().games.forget(game_id)  # the cached meta knew the old seats; the next move caches it again
    request_deliveries(chats)
    schedule_bot(game, state, delay=0.0)
    return "ok"


def republish(s: Session, game: GameRow, seats: list[Seat], chat: Chat) -> None:
    """After a change outside a move: a new roster, the autopilot's seats in the options, and the game published
    again as it stands (only what changed is sent)."""
    game.roster += 1
    game.options = {**game.options, "piloted": sorted(seat.seat for seat in seats if seat.pilot)}
    s.flush()
    table_epochs.stale_for_chat(s, game.chat_id)
    published = write_messages(s, game, chat, load_state(s, game), [], seats, game_rows.seat_users(s, game.id), None)
    s.info.setdefault("days_chats", set()).update(published.chats | {(chat.platform, chat.platform_id)})


def _chats(s: Session) -> set[tuple[str, str]]:
    return s.info.pop("days_chats", set())


def hand_over(
    s: Session, game: GameRow, seat: Seat, chat: Chat, reason: str, actor: User | None = None, tell: bool = True
) -> str:
    """Give `seat` to the autopilot for `reason` (left, idle, away, forced). One who left loses the seat: it keeps no
    user, and its owner is told the seat is no longer theirs. The group is told (now, or by the caller with
    `announce` once the move it makes is written), with a call for a substitute where one may take the seat
    (`pilots.WANTED`). Returns the name of the seat's person."""
    owner = s.get(User, seat.user_id) if seat.user_id is not None else None
    name = _name(seat, owner)
    seat.bot, seat.pilot, seat.timeouts = pilots.AUTOPILOT, reason, 0
    if reason in pilots.DISMISSED and owner is not None:
        _dismiss(s, game, seat, chat, owner)
    elif owner is not None:  # theirs to take back: a button for it, as their questions stop
        _offer_back(s, game, seat, chat, owner)
    log(s, game, "autopilot", seat.seat, owner, actor, reason=reason)
    if tell:
        s.info.setdefault("days_chats", set()).update(announce(s, game, seat.seat, chat, reason, name))
    return name


def announce(s: Session, game: GameRow, seat: int, chat: Chat, reason: str, name: str) -> set[tuple[str, str]]:
    """Tell the group (and the game's followers: their chats are returned, to deliver) that the autopilot plays
    `name`'s seat, and call for a substitute in the group where one may take it."""
    followers = spectators.tell(s, game, chat, texts.t(game.language, f"days.autopilot.{reason}", name=name))
    if reason in pilots.WANTED:
        call_substitute(s, game, seat, chat, name)
    return followers


def tell(s: Session, game: GameRow, chat: Chat, text: str) -> None:
    """A public notice of a change to the game, to its group and its followers, delivered once the change commits
    (`change_seats`)."""
    s.info.setdefault("days_chats", set()).update(spectators.tell(s, game, chat, text))


def take_back(s: Session, game: GameRow, seat: Seat, chat: Chat, owner: User, actor: User | None = None) -> None:
    """The seat's owner plays it again (their tap, `/back`, or an admin)."""
    seat.bot, seat.pilot, seat.timeouts = None, None, 0
    seat.prompt_sig = None  # their panel is sent afresh
    log(s, game, "back", seat.seat, owner, actor)
    tell(s, game, chat, texts.t(game.language, "days.back", name=_name(seat, owner)))


def substitute(s: Session, game: GameRow, seat: Seat, chat: Chat, newcomer: User) -> None:
    """`newcomer` takes over `seat`: its hand, loyalty and knowledge go to them alone with the next move's
    messages; whoever held it before loses it (told so, their old buttons refused)."""
    before = s.get(User, seat.user_id) if seat.user_id is not None else None
    old_name = _name(seat, before or _last_owner(s, game, seat))
    if before is not None:
        _dismiss(s, game, seat, chat, before)
    seat.user_id, seat.language = newcomer.id, None
    seat.bot, seat.pilot, seat.timeouts = None, None, 0
    seat.prompt_seq, seat.prompt_sig = None, None  # a panel of their own, at the current seq
    former = [p for p in game.options.get("former") or () if p != newcomer.platform_id]
    game.options = {**game.options, "former": former}
    log(s, game, "takeover", seat.seat, newcomer, None, before=before.id if before is not None else None)
    name = newcomer.name or newcomer.platform_id
    tell(s, game, chat, texts.t(game.language, "days.takeover", name=name, old=old_name))
    dm = (chat.platform, direct_chat_of(newcomer))
    text = texts.t(newcomer.language or game.language, "days.welcome", game_id=game.id, old=old_name)
    outbox.add(s, *dm, "send", {"text": text})


def call_substitute(s: Session, game: GameRow, seat: int, chat: Chat, name: str) -> None:
    text, keyboard = texts.substitute_call(game.language, game.id, seat, name)
    outbox.add(
        s, chat.platform, chat.platform_id, "send", {"text": text, "buttons": texts.buttons(keyboard)},
        is_group=chat.is_group,
    )


def _offer_back(s: Session, game: GameRow, seat: Seat, chat: Chat, owner: User) -> None:
    lang = owner.language or game.language
    dm = (chat.platform, direct_chat_of(owner))
    msgid = "days.offer_back" if seat.pilot in pilots.RECLAIMABLE else "days.forced_notice"
    text, keyboard = texts.confirm(lang, game.id, "reclaim", seat.seat, owner.id, msgid)
    payload = {"text": text, "buttons": texts.buttons(keyboard) if seat.pilot in pilots.RECLAIMABLE else None}
    outbox.add(s, *dm, "send", payload)
    s.info.setdefault("days_chats", set()).add(dm)


def _dismiss(s: Session, game: GameRow, seat: Seat, chat: Chat, owner: User) -> None:
    """`owner` loses the seat: no user on it, their platform id among the former owners (their taps are told the
    seat is no longer theirs), and their panel's message edited to say so, without buttons."""
    seat.user_id = None
    former = set(game.options.get("former") or ()) | {owner.platform_id}
    left_by = {**(game.options.get("left_by") or {}), str(seat.seat): owner.name or owner.platform_id}
    game.options = {**game.options, "former": sorted(former), "left_by": left_by}
    lang = owner.language or game.language
    dm = (chat.platform, direct_chat_of(owner))
    if seat.prompt_seq is not None:  # the question they were asked loses its buttons
        asking.close(s, dm, game.id, seat.seat, seat.prompt_seq, lang, answered=False)
    text = texts.t(lang, "days.no_longer_yours", game_id=game.id)
    outbox.upsert(s, *dm, asking.panel_ref(game.id, seat.seat), {"text": text})
    s.info.setdefault("days_chats", set()).add(dm)


def log(
    s: Session, game: GameRow, kind: str, seat: int | None, user: User | None, actor: User | None, **detail: Any
) -> None:
    """One change to the game in its log (`GameEvent`)."""
    s.add(
        GameEvent(
            game_id=game.id,
            seq=game.seq,
            kind=kind,
            seat=seat,
            user_id=user.id if user is not None else None,
            actor_id=actor.id if actor is not None else None,
            detail=detail,
        )
    )


def _name(seat: Seat, owner: User | None) -> str:
    """The seat's person by name, without the marks `seat_name` adds."""
    return (owner.name or owner.platform_id) if owner is not None else f"Bot {seat.seat + 1}"


def _last_owner(s: Session, game: GameRow, seat: Seat) -> User | None:
    """Who last held a seat that has no user now (the log of its hand-over)."""
    user_id = s.scalar(
        select(GameEvent.user_id)
        .where(GameEvent.game_id == game.id, GameEvent.seat == seat.seat, GameEvent.user_id.is_not(None))
        .order_by(GameEvent.id.desc())
        .limit(1)
    )
    return s.get(User, user_id) if user_id is not None else None


def seat_of(seats: list[Seat], user: User) -> Seat | None:
    return next((seat for seat in seats if seat.user_id == user.id), None)


def seat_numbered(seats: list[Seat], number: Any) -> Seat | None:
    """The seat a person names by its number as shown (1-based), or None."""
    text = str(number)
    if not (text.isascii() and text.isdigit() and len(text) <= 2):
        return None
    return next((seat for seat in seats if seat.seat == int(text) - 1), None)


def reclaim(game_id: int, platform: str, platform_id: str) -> str:
    """The owner's tap takes their seat back from the autopilot, if it is still theirs and theirs to take back
    ("ok"); else nothing changes ("not_piloted")."""

    def edit(s: Session, game: GameRow, seats: list[Seat], chat: Chat) -> str:
        user = s.scalar(select(User).where(User.platform == platform, User.platform_id == platform_id))
        seat = seat_of(seats, user) if user is not None else None
        if seat is None or seat.pilot not in pilots.RECLAIMABLE:
            return "not_piloted"
        take_back(s, game, seat, chat, user)
        return "ok"

    return change_seats(game_id, edit)


def to_autopilot(game_id: int, number: int, reason: str, actor_id: int | None = None) -> str:
    """Hand seat `number` (0-based) to the autopilot for `reason` (an admin's "forced", a vacation's "away"): "ok",
    or "not_seated" when no person plays it now."""

    def edit(s: Session, game: GameRow, seats: list[Seat], chat: Chat) -> str:
        seat = next((x for x in seats if x.seat == number), None)
        if seat is None or seat.user_id is None or seat.pilot is not None:
            return "not_seated"
        hand_over(s, game, seat, chat, reason, s.get(User, actor_id) if actor_id is not None else None)
        return "ok"

    return change_seats(game_id, edit)
