"""Complete games over Matrix: a real Synapse, the real gateway process (`camelot serve --matrix`, on PostgreSQL
and Redis; moves in-process, or in a `camelot worker` process with a Celery broker), and one real matrix-nio
client per player reading its encrypted direct room and answering with numbers. Checked from what the server
holds, not from what the bot believes."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest
from matrix_players import Player, login, scratch, settle
from matrix_transcript import transcripts as client_views
from nio import RoomSendError
from sqlalchemy import func, select

from service.callback import Choice, unpack
from service.matrix.choices import ChoiceMaps
from service.play import pilots, tables
from service.render.i18n import t
from service.sessions import get_sessions
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import Chat, GameRow, OutboxRow, ProcessedUpdate, Seat

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[3]
BACK = t("en", "menu.back")
GAME_TIMEOUT = 300.0


class GatewayProcess:
    """`camelot serve --matrix` as its own process, stopped with SIGTERM like a deployment would; with a broker,
    a `camelot worker` process beside it plays the moves (the gateway still sends every Matrix message)."""

    def __init__(self, hs, user_id: str, password: str, broker: str | None = None) -> None:
        self.store = scratch("gateway-")
        self.log = Path(self.store) / "gateway.log"
        self.env = {
            **os.environ,
            "MATRIX_HOMESERVER": hs.url,
            "MATRIX_USER": user_id,
            "MATRIX_PASSWORD": password,
            "MATRIX_STORE_PATH": self.store,
            "MATRIX_ROOM_INTERVAL": "0.02",
            "MATRIX_GLOBAL_INTERVAL": "0.005",
            "PYTHONUNBUFFERED": "1",
            "PYTHONFAULTHANDLER": "1",  # a process that hangs gets SIGABRT: its threads' stacks go to the log
        }
        self.env.pop("CELERY_BROKER_URL", None)
        self.broker = broker
        if broker:
            self.env["CELERY_BROKER_URL"] = broker
        self.bot_id = user_id
        self.process: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None
        self.beat: subprocess.Popen | None = None
        self.starts = 0

    def _spawn(self, *argv: str, env: dict[str, str] | None = None) -> subprocess.Popen:
        with open(self.log, "ab") as out:
            return subprocess.Popen(
                [sys.executable, "-c", "from service.cli import app; app()", *argv],
                env={**self.env, **(env or {})}, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
            )

    def start_beat(self, interval: float) -> None:
        """`camelot beat` (with the broker) scanning deadlines every `interval` seconds, its schedule file in the
        gateway's store: for the tests whose deadlines must fall due while they run."""
        schedule = str(Path(self.store) / "celerybeat-schedule")
        self.beat = self._spawn("beat", "--schedule", schedule, env={"DEADLINE_SCAN_INTERVAL": str(interval)})

    def start(self) -> None:
        """Start what is not running: the gateway, and the worker when there is a broker."""
        if self.process is None or self.process.poll() is not None:
            self.starts += 1
            self.process = self._spawn("serve", "--matrix")
        if self.broker and (self.worker is None or self.worker.poll() is not None):
            self.worker = self._spawn("worker", "--concurrency", "2", "--without-gossip", "--without-mingle")

    def stop_gateway(self) -> None:
        _terminate(self.process, self)

    def kill_gateway(self) -> None:
        """SIGKILL: no handler runs, nothing is flushed; what the process was doing is simply cut off."""
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        _terminate(self.process, self)
        _terminate(self.worker, self)
        _terminate(self.beat, self)

    def alive(self) -> bool:
        running = [self.process, self.worker] if self.broker else [self.process]
        return all(p is not None and p.poll() is None for p in running)

    def tail(self, lines: int = 60) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:]) if self.log.exists() else ""


def _terminate(proc: subprocess.Popen | None, owner: GatewayProcess) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        proc.wait()
        raise AssertionError(f"a process did not stop on SIGTERM\n{owner.tail(200)}")  # noqa: B904 - keep the cause


def _db(query):
    with session_scope() as s:
        return s.execute(query).all()


def _game_status(game_id: int) -> str:
    return _db(select(GameRow.status).where(GameRow.id == game_id))[0][0]


