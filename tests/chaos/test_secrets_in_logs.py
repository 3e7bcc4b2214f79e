"""No secret reaches a log line: complete games of both kinds through the pipeline with every logger at DEBUG
(stdlib root, structlog routed through it), and one game through a real Celery worker logging at DEBUG.

The secrets are collected by replaying each game's log in the engine: every action code with arguments (the
pipeline has no reason to log any, and which of them are private depends on the state: a card discarded face
down, a placement, a swap, an exchange), every private event's payload, each seat's private view (`you`: hand,
loyalty, peeks), and every line a player was sent privately that the group never saw.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from engine import get_game
from service import logs
from service.callback import pack
from service.chat.base import Inbound, PermanentError, TransientError
from service.play import lobby
from service.play.dispatch import submit
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow, OutboxRow, Seat
from tests.processes import stop_group

ROOT = Path(__file__).resolve().parents[2]
GROUP = "group"
LOYALTY = re.compile(r"\b(loyal|traitor)\b", re.IGNORECASE)


@pytest.fixture(params=["text", "json"])
def captured(request: pytest.FixtureRequest) -> Iterator[io.StringIO]:
    """Every log record of this process at DEBUG, formatted with its traceback, in one text buffer: as text, or as
    `LOG_FORMAT=json` writes it (`service.logs`: structlog's lines and the standard library's, each a JSON object)."""
    text = io.StringIO()
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    if request.param == "json":
        logs.configure(logging.DEBUG, fmt="json", file=text)
        logs.json_root_handler(logging.DEBUG, stream=text)
    else:
        handler = logging.StreamHandler(text)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))
        handler.setLevel(logging.DEBUG)
        root.addHandler(handler)
        root.setLevel(logging.DEBUG)
        structlog.configure(
            processors=[structlog.stdlib.add_log_level, structlog.processors.KeyValueRenderer(sort_keys=True)],
            logger_factory=structlog.stdlib.LoggerFactory(),
            wrapper_class=structlog.stdlib.BoundLogger,
            cache_logger_on_first_use=False,
        )
    yield text
    if request.param == "json":
        assert all(json.loads(line) for line in text.getvalue().splitlines()), "a line that is not JSON"
    structlog.reset_defaults()
    logs.configure(fmt="text")
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)


def secrets_of(game_id: int, private_texts: list[str], public_texts: list[str]) -> set[str]:
    """The strings that must not appear in a log (see the module's docstring)."""
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        kind, config, seed, players = game.kind, game.config, game.seed, game.config["players"]
        log = game_rows.action_log(s, game_id)
    engine = get_game(kind)
    state = engine.new_game(config, seed)
    found: set[str] = set()

    def views() -> None:
        for seat in range(players):
            you = engine.view(state, seat).get("you") or {}
            found.add(json.dumps(you, sort_keys=True, default=str))
            found.add(repr(you))
            for key in ("hand", "looks", "black_top", "face_down"):
                if you.get(key):
                    found.update({repr(you[key]), json.dumps(you[key], default=str)})

    views()
    for seat, code in log:
        if ":" in code:
            found.add(code)
        state, events = engine.apply_code(state, seat, code)
        for e in events:
            if not e.public and e.data:
                found.update({json.dumps(e.data, sort_keys=True, default=str), repr(e.data)})
        views()
    public = "\n".join(public_texts)
    for text in private_texts:
        found.update(line for line in text.splitlines() if len(line) >= 16 and line not in public)
    return found


def human_moves(game_id: int, humans: int) -> int:
    with session_scope() as s:
        return sum(seat < humans for seat, _ in game_rows.action_log(s, game_id))


def leaks(text: str, secrets: set[str]) -> list[str]:
    out = [secret[:80] for secret in secrets if secret in text]
    out += [m.group(0) for m in LOYALTY.finditer(text)]
    return out


def play_human(game_id: int, users: list[str], rng: random.Random, wait=None, limit: int = 600) -> None:
    """Tap legal moves for the human seats (bots move by themselves) until the game ends. With a worker
    (`wait` given), after each tap wait for the game to move on."""
    for n in range(limit):
        with session_scope() as s:
            game = s.get(GameRow, game_id)
            if game.status != "active":
                return
            kind, seq = game.kind, game.seq
            state = get_game(kind).replay(game.config, game.seed, game_rows.action_log(s, game_id))
            rows = s.query(Seat).filter_by(game_id=game_id)
            open_ = {r.seat: r.prompt_seq for r in rows if r.prompt_seq is not None and r.seat < len(users)}
        legal = get_game(kind).legal_actions(state, min(open_)) if open_ else []
        if legal:  # (empty when a worker moved between the reads above: look again)
            seat = min(open_)
            code = get_game(kind).encode(rng.choice(legal))
            data = pack(game_id, open_[seat], code)
            submit(Inbound("rec", f"dm-{users[seat]}", users[seat], f"s{game_id}-{n}", "tap", text=data))
        elif wait is None:
            raise AssertionError("nobody is prompted in an active game")
        if wait is not None:
            wait(game_id, seq)
    raise AssertionError(f"game {game_id} did not end in {limit} taps")


def texts(recording, group: bool) -> list[str]:
    return [c.text for c in recording.calls if (c.chat == GROUP) == group and c.text]


@pytest.mark.parametrize(("kind", "seed"), [("cards", 4), ("board", 6)])
def test_no_secret_in_debug_logs_of_a_game(backbone_local, recording, captured, kind, seed):
    users = ["alice", "bob"]
    # failed sends of the first messages (panels among them) are logged by the outbox: those lines too
    recording.fail_next(PermanentError("blocked by the user"))
    recording.fail_next(TransientError("connection reset"), 3)  # past the quick retries
    game_id = lobby.create_and_start("rec", GROUP, kind, {}, users, 2, seed=seed, bot_kind="random")
    play_human(game_id, users, random.Random(seed))
    with session_scope() as s:
        assert s.get(GameRow, game_id).status == "finished"
    assert human_moves(game_id, len(users)) >= 5  # codes went through dispatch and the play task
    secrets = secrets_of(game_id, texts(recording, group=False), texts(recording, group=True))
    assert len(secrets) > 20
    logged = captured.getvalue()
    assert "outbox.permanent" in logged and "outbox.transient" in logged  # structlog reached the capture
    assert leaks(logged, secrets) == []


def test_a_failed_statement_names_no_row_data(backbone_pg):
    """A database error's message (which a worker logs) must not carry the parameters: an outbox row holds a panel."""
    from sqlalchemy.exc import DBAPIError

    from service.store import outbox

    with pytest.raises(DBAPIError) as failed, session_scope() as s:
        outbox.add(s, "rec", "x" * 300, "send", {"text": "Your hand: Grail, Merlin, Fight 5"})  # chat > 255
        s.flush()
    assert "Your hand" not in str(failed.value) and "Grail" not in str(failed.value)
    assert "hidden due to hide_parameters" in str(failed.value)


def test_a_telegram_send_logs_neither_the_text_nor_the_token(captured):
    """The worker sends through PTB and httpx; its log level (DEBUG here, INFO in production) must not print a
    direct message's text (PTB logs request parameters at DEBUG) or the bot token (httpx logs URLs at INFO)."""
    sys.path.insert(0, str(ROOT / "tests" / "e2e" / "telegram"))
    from fake_bot_api import FakeBotApi
    from fake_bot_api.spec import spec_path

    from service.sessions import MemorySessions
    from service.telegram.adapter import TelegramAdapter

    if spec_path() is None:
        pytest.skip("shared/telegram-bot-api/api.json is not beside the repository")
    with FakeBotApi() as api:
        ann = api.add_user("Ann")
        api.open_bot(ann)
        adapter = TelegramAdapter(api.token, api.base_url, sessions=MemorySessions())
        secret = "Your hand: Grail, Merlin, Fight 5; you are loyal"
        asyncio.run(adapter.send_text(str(ann.id), secret))
        assert [m.text for m in api.messages(ann.id)] == [secret]
    logged = captured.getvalue()
    assert api.token.split(":")[-1] not in logged
    assert leaks(logged, {secret, "Grail, Merlin"}) == []


def test_matrix_sync_responses_are_not_logged(captured):
    """matrix-nio logs every response it parses at DEBUG, a sync's timeline included: the bot's own direct
    messages (hands) in an unencrypted direct room."""
    from nio import SyncResponse

    import service.matrix.client  # noqa: F401 - the Matrix side's logging setup

    secret = "Your hand: Grail, Merlin, Fight 5"
    event = {"type": "m.room.message", "event_id": "$e", "sender": "@bot:x", "origin_server_ts": 1}
    event["content"] = {"msgtype": "m.text", "body": secret}
    SyncResponse.from_dict({"next_batch": "s1", "rooms": {"join": {"!dm:x": {"timeline": {"events": [event]}}}}})
    assert leaks(captured.getvalue(), {secret}) == []


def moved_on(game_id: int, seq: int, timeout: float = 5.0) -> None:
    """Wait until the worker has played past `seq` (or a while: a stale tap moves nothing)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with session_scope() as s:
            game = s.get(GameRow, game_id)
            if game.seq != seq or game.status != "active":
                return
        time.sleep(0.05)


def pending_outbox() -> int:
    with session_scope() as s:
        return s.query(OutboxRow).filter_by(status="pending").count()


@pytest.fixture(params=["text", "json"])
def celery_worker(backbone_pg, recording, monkeypatch, tmp_path, request) -> Iterator[Path]:
    """A real Celery worker (tests/workers/worker_main.py, solo pool) logging at DEBUG, which includes what it logs
    at INFO and each task's headers (`kwargsrepr`, see `workers.celery_queue.shown`), as text or as JSON
    (LOG_FORMAT); yields its log file. Its recording adapter appends what it sends to calls.jsonl next to the log."""
    from service.sessions import reset_sessions
    from service.settings import get_settings
    from service.store import dispose_all

    monkeypatch.setenv("CELERY_BROKER_URL", backbone_pg.redis_url)
    get_settings.cache_clear()
    reset_sessions()
    dispose_all()
    ready, log = tmp_path / "ready", tmp_path / "worker.log"
    env = dict(os.environ, CAMELOT_TEST_CALLS=str(tmp_path / "calls.jsonl"), CAMELOT_TEST_READY=str(ready))
    env["LOG_FORMAT"] = request.param
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tests/workers/worker_main.py"), "--loglevel", "DEBUG", "-P", "solo"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 30
        while not ready.exists():
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield log
    finally:
        stop_group(proc)


@pytest.mark.e2e
def test_no_secret_in_a_celery_workers_log(celery_worker, request):
    users = ["alice"]
    game_id = lobby.create_and_start("rec", GROUP, "cards", {}, users, 2, seed=9, bot_kind="random")
    play_human(game_id, users, random.Random(9), wait=moved_on)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and pending_outbox():  # the worker's last messages are sent
        time.sleep(0.1)
    calls_file = celery_worker.parent / "calls.jsonl"
    calls = [json.loads(line) for line in calls_file.read_text().splitlines() if line.strip()]
    private = [c["text"] for c in calls if c["chat"] != GROUP and c["text"]]
    public = [c["text"] for c in calls if c["chat"] == GROUP and c["text"]]
    assert human_moves(game_id, len(users)) >= 3
    secrets = secrets_of(game_id, private, public)
    logged = celery_worker.read_text()
    assert "kwargsrepr" in logged and "succeeded" in logged  # the worker logged each task and its headers
    assert leaks(logged, secrets) == []
    if request.node.callspec.params["celery_worker"] == "json":  # Celery's own records too, one object a line
        records = [json.loads(line) for line in logged.splitlines() if line.startswith("{")]
        assert any("succeeded" in r["event"] for r in records) and any("kwargsrepr" in r["event"] for r in records)
        assert not [line for line in logged.splitlines() if "succeeded" in line and not line.startswith("{")]
