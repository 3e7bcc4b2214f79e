"""Lobby logic shared by every platform: create a game in a chat, join, leave, change options, start, abort.

A lobby is a `games` row with status "lobby"; its id is the game id. One open lobby or game per chat.
Every function is one transaction; it updates the lobby message (edited in place) through the outbox and
returns a status word ("ok", "full", "not_creator", …) that `service.play.dispatch` turns into a reply.
`create_and_start` seats given users and bots and starts at once (the terminal game, benchmarks); `start_table`
does so in the caller's transaction (a tournament's round opens its tables in one).
"""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy.orm import Session

import engine
from engine import get_game
from engine.core.errors import IllegalAction
from service.observability import metrics
from service.play import lobby_options, pilots, tables
from service.play.hand_on import after_commit
from service.play.move_messages import Published, write_messages
from service.play.queue import request_delivery
from service.render.i18n import normalize
from service.render.lobby import lobby_message
from service.sessions import get_sessions
from service.settings import get_settings
from service.store import deadlines as deadline_rows
from service.store import games as game_rows
from service.store import outbox, session_scope
from service.store.models import Chat, GameRow, Seat, User
from service.store.users import chat_for, user_for

DEFAULT_PLAYERS = {"board": 4, "cards": 3}


def create(
    platform: str,
    chat: str,
    user: str,
    *,
    kind: str = "board",
    players: int | None = None,
    bots: bool = False,
    variants: dict[str, Any] | None = None,
    language: str | None = None,
    turn_hours: float | None = None,
    response_minutes: float | None = None,
    user_name: str | None = None,
    seed: int | None = None,
    title: str | None = None,
) -> tuple[str, int | None]:
    """Open a lobby in `chat` with its creator seated; ("busy", id) if the chat already has an open game. `title`:
    the group's name, which the players' direct chats name the game by."""
    if kind not in engine.GAMES:
        return "bad_value", None
    settings = get_settings()
    with session_scope() as s:
        chat_row = chat_for(s, platform, chat, True)
        existing = game_rows.open_game_in_chat(s, chat_row)
        if existing is not None:
            return "busy", existing.id
        creator = user_for(s, platform, user, user_name, language)
        game = GameRow(
            kind=kind,
            config=dict(variants or {}),
            options={
                "players": players or DEFAULT_PLAYERS.get(kind, get_game(kind).min_players),
                "bots": bots,
                "bot_delay": settings.chat_bot_delay,
                "picture": settings.board_pictures,
                "turn_deadline": (turn_hours * 3600) if turn_hours else settings.turn_deadline,
                "response_deadline": (response_minutes * 60) if response_minutes else settings.response_deadline,
                **({"title": title[:64]} if title else {}),
            },
            seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
            status="lobby",
            language=normalize(language or chat_row.language or creator.language or settings.default_language),
            chat_id=chat_row.id,
            creator_id=creator.id,
        )
        s.add(game)
        s.flush()
        s.add(Seat(game_id=game.id, seat=0, user_id=creator.id))
        s.flush()
        _show(s, game, chat_row)
        game_id = game.id
    _deliver(platform, chat)
    return "ok", game_id


def join(game_id: int, platform: str, user: str, user_name: str | None = None) -> str:
    def change(s: Session, game: GameRow, seats: list[Seat], me: User) -> str:
        if len(seats) >= game.options["players"]:
            game.options = {**game.options, "players": len(seats) + 1}
        s.add(Seat(game_id=game.id, seat=len(seats), user_id=me.id))
        return "ok"

    return _in_lobby(game_id, platform, user, "join", change, user_name=user_name)


def leave(game_id: int, platform: str, user: str) -> str:
    def change(s: Session, game: GameRow, seats: list[Seat], me: User) -> str:
        mine = next(seat for seat in seats if seat.user_id == me.id)
        s.delete(mine)
        s.flush()
        for number, seat in enumerate(seat for seat in seats if seat is not mine):
            seat.seat = number
        return "ok"

    return _in_lobby(game_id, platform, user, "leave", change)


def set_option(game_id: int, platform: str, user: str, option: str, value: str, is_admin: bool = False) -> str:
    """Creator (or a chat admin) only: one option of the lobby (`service.play.lobby_options` says which)."""

    def change(s: Session, game: GameRow, seats: list[Seat], me: User) -> str:
        return lobby_options.apply(game, len(seats), option, value)

    return _in_lobby(game_id, platform, user, "set", change, is_admin=is_admin)