async def _raw_history(player: Player, room: str) -> list[dict]:
    """The room's events as the server gives them to a member now (ciphertext stays so; redactions show)."""
    events, token = [], None
    async with httpx.AsyncClient() as http:
        while True:
            params = {"dir": "f", "limit": 1000, **({"from": token} if token else {})}
            r = await http.get(
                f"{player.client.homeserver}/_matrix/client/v3/rooms/{room}/messages",
                params=params, headers={"Authorization": f"Bearer {player.client.access_token}"},
            )
            r.raise_for_status()
            body = r.json()
            events += body["chunk"]
            token = body.get("end")
            if not body["chunk"] or token is None:
                return events


async def _wait(check, timeout: float, what: str, gateway: GatewayProcess, *players: Player):
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline or not gateway.alive():
            raise AssertionError(f"timed out waiting for {what}\n--- gateway log ---\n{gateway.tail()}")
        if players:
            await asyncio.gather(*(p.sync(timeout_ms=200) for p in players))
        else:
            await asyncio.sleep(0.1)


async def _open_table(
    hs, gateway: GatewayProcess, bot_id: str, kind: str, names: list[str], seed: int | None = None,
    config: dict | None = None, lobby_options: dict[str, str] | None = None,
):
    """A group with the bot and every player; the host opens the lobby, the others join, the host sends `!set
    <option> <value>` for each of `lobby_options` (deadlines, limits: `pilots.LIMITS`) and starts. `seed` and
    `config` are fixed in the database, as no lobby option sets them."""
    players = [await login(hs.url, *hs.register(name)) for name in names]
    host = players[0]
    created = await host.client.room_create(name=f"Camelot {kind}", invite=[bot_id, *(p.user_id for p in players[1:])])
    group = created.room_id
    await _wait(lambda: all(group in p.client.rooms for p in players), 60, "players in the group", gateway, *players)
    joined = lambda: bot_id in host.client.rooms[group].users and bot_id not in host.client.rooms[group].invited_users  # noqa: E731
    await _wait(joined, 60, "the bot in the group", gateway, *players)
    levels = await host.client.room_get_state_event(group, "m.room.power_levels")
    await host.client.room_put_state(
        group, "m.room.power_levels", {**levels.content, "users": {**levels.content.get("users", {}), bot_id: 100}}
    )
    await host.say(group, f"!newgame {kind} {len(players)}")
    game = await _wait(lambda: _db(select(GameRow.id).where(GameRow.status == "lobby")), 60, "the lobby", gateway)
    game_id = game[0][0]
    if seed is not None:  # a known deal (the lobby draws a random one)
        with session_scope() as s:
            s.get(GameRow, game_id).seed = seed
    if config:  # a scripted situation (the engine's test-only `stack`)
        with session_scope() as s:
            row = s.get(GameRow, game_id)
            row.config = {**row.config, **config}
    for p in players[1:]:
        await p.say(group, "!join")
    seated = select(func.count()).select_from(Seat).where(Seat.game_id == game_id, Seat.user_id.is_not(None))
    await _wait(lambda: _db(seated)[0][0] == len(players), 60, "everyone seated", gateway, *players)
    options = select(GameRow.options).where(GameRow.id == game_id)
    for option, value in (lobby_options or {}).items():
        await host.say(group, f"!set {option} {value}")
        key, unit, _, _ = pilots.LIMITS[option]
        await _wait(lambda key=key, want=float(value) * unit: _db(options)[0][0].get(key) == want, 60,
                    f"!set {option}", gateway, *players)
    await host.say(group, "!start")
    await _wait(lambda: _game_status(game_id) == "active", 60, "the start", gateway, *players)
    return game_id, await table_room(game_id, gateway, *players), group, players


async def table_room(game_id: int, gateway: GatewayProcess, *players: Player) -> str:
    """The room of its own a game of several people moves to as it starts (`service.play.tables`), once its
    players are in it."""

    def opened() -> str | None:
        with session_scope() as s:
            address = s.get(Chat, s.get(GameRow, game_id).chat_id).platform_id
        return None if tables.is_placeholder(address) else address

    room = await _wait(opened, 60, "the table's room", gateway, *players)
    await _wait(lambda: all(room in p.client.rooms for p in players), 60, "the players in the table's room", gateway,
                *players)
    return room


