"""Bot moves computed from the game's cached table and written only if the game is still at their seq
(`service.play.bot_move.play_bot`, `service.store.games.save_move_if_current`): the same rows as under the row lock, no
write when the game moved on, and no use of a table that a change outside the moves made stale."""

from __future__ import annotations

import pickle
import re

import pytest
from sqlalchemy import inspect, select, text

from service.callback import unpack
from service.play import bot_move, lobby
from service.play.queue import take_scheduled
from service.play.state import Cached
from service.sessions import get_sessions
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import Chat, Deadline, GameRow, OutboxRow, Seat
from service.store.users import user_for

PACE = 3600.0  # the bots' moves wait in the schedule, and the test plays them


@pytest.fixture(autouse=True)
def scheduled(backbone_pg, monkeypatch: pytest.MonkeyPatch):
    """With a broker configured, paced bot moves and deliveries wait in Redis's schedule (nothing consumes them)."""
    from service.settings import get_settings

    monkeypatch.setenv("CELERY_BROKER_URL", backbone_pg.redis_url)
    get_settings.cache_clear()
    with session_scope() as s:  # game ids that no text shows otherwise (`_written` makes them neutral)
        s.execute(text("ALTER SEQUENCE games_id_seq RESTART WITH 700001"))
    yield
    monkeypatch.delenv("CELERY_BROKER_URL")
    get_settings.cache_clear()


@pytest.fixture
def locks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The game ids `lock_with_table` was called for (the locking path), in order."""
    calls: list[int] = []
    real = game_rows.lock_with_table

    def counted(s, game_id):
        calls.append(game_id)
        return real(s, game_id)

    monkeypatch.setattr(game_rows, "lock_with_table", counted)
    return calls


def _written(game_id: int) -> dict[str, object]:
    """What a game wrote: its row, log, seats' prompts, deadlines and outbox rows (game ids and chat names made
    neutral so that two games of the same seed compare)."""
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        group = s.get(Chat, game.chat_id).platform_id
        rows = s.execute(select(OutboxRow).where(OutboxRow.created >= game.created).order_by(OutboxRow.id)).scalars()
        neutral = re.compile(rf"\b{game_id}\b")
        outbox = [
            (
                row.chat == group,
                row.op,
                neutral.sub("#", row.ref or ""),
                neutral.sub("#", repr(_readable(row.payload))).replace(group, "GROUP"),
            )
            for row in rows
            if row.chat == group or not row.chat.startswith("grp")
        ]
        return {
            "game": (game.status, game.seq, game.result, game.silence, game.board_digest is not None),
            "log": game_rows.action_log(s, game_id),
            "seats": [
                (r.seat, r.prompt_seq, r.prompt_sig) for r in s.scalars(select(Seat).where(Seat.game_id == game_id))
            ],
            "deadlines": sorted(
                (d.seat, d.seq, d.timing, d.reminders)
                for d in s.scalars(select(Deadline).where(Deadline.game_id == game_id))
            ),
            "outbox": outbox,
        }


def _readable(payload: dict) -> dict:
    """The payload with each button's signed data as what it means (its MAC differs with the game id)."""
    buttons = [[[label, repr(unpack(data))] for label, data in row] for row in payload.get("buttons") or []]
    return {**payload, "buttons": buttons} if payload.get("buttons") else payload


def _play_out(game_id: int) -> int:
    """Play the game's scheduled bot moves here until none is left; returns how many were applied."""
    applied = 0
    while waiting := take_scheduled(lambda task, kw: task == "play_bot" and kw["game_id"] == game_id):
        applied += sum(bot_move.play_bot(**kwargs).status == "applied" for kwargs in waiting)
    return applied


def test_a_bot_game_on_cached_tables_writes_what_the_locking_path_writes(backbone_pg, recording, locks, monkeypatch):
    first = lobby.create_and_start("rec", "grp-cached", "cards", {}, [], 4, seed=5, bot_kind="random", bot_delay=PACE)
    played = _play_out(first)
    assert played > 10 and locks == [first]  # only the first move, after the start cached no table, locked

    monkeypatch.setattr(Cached, "table", lambda self: None)  # every move under the lock
    second = lobby.create_and_start("rec", "grp-locked", "cards", {}, [], 4, seed=5, bot_kind="random", bot_delay=PACE)
    assert _play_out(second) == played and locks.count(second) == played

    cached, locked = _written(first), _written(second)
    assert cached["game"][0] == "finished"
    assert cached == locked