def start(game_id: int, platform: str, user: str, is_admin: bool = False) -> str:
    """Creator (or a chat admin) starts: bots fill empty seats if chosen; the engine validates the config."""
    with session_scope() as s:
        game = game_rows.lock_game(s, game_id)
        refused = _refusal(s, game, "start", platform, user, is_admin)
        if refused is not None:
            return refused
        lobby_chat = s.get(Chat, game.chat_id)
        people = sum(1 for seat in game_rows.seats_of(s, game.id) if seat.user_id is not None)
        table = tables.moved_at_start(s, platform, lobby_chat, people)
        if table is not None:  # the game goes on in a room of its own; the lobby message stays where it was
            game.chat_id = table.id
        started = _start(s, game)
        if isinstance(started, str):
            if table is not None:
                game.chat_id = lobby_chat.id
                s.delete(table)
            return started
        _show(s, game, lobby_chat)
    after_commit(game, started[0], started[1])
    _deliver(lobby_chat.platform, lobby_chat.platform_id)
    return "ok"


def abort(game_id: int, platform: str, user: str, is_admin: bool = False) -> str:
    """Creator or chat admin (the gateway says so); works in the lobby and during the game."""
    with session_scope() as s:
        game = game_rows.lock_game(s, game_id)
        refused = _refusal(s, game, "abort", platform, user, is_admin)
        if refused is not None:
            return refused
        chat = s.get(Chat, game.chat_id)
        metrics.game_aborted(game)
        game.status = "aborted"
        deadline_rows.clear_game(s, game.id)
        if game.silence:
            game.silence = False
            outbox.add(s, chat.platform, chat.platform_id, "unrestrict", is_group=chat.is_group)
        _show(s, game, chat)
    get_sessions().games.forget(game_id)
    _deliver(chat.platform, chat.platform_id)
    return "ok"


def create_and_start(
    platform: str,
    chat: str,
    kind: str,
    config: dict[str, Any],
    humans: list[str],
    bots: int,
    seed: int,
    language: str = "en",
    bot_kind: str = "heuristic",
    bot_delay: float = 0.0,
    first_delay: float | None = None,
    picture: bool = False,
) -> int:
    """Seat `humans` (platform user ids, in seat order) then `bots` bots, and start. Returns the game id.
    `bot_delay`: about how many seconds a bot waits before each move (`first_delay`, if given, before the first);
    `picture`: the board as a picture too (the terminal game and the benchmarks go without)."""
    with session_scope() as s:
        chat_row = chat_for(s, platform, chat, True)
        people = [user_for(s, platform, user).id for user in humans]
        options = {"bot_kind": bot_kind, "bot_delay": bot_delay, "picture": picture}
        game, state, published = start_table(s, chat_row, kind, config, people, bots, seed, language, options)
    after_commit(game, state, published, first_delay)
    return game.id


def start_table(
    s: Session,
    chat: Chat,
    kind: str,
    config: dict[str, Any],
    people: list[int],
    bots: int,
    seed: int,
    language: str,
    options: dict[str, Any],
) -> tuple[GameRow, Any, Published]:
    """Seat `people` (user row ids, in seat order) then `bots` bots in `chat` and start, in the caller's transaction
    (a tournament opens a round's tables in the one that creates the round); the caller hands on with
    `after_commit(game, state, published)` once it has committed. `options` add to or override the game's service
    options (deadlines, bot kind and pace). Raises ValueError when the engine refuses the configuration."""
    game = GameRow(
        kind=kind,
        config={k: v for k, v in config.items() if k != "players"},
        options={
            "players": len(people) + bots,
            "bots": bots > 0,
            "bot_kind": "heuristic",
            "bot_delay": get_settings().chat_bot_delay,
            "picture": get_settings().board_pictures,
            "turn_deadline": get_settings().turn_deadline,
            "response_deadline": get_settings().response_deadline,
            **options,
        },
        seed=seed,
        status="lobby",
        language=language,
        chat_id=chat.id,
    )
    s.add(game)
    s.flush()
    for number, user_id in enumerate(people):
        s.add(Seat(game_id=game.id, seat=number, user_id=user_id))
    s.flush()
    started = _start(s, game)
    if isinstance(started, str):
        raise ValueError(f"cannot start {kind} with {config}: {started}")
    return game, *started