ARMOR = {"stack": {"first": 0, "skip_gesture": True, "board": {"relics": [["armor"], [], [], []]},
                   "black": ["despair", "picts"]}}


async def _draw_with_the_armor(game_id: int, group: str, players: list[Player], gateway, bot_id: str) -> None:
    """Seat 0 holds Lancelot's Armor (B-KNIGHT): he draws a black card; the two black cards come to him alone as a
    numbered private choice, each named; no other room shows that prompt."""
    with session_scope() as s:
        holder_id = game_rows.seat_users(s, game_id)[0].platform_id
    holder = next(p for p in players if p.user_id == holder_id)

    def menu() -> tuple[str, tuple[str, str, dict[int, str]]] | None:
        dm = _direct_room(holder, bot_id, group)
        found = holder.menu(dm) if dm else None
        return (dm, found) if found else None

    dm, (_, _, choices) = await _wait(menu, 60, "the Armor holder's Evil phase", gateway, *players)
    black = next(n for n, label in choices.items() if label == t("en", "board.action.evil.black"))
    await holder.say(dm, str(black))
    prompt = t("en", "board.prompt.armor")
    _, (_, _, choices) = await _wait(lambda: (m := menu()) and prompt in m[1][1] and m, 60, "the Armor's choice",
                                     gateway, *players)
    labels = list(choices.values())
    assert len(labels) == 2 and all(label.startswith(t("en", "board.action.armor") + ": ") for label in labels), labels
    for other in players:
        if other is not holder:
            assert not any(prompt in body for room in other.events for body in other.bodies(room))


def _direct_room(player: Player, bot_id: str, group: str) -> str | None:
    """The player's room with the bot alone (not `group`, which may be a 1:1 room too; not a community's room,
    Space or table)."""
    return next((r for r, room in player.client.rooms.items()
                 if r != group and bot_id in room.users and room.member_count == 2 and not room.room_type), None)


def _claimed(update_id: str) -> int:
    return _db(select(func.count()).select_from(ProcessedUpdate).where(ProcessedUpdate.update_id == update_id))[0][0]


def _is_move(room: str, number: int) -> bool:
    """Whether the number answers the room's current menu with a move (not a step between menu levels)."""
    choice = unpack(ChoiceMaps(get_sessions()).lookup(room, number) or "")
    return isinstance(choice, Choice) and not choice.is_navigation


async def _kill_mid_answer(gateway: GatewayProcess, players: list[Player], answer: str, mid_send: bool) -> bool:
    """SIGKILL the gateway right after a player's answer was sent, then start it again. With `mid_send`, wait (a
    while at most) for the worst moment: a message of the answer's effect has reached a player while its outbox
    row is still pending (sent, not yet booked). Returns whether that moment was caught."""
    caught = False
    deadline = time.monotonic() + 20
    pending = select(OutboxRow.payload).where(OutboxRow.status == "pending", OutboxRow.platform == "matrix")
    while mid_send and not caught and time.monotonic() < deadline:
        known = [{room: len(events) for room, events in p.events.items()} for p in players]
        await asyncio.gather(*(p.sync(timeout_ms=20) for p in players))
        arrived = {_base(_text(e.source.get("content", {})))
                   for p, seen in zip(players, known, strict=True) for room, events in p.events.items()
                   for e in events[seen.get(room, 0):] if e.sender == gateway.bot_id}
        caught = bool(_claimed(answer)) and any(payload.get("text") in arrived for (payload,) in _db(pending))
    gateway.kill_gateway()
    gateway.start()
    return caught