def test_bot_moves_beside_a_person_set_the_deadlines_the_locking_path_sets(
    backbone_pg, toy_game, recording, locks, monkeypatch
):
    def game(chat: str) -> dict[str, object]:
        game_id = lobby.create_and_start("rec", chat, "toy", {"target": 14}, ["alice"], 2, seed=3, bot_delay=PACE)
        checked = []
        while True:
            _play_out(game_id)
            with session_scope() as s:
                row = s.get(GameRow, game_id)
                alice = s.scalars(select(Seat).where(Seat.game_id == game_id, Seat.seat == 0)).one()
                if row.status != "active":
                    break
                deadline = s.scalars(select(Deadline).where(Deadline.game_id == game_id, Deadline.seat == 0)).one()
                checked.append((alice.prompt_seq, deadline.seq, deadline.timing))
            assert bot_move.play_bot(game_id, 0, alice.prompt_seq, by="timeout").status == "applied"  # alice's default
        return {**_written(game_id), "alice's deadlines": checked}

    cached = game("grp-a")
    cached_locks = len(locks)
    monkeypatch.setattr(Cached, "table", lambda self: None)
    locked = game("grp-b")
    assert len(locks) - cached_locks > cached_locks  # the first game took the cached path for some moves
    assert all(prompt == seq for prompt, seq, _ in cached["alice's deadlines"])
    assert {timing for *_, timing in cached["alice's deadlines"]} == {"turn", "response"}
    assert cached == locked


def test_a_move_on_a_table_cached_before_the_game_moved_on_writes_nothing(backbone_pg, recording, locks):
    game_id = lobby.create_and_start("rec", "grp-race", "cards", {}, [], 4, seed=8, bot_kind="random", bot_delay=PACE)
    (task,) = take_scheduled(lambda task, kw: task == "play_bot" and kw["game_id"] == game_id)
    assert bot_move.play_bot(**task).status == "applied"  # under the lock: caches the table at seq 1
    old = get_sessions().games.get_state(game_id)
    (task,) = take_scheduled(lambda task, kw: task == "play_bot" and kw["game_id"] == game_id)
    assert bot_move.play_bot(**task).status == "applied" and len(locks) == 1  # on the cached table
    before = _written(game_id)

    get_sessions().games.put_state(game_id, *old)  # a cache one move behind (its writer was slow)
    redelivered = {**task, "seq": 1}
    assert bot_move.play_bot(**redelivered).status == "stale"  # computed on the cache, refused by the database
    assert _written(game_id) == before and len(locks) == 2

    (task,) = take_scheduled(lambda task, kw: task == "play_bot" and kw["game_id"] == game_id)
    assert task["seq"] == 2 and bot_move.play_bot(**task).status == "applied"  # the cache is behind: under the lock
    assert len(locks) == 3 and _written(game_id)["game"][1] == 3


def test_a_changed_name_makes_the_cached_table_stale_once_committed(backbone_pg, toy_game, recording, locks):
    game_id = lobby.create_and_start("rec", "grp-name", "toy", {"target": 40}, ["alice"], 2, seed=3, bot_delay=PACE)
    assert bot_move.play_bot(game_id, 0, 0, by="timeout").status == "applied"  # alice's first turn
    assert _play_out(game_id) >= 2  # the bots, on the table her move cached
    assert Cached.read(game_id).table() is not None

    with pytest.raises(RuntimeError), session_scope() as s:  # rolled back: nothing changed, nothing stale
        user_for(s, "rec", "alice", "Alicia")
        raise RuntimeError
    assert Cached.read(game_id).table() is not None

    with session_scope() as s:
        user_for(s, "rec", "alice", "Alicia")
    assert Cached.read(game_id).table() is None
    with session_scope() as s:
        prompt = s.scalars(select(Seat.prompt_seq).where(Seat.game_id == game_id, Seat.seat == 0)).one()
    locked = len(locks)
    assert bot_move.play_bot(game_id, 0, prompt, by="timeout").status == "applied"
    assert len(locks) == locked + 1
    with session_scope() as s:
        last = s.scalars(select(OutboxRow).where(OutboxRow.chat == "grp-name").order_by(OutboxRow.id.desc())).first()
    assert "Alicia" in repr(last.payload)