def lobby_view(s: Session, game: GameRow) -> dict[str, Any]:
    engine_game = get_game(game.kind)
    seats = game_rows.seats_of(s, game.id)
    users = game_rows.seat_users(s, game.id)
    return {
        "id": game.id,
        "kind": game.kind,
        "status": game.status,
        "players": game.options.get("players", len(seats)),
        "bots": bool(game.options.get("bots")),
        "names": [(users[seat.seat].name or users[seat.seat].platform_id) for seat in seats if seat.seat in users],
        "turn_hours": round(game.options.get("turn_deadline", 0) / 3600, 1),
        "response_minutes": round(game.options.get("response_deadline", 0) / 60),
        "idle": pilots.idle_limit(game.options),
        "away_hours": round(pilots.away_limit(game.options) / 3600),
        "pause_vote": bool(game.options.get("pause_vote")),
        **({"leaving": game.options.get("leaving", pilots.LEAVING[0])} if game.kind == "board" else {}),
        "min_players": engine_game.min_players,
        "max_players": engine_game.max_players,
        "language": game.language,
        "config": dict(game.config),
    }


def _start(s: Session, game: GameRow) -> tuple[Any, Any] | str:
    """Seat bots, build the first state and write its messages; a status word if the table cannot start."""
    engine_game = get_game(game.kind)
    seats = game_rows.seats_of(s, game.id)
    table = max(game.options.get("players", len(seats)), len(seats)) if game.options.get("bots") else len(seats)
    if not (engine_game.min_players <= table <= engine_game.max_players):
        return "not_enough" if table < engine_game.min_players else "full"
    for number in range(len(seats), table):
        bot = Seat(game_id=game.id, seat=number, bot=game.options.get("bot_kind", "heuristic"))
        s.add(bot)
        seats.append(bot)
    config = {**game.config, "players": table}
    try:
        state = engine_game.new_game(config, game.seed)
    except (ValueError, KeyError, TypeError, IllegalAction):
        return "bad_config"
    game.config = config
    game.options = {**game.options, "players": table, "bot_seats": [seat.seat for seat in seats if seat.bot]}
    game.status = "active"
    s.flush()
    chat = s.get(Chat, game.chat_id)
    published = write_messages(s, game, chat, state, [], seats, game_rows.seat_users(s, game.id), None)
    return state, published


def refusal(game: GameRow | None, seats: list[Seat], verb: str, me: int | None, is_admin: bool = False) -> str | None:
    """Why the user with row id `me` (None: never seen) may not `verb` (join, leave, set, start, abort) this game
    now, or None: one rule for the gateway's early, private answer (`service.play.admission`) and the change itself."""
    if verb == "abort":
        if game is None or game.status not in game_rows.OPEN:
            return "no_game"
    elif game is None or game.status != "lobby":
        return "no_lobby"
    seated = me is not None and any(seat.user_id == me for seat in seats)
    if verb == "join":
        if seated:
            return "already"
        if len(seats) >= get_game(game.kind).max_players:
            return "full"
    elif verb == "leave":
        return None if seated else "not_seated"
    elif verb in ("set", "start", "abort"):
        return None if is_admin or (me is not None and game.creator_id == me) else "not_creator"
    return None


def _refusal(s: Session, game: GameRow | None, verb: str, platform: str, user: str, is_admin: bool) -> str | None:
    seats = game_rows.seats_of(s, game.id) if game is not None else []
    return refusal(game, seats, verb, user_for(s, platform, user).id, is_admin)


def _in_lobby(
    game_id: int,
    platform: str,
    user: str,
    verb: str,
    change: Any,
    *,
    is_admin: bool = False,
    user_name: str | None = None,
) -> str:
    """`change(s, game, seats, me)` under the game's lock, if `refusal` allows the user `verb`; the lobby message
    follows."""
    with session_scope() as s:
        game = game_rows.lock_game(s, game_id)
        seats = game_rows.seats_of(s, game.id) if game is not None else []
        me = user_for(s, platform, user, user_name)
        status = refusal(game, seats, verb, me.id, is_admin) or change(s, game, seats, me)
        if status != "ok":
            return status
        s.flush()
        chat = s.get(Chat, game.chat_id)
        _show(s, game, chat)
    _deliver(chat.platform, chat.platform_id)
    return status


def _show(s: Session, game: GameRow, chat: Chat) -> None:
    """The lobby message in `chat`, edited in place (it says so when the game started in a room of its own)."""
    text, keyboard = lobby_message({**lobby_view(s, game), "elsewhere": game.chat_id != chat.id}, game.language)
    buttons = [[[b.label, b.data] for b in row] for row in keyboard] if keyboard else None
    outbox.upsert_if_changed(
        s,
        chat.platform,
        chat.platform_id,
        f"lobby:{game.id}",
        {"text": text, "buttons": buttons},
        is_group=chat.is_group,
    )


def _deliver(platform: str, chat: str) -> None:
    request_delivery(platform, chat)