async def _play(
    game_id, group, players, gateway, bot_id, rng, *, restart_after: int | None = None, kill: str | None = None
):
    """Answer every menu with a random number until the game is over. Returns what was observed.

    After `restart_after` answers the gateway is restarted: with SIGTERM, or with `kill` ("at-once" or
    "mid-send") SIGKILLed mid-answer: the next answer that is a move, given once the outbox is drained (so the
    menu is current), is followed by a SIGKILL (see `_kill_mid_answer`)."""
    answered: dict[str, tuple[str, str, float]] = {}
    seen = Counter()
    silent_rounds = forbidden = allowed_in_silence = 0
    was_silent = False
    turn = 0
    deadline = time.monotonic() + GAME_TIMEOUT
    while _game_status(game_id) != "finished":
        assert time.monotonic() < deadline, (
            f"game not finished in time; undecryptable: {[p.undecryptable for p in players]}\n{gateway.tail()}"
        )
        assert gateway.alive() or (restart_after is not None and seen["restarts"] == 0), gateway.tail()
        killing = kill is not None and seen["answers"] >= (restart_after or 0) and not seen["restarts"]
        if killing:
            await _drained(gateway, players)
        await asyncio.gather(*(p.sync(timeout_ms=150) for p in players))
        assert not any(p.undecryptable for p in players), f"a player cannot read a message\n{gateway.tail()}"
        silent = players[0].client.rooms[group].power_levels.defaults.events_default >= 50
        if silent and not was_silent:
            silent_rounds += 1
            speaker = players[1 + rng.randrange(len(players) - 1)]  # the host created the room: it may always talk
            refused = await speaker.client.room_send(group, "m.room.message", {"msgtype": "m.text", "body": "psst"})
            if isinstance(refused, RoomSendError) and refused.status_code == "M_FORBIDDEN":
                forbidden += 1
            else:
                allowed_in_silence += 1
        was_silent = silent
        # One answer per round, then a fresh look: a silence that one answer starts is seen before the next.
        for p in players[turn % len(players):] + players[:turn % len(players)]:
            dm = _direct_room(p, bot_id, group)
            menu = p.menu(dm) if dm else None
            if menu is None:
                continue
            event_id, body, choices = menu
            last = answered.get(p.user_id)
            if last and last[:2] == (event_id, body) and time.monotonic() - last[2] < 3.0:
                continue  # wait for the panel to change (or re-answer a stale menu after a while)
            numbers = [n for n, label in choices.items() if label != BACK] or list(choices)
            if killing:
                numbers = [n for n in numbers if _is_move(dm, n)]
                if not numbers:
                    continue
            sent = await p.say(dm, str(rng.choice(numbers)))
            answered[p.user_id] = (event_id, body, time.monotonic())
            seen["answers"] += 1
            turn += 1
            if killing:
                seen["caught_mid_send"] = await _kill_mid_answer(gateway, players, sent.event_id, kill == "mid-send")
                seen["restarts"] += 1
                seen["killed_answer"] = sent.event_id
            break
        if kill is None and restart_after is not None and seen["answers"] >= restart_after and not seen["restarts"]:
            gateway.stop_gateway()
            await asyncio.sleep(0.5)
            gateway.start()
            seen["restarts"] += 1
    return {"answers": seen["answers"], "silences": silent_rounds, "forbidden": forbidden,
            "allowed_in_silence": allowed_in_silence, "restarts": seen["restarts"],
            "killed_answer": seen["killed_answer"] or None, "caught_mid_send": bool(seen["caught_mid_send"])}


async def _drained(gateway: GatewayProcess, players: list[Player]) -> None:
    pending = select(func.count()).select_from(OutboxRow).where(OutboxRow.status == "pending")
    await _wait(lambda: _db(pending)[0][0] == 0, 60, "the outbox to drain", gateway)
    await settle(*players, rounds=3)


def _base(body: str) -> str:
    """A message's text without the numbered choices the adapter appends."""
    head, sep, tail = body.rpartition("\n\n")
    numbered = all(line.partition(". ")[0].isdigit() and ". " in line for line in tail.splitlines())
    return head if sep and tail and numbered else body


def _text(content: dict) -> str:
    return (content.get("m.new_content") or content).get("body", "")


def _one_live_menu(player: Player, room: str) -> int:
    """Replay the direct room as the player's client received it: questions (messages with numbered choices) come as
    new messages, and never more than one message offers live choices at any moment (an answered question is edited
    to drop its numbers). Returns how many questions came."""
    live: set[str] = set()
    questions = 0
    for e in player.events[room]:
        content = e.source.get("content", {})
        rel = content.get("m.relates_to") or {}
        edited = rel.get("rel_type") == "m.replace" and "m.new_content" in content
        body = _text(content) if edited else getattr(e, "body", None)
        if not isinstance(body, str):
            continue
        target = rel["event_id"] if edited else e.event_id
        if _base(body) != body:
            live.add(target)
            questions += not edited
        else:
            live.discard(target)
        assert len(live) <= 1, f"two live menus in {player.user_id}'s direct room: {body[:60]!r}"
    return questions