def test_a_cached_table_is_the_table_the_lock_loads_as_plain_values(backbone_pg, toy_game, recording):
    """The table is cached as column values (`game_rows.snapshot`), not as mapped objects, whose instance state cost
    a tenth of a bot move's CPU to pickle and unpickle; made again (`restore`), it is what `lock_with_table` loads:
    every column of the game, chat, seats and users, and the seats' prompts."""
    import pickle

    game_id = lobby.create_and_start("rec", "grp-values", "toy", {"target": 40}, ["alice"], 2, seed=3, bot_delay=PACE)
    assert bot_move.play_bot(game_id, 0, 0, by="timeout").status == "applied"  # under the lock: caches the table
    cached = Cached.read(game_id)
    _, snapshot = pickle.loads(cached.entry[1])

    def plain(value: object) -> bool:
        if isinstance(value, (tuple, list)):
            return all(plain(v) for v in value)
        if isinstance(value, dict):
            return all(plain(k) and plain(v) for k, v in value.items())
        return inspect(value, raiseerr=False) is None  # no mapped object

    assert plain(snapshot)
    _, game, table = cached.table()
    with session_scope() as s:
        locked_game, locked_table = game_rows.lock_with_table(s, game_id)
    assert game.seq == 1 and game.options["bot_seats"] == [1, 2]
    assert sorted(user.platform_id for user in table.users.values()) == ["alice"]
    assert game_rows.snapshot(game, table) == game_rows.snapshot(locked_game, locked_table)
    assert table.prompts == locked_table.prompts


def _old_layout(blob: bytes) -> bytes:
    """The entry as a table cached before the game row had its last column would be."""
    state, ((game, chat, seats), epoch) = pickle.loads(blob)
    return pickle.dumps((state, ((game[:-1], chat, seats), epoch)))


def _old_fields(blob: bytes) -> bytes:
    """The entry as a state cached before its class had its last field would be."""
    state, snapshot = pickle.loads(blob)
    delattr(state, type(state).__slots__[-1])
    return pickle.dumps((state, snapshot))


@pytest.mark.parametrize(
    "spoil", [lambda _: b"not a pickle", _old_layout, _old_fields], ids=["garbage", "layout", "fields"]
)
def test_a_cached_entry_that_cannot_be_read_sends_the_move_down_the_locking_path(backbone_pg, recording, locks, spoil):
    """A cached value written in another shape (a format changed without its bump, or garbage) is not used: the
    move replays the log under the row lock, and is applied as if nothing were cached."""
    game_id = lobby.create_and_start("rec", "grp-spoilt", "cards", {}, [], 4, seed=5, bot_kind="random", bot_delay=PACE)
    (task,) = take_scheduled(lambda task, kw: task == "play_bot" and kw["game_id"] == game_id)
    assert bot_move.play_bot(**task).status == "applied" and len(locks) == 1  # caches the state and table at seq 1
    (task,) = take_scheduled(lambda task, kw: task == "play_bot" and kw["game_id"] == game_id)
    seq, blob = get_sessions().games.get_state(game_id)
    assert Cached.read(game_id).table() is not None
    get_sessions().games.put_state(game_id, seq, spoil(blob))
    assert Cached.read(game_id).table() is None
    assert bot_move.play_bot(**task).status == "applied" and len(locks) == 2
    assert _written(game_id)["game"][1] == 2
    (task,) = take_scheduled(lambda task, kw: task == "play_bot" and kw["game_id"] == game_id)
    assert bot_move.play_bot(**task).status == "applied" and len(locks) == 2  # the move cached a readable entry


def test_a_state_cached_under_another_format_is_not_read(backbone_pg, recording, locks):
    """Each cached value's key names the format (`CACHE_FORMAT`): one of an older format is not found."""
    import redis

    from service.sessions.base import CACHE_FORMAT

    game_id = lobby.create_and_start("rec", "grp-format", "cards", {}, [], 4, seed=6, bot_delay=PACE)
    (task,) = take_scheduled(lambda task, kw: task == "play_bot" and kw["game_id"] == game_id)
    assert bot_move.play_bot(**task).status == "applied"
    client = redis.Redis.from_url(backbone_pg.redis_url)
    assert client.exists(f"camelot:state:v{CACHE_FORMAT}:{game_id}", f"camelot:meta:v{CACHE_FORMAT}:{game_id}") == 2
    client.rename(f"camelot:state:v{CACHE_FORMAT}:{game_id}", f"camelot:state:v{CACHE_FORMAT - 1}:{game_id}")
    assert Cached.read(game_id).entry is None