async def _check_rooms(group: str, players: list[Player], bot_id: str, community: str | None = None) -> dict:
    """Nothing lost, nothing repeated, nothing private in the group (or its edit history), DMs only to their owner.
    `community`: the room the lobby was in, whose lobby message and link to the table are not checked here."""
    rows = [r for (r,) in _db(select(OutboxRow).where(OutboxRow.platform == "matrix").order_by(OutboxRow.id))]
    # Every row was delivered, except edits a newer edit of the same message replaced before they went out.
    assert [(r.id, r.op, r.status, r.error) for r in rows if r.status not in ("sent", "superseded")] == []
    assert all(r.op == "upsert" for r in rows if r.status == "superseded")
    rows = [r for r in rows if r.status == "sent" and r.chat != community]
    dms = {p.user_id: _direct_room(p, bot_id, group) for p in players}
    assert all(dms.values()) and len(set(dms.values())) == len(players)
    room_of = {f"@user:{user}": room for user, room in dms.items()}
    by_room: dict[str, list[OutboxRow]] = {}
    for r in rows:
        by_room.setdefault(room_of.get(r.chat, r.chat), []).append(r)
    stats = {}
    group_history = await _raw_history(players[0], group)
    for room, room_rows in by_room.items():
        owner = next((p for p in players if dms[p.user_id] == room), players[0])
        history = group_history if room == group else await _raw_history(owner, room)
        mine = [e for e in history if e["sender"] == bot_id and e["type"] in ("m.room.message", "m.room.encrypted")]
        redacted = [e for e in mine if "redacted_because" in e.get("unsigned", {})]
        edits = [e for e in mine if (e["content"].get("m.relates_to") or {}).get("rel_type") == "m.replace"]
        originals = [e for e in mine if e not in redacted and e not in edits]
        expected = sum(r.op == "send" for r in room_rows) + len({r.ref for r in room_rows if r.op == "upsert"})
        deleted = sum(r.op == "delete" for r in room_rows)
        # a seat's run (`service.delivery.gather`): each of its rows is a message, or joins the one above it
        runs = sum(r.op == "send" and bool(r.payload.get("run")) for r in room_rows)
        assert expected - deleted - runs <= len(originals) <= expected - deleted, (
            room, expected, deleted, [(_text(e["content"])[:60], e["origin_server_ts"]) for e in originals],
            [(r.id, r.op, r.ref, r.status, r.attempts, r.error, r.payload.get("text", "")[:40]) for r in room_rows],
        )
        stats[room] = {"messages": len(originals), "edits": len(edits) + len(redacted), "redacted": len(redacted)}
        if room == group:
            live_edits = Counter(e["content"]["m.relates_to"]["event_id"] for e in edits)
            assert all(n == 1 for n in live_edits.values()), "superseded versions of a group message are redacted"
            shown = {e["event_id"]: _text(e["content"]) for e in originals}  # each message as last edited
            shown |= {e["content"]["m.relates_to"]["event_id"]: _text(e["content"]) for e in edits}
            lost = [
                r.payload["text"][:60]
                for r in room_rows
                if r.payload.get("run") and not any(r.payload["text"] in text for text in shown.values())
            ]
            assert lost == [], lost  # a run's row is in its own message or in the one it joined
        else:
            kinds = {e["type"] for e in mine}
            assert kinds == {"m.room.encrypted"}, kinds
            stats[room]["questions"] = _one_live_menu(owner, room)
            members = await owner.client.joined_members(room)
            assert {m.user_id for m in members.members} == {bot_id, owner.user_id}
            others = [p for p in players if p is not owner]
            assert all(room not in p.client.rooms for p in others)
    assert [p.undecryptable for p in players] == [0] * len(players), "every player could read every message"
    # What the group shows came from rows for the group; no private row's text ever reached it.
    group_texts = {_base(_text(e["content"])) for e in group_history
                   if e["sender"] == bot_id and e["type"] == "m.room.message" and e.get("content")}
    group_rows = {r.payload.get("text", "") for r in rows if room_of.get(r.chat, r.chat) == group}
    private_rows = {r.payload.get("text", "") for r in rows if room_of.get(r.chat, r.chat) != group}
    row_lines = {line for text in group_rows for line in text.split("\n")}  # (a seat's run is one message)
    unexplained = {text for text in group_texts if text not in group_rows and not set(text.split("\n")) <= row_lines}
    assert not unexplained, unexplained
    assert not (group_texts & private_rows)
    return {"group": stats.pop(group), "direct": stats}


def _start_gateway(homeserver, name: str, broker: str | None = None) -> tuple[GatewayProcess, str]:
    bot_id, password = homeserver.register(name)
    gateway = GatewayProcess(homeserver, bot_id, password, broker)
    gateway.start()
    return gateway, bot_id


def test_board_game_four_players_with_gateway_restart(homeserver, backbone_pg, transcripts):
    async def scenario():
        gateway, bot_id = _start_gateway(homeserver, "camelot_board")
        began = time.monotonic()
        try:
            names = ["arthur_b", "gawain_b", "kay_b", "tristan_b"]  # the first seat holds Lancelot's Armor
            game_id, group, community, players = await _open_table(homeserver, gateway, bot_id, "board", names,
                                                                   config=ARMOR)
            await _draw_with_the_armor(game_id, group, players, gateway, bot_id)
            seen = await _play(game_id, group, players, gateway, bot_id, random.Random(4), restart_after=25)
            await _drained(gateway, players)
            transcripts(await client_views(players))  # each player's rooms as their client shows them
            rooms = await _check_rooms(group, players, bot_id, community)
            assert gateway.starts == 2
            print(f"\nboard game: {seen}, {rooms['group']} in the group, {time.monotonic() - began:.1f}s")
            for p in players:
                await p.close()
        finally:
            gateway.stop()

    asyncio.run(scenario())


@pytest.mark.parametrize(("mode", "kill"), [("in-process", "at-once"), ("celery", "mid-send")])
def test_card_game_five_players_with_morgan_silence_and_a_killed_gateway(homeserver, backbone_pg, redis_url, mode,
                                                                         kill, transcripts):
    """In-process: the gateway plays and sends itself. Celery: a worker process plays, and the gateway consumes
    the Matrix deliver tasks from its own queue, so the direct rooms are encrypted in both.

    Mid-game the gateway is SIGKILLed right after a player's answer (in-process: at once, so the answer is read
    again after the restart or cut off mid-move; Celery: once a message of its effect has reached the player but its
    outbox row is not booked as sent yet). The answer is applied exactly once; no message is lost or sent twice."""

    async def scenario():
        broker = redis_url if mode == "celery" else None
        gateway, bot_id = _start_gateway(homeserver, f"camelot_cards_{mode.replace('-', '_')}", broker)
        began = time.monotonic()
        try:
            names = [f"{name}_{mode}" for name in ("arthur", "gawain", "kay", "tristan", "galahad")]
            # Seed 1 turns a Morgan card up within the first few moves whatever the players choose.
            game_id, group, community, players = await _open_table(homeserver, gateway, bot_id, "cards", names,
                                                                   seed=1)
            seen = await _play(game_id, group, players, gateway, bot_id, random.Random(5), restart_after=8, kill=kill)
            await _drained(gateway, players)
            transcripts(await client_views(players))
            rooms = await _check_rooms(group, players, bot_id, community)
            assert "outbox.no_adapter" not in gateway.log.read_text(), "a worker was handed a Matrix delivery"
            assert gateway.starts == 2 and seen["killed_answer"] and _claimed(seen["killed_answer"]) == 1
            assert seen["silences"] >= 1 and seen["forbidden"] == seen["silences"] and not seen["allowed_in_silence"]
            level = players[0].client.rooms[group].power_levels.defaults.events_default
            assert level == 0, "the silence is lifted when the game ends"
            assert not isinstance(await players[1].say(group, "gg"), RoomSendError)
            print(f"\ncard game ({mode}, killed {kill}): {seen}, {rooms['group']} in the group, "
                  f"{time.monotonic() - began:.1f}s")
            for p in players:
                await p.close()
        finally:
            gateway.stop()

    asyncio.run(scenario())
