"""Malicious or stale input through `service.play.dispatch.submit` with the real games (PostgreSQL + Redis, tasks
in-process): forged, garbage, stale and misplaced taps and commands. Each must leave the game's action log and
digest as they were, answer the sender privately (in the direct chat it came from, or their known direct chat) or
drop it silently, raise nothing to the gateway, and put nothing in any group chat.
"""

from __future__ import annotations

import itertools
import random

import pytest

from engine import get_game
from service.callback import pack, pack_lobby
from service.chat.base import Inbound
from service.play import lobby
from service.play.dispatch import ADMIN_FLAG, submit
from service.play.state import load_state
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow, Seat

_ids = itertools.count(1)
GROUP = "group"


def tap(user: str, data: str, update_id: str | None = None) -> Inbound:
    return Inbound("rec", f"dm-{user}", user, update_id or f"b{next(_ids)}", "tap", text=data)


def group_tap(user: str, data: str, chat: str = GROUP) -> Inbound:
    """A tap on a button of a group's message (lobby buttons live there)."""
    return Inbound("rec", chat, user, f"b{next(_ids)}", "tap", text=data, is_group=True)


def link_join(user: str, lobby_id: int) -> Inbound:
    """A lobby's deep link followed (the Telegram gateway has checked that the user is a member of its group)."""
    return Inbound("rec", f"dm-{user}", user, f"b{next(_ids)}", "command", command="join", game_id=lobby_id)


def action(user: str, game_id: object, seq: object, code: str) -> Inbound:
    """An already unpacked choice (the Matrix gateway's numbered answers); the values are deliberately untyped."""
    return Inbound("rec", f"dm-{user}", user, f"b{next(_ids)}", "action", game_id=game_id, prompt_seq=seq, code=code)


def command(user: str, name: str, *args: str, chat: str = GROUP, **kw) -> Inbound:
    return Inbound(
        "rec", chat, user, f"b{next(_ids)}", "command", command=name, args=args, is_group=chat != f"dm-{user}", **kw
    )


def snapshot(game_id: int) -> tuple[str, int, list[tuple[int, str]], str]:
    """What must not change: status, seq, the action log and the engine digest of the state it replays to."""
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        log = game_rows.action_log(s, game_id)
        state = get_game(game.kind).replay(game.config, game.seed, log)
        return game.status, game.seq, log, get_game(game.kind).digest(state)


def prompts(game_id: int) -> dict[int, int]:
    """Open prompts: seat → the prompt seq its buttons carry."""
    with session_scope() as s:
        rows = s.query(Seat).filter_by(game_id=game_id).all()
        return {r.seat: r.prompt_seq for r in rows if r.prompt_seq is not None}


def state_of(game_id: int):
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        return game.kind, load_state(s, game)


def drive(game_id: int, users: list[str], rng: random.Random, until, limit: int = 400) -> bool:
    """Play legal moves for the human seats by taps until `until(kind, state)` holds; False if the game ended
    or `limit` moves passed first."""
    for _ in range(limit):
        kind, state = state_of(game_id)
        if until(kind, state):
            return True
        engine = get_game(kind)
        open_ = prompts(game_id)
        if engine.result(state) is not None or not open_:
            return False
        seat = min(open_)
        code = engine.encode(rng.choice(engine.legal_actions(state, seat)))
        submit(tap(users[seat], pack(game_id, open_[seat], code)))
    return False


class Watch:
    """The recording adapter's calls since a mark, per chat."""

    def __init__(self, rec) -> None:
        self.rec = rec
        self.mark = len(rec.calls)

    def new(self, chat: str | None = None) -> list:
        return [c for c in self.rec.calls[self.mark :] if chat is None or c.chat == chat]


@pytest.fixture
def cards_game(backbone_pg, recording) -> int:
    return lobby.create_and_start("rec", GROUP, "cards", {}, ["alice", "bob", "carol"], 0, seed=5)


@pytest.fixture
def board_game(backbone_pg, recording) -> int:
    return lobby.create_and_start("rec", GROUP, "board", {}, ["alice", "bob", "carol"], 0, seed=5)


def answered(watch: Watch, chat: str, phrase: str) -> bool:
    return any(phrase in c.text for c in watch.new(chat))


def test_forged_garbage_and_stale_taps_change_nothing_and_are_answered_privately(board_game, recording):
    users = ["alice", "bob", "carol"]
    assert drive(board_game, users, random.Random(1), lambda kind, s: len(prompts(board_game)) == 1)
    ((seat, seq),) = prompts(board_game).items()
    other = users[(seat + 1) % 3]
    kind, state = state_of(board_game)
    mine = [get_game(kind).encode(a) for a in get_game(kind).legal_actions(state, seat)]
    before = snapshot(board_game)
    group = Watch(recording)
    cases: list[tuple[Inbound, str]] = [
        # someone else's legal move, with the current seq: not this user's decision
        (tap(other, pack(board_game, before[1], mine[0])), "not your turn"),
        (tap(other, pack(board_game, seq, mine[0])), "expired" if seq < before[1] else "not your turn"),
        (tap(users[seat], pack(board_game, seq, "accuse:9")), "not allowed"),
        (tap(users[seat], pack(board_game, seq, "give:excalibur.99")), "not allowed"),
        (tap(users[seat], pack(board_game, max(seq - 1, 0) if seq else seq + 7, mine[0])), "expired"),
        (tap(users[seat], pack(board_game, seq + 50, mine[0])), "expired"),
        (tap(users[seat], "%s%s%s%n"), "not valid"),
        (tap(users[seat], "{0}{rule}{game_id}"), "not valid"),
        (tap(users[seat], "x" * 10_000), "not valid"),
        (tap(users[seat], "1:0:é"), "not valid"),
        (tap(users[seat], "'; DROP TABLE games; --"), "not valid"),
        # hand-made data, never signed by the service: refused before the game is even looked at
        (tap(users[seat], f"{board_game}:{seq}:'or'1'='1"), "not valid"),
        (tap(users[seat], f"{board_game}:{seq}:{mine[0]}"), "not valid"),  # the unsigned form of a legal choice
        (tap(users[seat], f"999999999999:{seq}:{mine[0]}"), "not valid"),  # beyond 32 bits
        (tap(users[seat], pack(board_game, seq, mine[0])[:-1]), "not valid"),  # cut short
        # signed, as if the secret had leaked: the worker still refuses what the game does not allow
        (tap(users[seat], pack(board_game, seq, "'or'1'='1")), "not allowed"),
        (tap(users[seat], pack(board_game, seq, "%s%(x)s{0}")), "not allowed"),
        (tap(users[seat], pack(0, seq, mine[0])), "no such game"),
        (tap("mallory", pack(board_game, seq, mine[0])), "not seated"),
        (tap("mallory", pack(board_game, seq, "@")), "not seated"),  # a menu level
        (tap(other, pack(board_game, seq + 9, "@play")), "expired"),
        # the same choices as already-unpacked actions (the Matrix gateway's numbered answers)
        (action(users[seat], board_game, seq, "x" * 10_000), "not allowed"),
        (action(users[seat], board_game, seq, "pláy:1"), "not allowed"),
        (action(users[seat], board_game, seq, "{0}%s"), "not allowed"),
        (action(users[seat], -1, seq, mine[0]), "not valid"),
        (action(users[seat], 10**30, seq, mine[0]), "not valid"),
        (action(users[seat], 2**31 - 1, seq, mine[0]), "no such game"),
        (action(users[seat], board_game, -3, mine[0]), "not valid"),
        (action(users[seat], board_game, 10**30, mine[0]), "not valid"),
        (action(users[seat], "²", seq, mine[0]), "not valid"),
        (action(users[seat], board_game, seq, ""), "not valid"),
        (action(users[seat], "9" * 5000, seq, mine[0]), "not valid"),
        (tap(users[seat], "L999999999999:join"), "not valid"),  # a Telegram deep link's 12-digit lobby id
        (tap(users[seat], pack_lobby(board_game, "join")), "not valid"),  # a lobby button in a direct chat
    ]
    for cmd, phrase in cases:
        watch = Watch(recording)
        submit(cmd)
        replies = watch.new()
        what = (cmd.text or str(cmd.code))[:60]
        assert len(replies) == 1 and replies[0].chat == cmd.chat and phrase in replies[0].text, (what, replies)
        assert snapshot(board_game) == before, what
    assert group.new(GROUP) == []


def test_a_hand_made_leave_is_refused_on_the_players_own_turn(board_game, recording):
    """The board engine accepts `leave` from any living seat at any time (B-LEAVE) but never offers it: only codes the
    service offered are signed, so a hand-made one, or an offered button's data with its code changed, is refused
    before it reaches the game, and the knight lives."""
    users = ["alice", "bob", "carol"]
    assert drive(board_game, users, random.Random(1), lambda kind, s: len(prompts(board_game)) == 1)
    ((seat, seq),) = prompts(board_game).items()
    kind, state = state_of(board_game)
    offered = pack(board_game, seq, get_game(kind).encode(get_game(kind).legal_actions(state, seat)[0]))
    before = snapshot(board_game)
    watch = Watch(recording)
    signed_ids, offered_seq, _ = offered.split(":", 2)  # the code goes last and may hold colons itself
    for data in (f"{board_game}:{seq}:leave", f"{signed_ids}:{offered_seq}:leave"):
        submit(tap(users[seat], data))
    assert snapshot(board_game) == before
    assert [c.chat for c in watch.new()] == [f"dm-{users[seat]}"] * 2
    assert all("not valid" in c.text for c in watch.new())


def test_a_duplicate_update_is_one_move_and_not_answered_twice(board_game, recording):
    users = ["alice", "bob", "carol"]
    assert drive(board_game, users, random.Random(2), lambda kind, s: len(prompts(board_game)) == 1)
    ((seat, seq),) = prompts(board_game).items()
    kind, state = state_of(board_game)
    code = get_game(kind).encode(get_game(kind).legal_actions(state, seat)[0])
    before = snapshot(board_game)
    submit(tap(users[seat], pack(board_game, seq, code), update_id="dup"))
    after = snapshot(board_game)
    assert after[2] == before[2] + [(seat, code)]
    watch = Watch(recording)
    submit(tap(users[seat], pack(board_game, seq, code), update_id="dup"))
    submit(tap(users[seat], "garbage", update_id="dup"))
    assert snapshot(board_game) == after
    assert watch.new() == []  # a redelivered update is dropped without a word


def test_commands_from_another_chat_and_forged_lobby_taps(backbone_pg, recording):
    submit(command("alice", "newgame", "cards"))
    with session_scope() as s:
        lobby_id = s.query(GameRow).one().id
    submit(command("bob", "join", chat="dm-bob"))  # a direct chat has no lobby (and the bot now knows Bob's)
    submit(link_join("bob", lobby_id))
    watch = Watch(recording)
    submit(group_tap("bob", pack_lobby(lobby_id, "start")))  # not the creator
    submit(group_tap("bob", pack_lobby(lobby_id, "abort")))
    submit(group_tap("bob", pack_lobby(lobby_id, "players", "7")))
    submit(group_tap("alice", pack_lobby(lobby_id + 40, "start")))  # no such lobby
    submit(command("mallory", "abort", chat="other-group"))  # a chat without a game
    submit(command("mallory", "start", chat="other-group"))
    with session_scope() as s:
        game = s.get(GameRow, lobby_id)
        assert game.status == "lobby" and game.options["players"] == 3
    assert sum("creator" in c.text for c in watch.new("dm-bob")) == 3  # told privately: his direct chat is known
    assert [c.chat for c in watch.new()] == ["dm-bob"] * 3  # Alice's and Mallory's are not: nothing is said

    submit(link_join("carol", lobby_id))
    submit(command("alice", "start"))
    with session_scope() as s:
        assert s.get(GameRow, lobby_id).status == "active"
    before = snapshot(lobby_id)
    watch = Watch(recording)
    submit(command("mallory", "abort", chat="other-group"))  # the game is in another chat
    submit(group_tap("mallory", pack_lobby(lobby_id, "abort"), chat="other-group"))  # a button naming it, elsewhere
    submit(group_tap("bob", pack_lobby(lobby_id, "abort")))
    submit(group_tap("bob", pack_lobby(lobby_id, "start")))  # started already
    submit(link_join("bob", lobby_id))  # and no longer a lobby
    assert snapshot(lobby_id) == before
    assert [c.chat for c in watch.new()] == ["dm-bob"] * 3


def test_an_admin_of_another_group_can_neither_abort_nor_start_this_ones_game(backbone_pg, recording):
    """What the Telegram gateway sends for a group admin's tap on Abort or Start: the command with the admin flag and
    the game id of the button's data. Tapped in another group (whose admin the tapper is), it must change nothing."""
    running = lobby.create_and_start("rec", GROUP, "board", {}, ["alice", "bob", "carol"], 0, seed=5)
    submit(command("dora", "newgame", "board", "4", chat="group-2"))
    with session_scope() as s:
        waiting = s.query(GameRow).filter_by(status="lobby").one().id
    submit(link_join("erin", waiting))
    before = snapshot(running)
    watch = Watch(recording)
    submit(command("mallory", "abort", ADMIN_FLAG, chat="group-3", game_id=running))
    submit(command("mallory", "start", ADMIN_FLAG, chat="group-3", game_id=waiting))  # 2 of 4 seated, no bots
    submit(group_tap("mallory", pack_lobby(running, "abort"), chat="group-3"))
    assert snapshot(running) == before
    with session_scope() as s:
        assert s.get(GameRow, waiting).status == "lobby"
    assert watch.new() == []
    submit(command("alice", "abort", ADMIN_FLAG, chat=GROUP, game_id=running))  # an admin of the game's own group
    assert snapshot(running)[0] == "aborted"


def test_hostile_command_arguments_are_refused_not_crashed(backbone_pg, recording):
    submit(command("alice", "newgame", "board", "²"))  # a digit to str.isdigit, not to int()
    submit(command("alice", "newgame", "board", "9" * 40))
    submit(command("alice", "newgame", "board", "9" * 5000))  # past Python's int() digit limit (a Matrix message)
    with session_scope() as s:
        lobby_id = s.query(GameRow).one().id
    for option, value in [
        ("turn", "nan"),
        ("turn", "inf"),
        ("turn", "-5"),
        ("response", "1e400"),
        ("lang", "x" * 300),
        ("players", "²"),
        ("%s", "{0}"),
        ("stack", "x"),  # the engines' test hook for a rigged deck: never a lobby option
    ]:
        submit(command("alice", "set", option, value))
    for user in ("bob", "carol"):
        submit(link_join(user, lobby_id))
    submit(command("alice", "start"))  # with whatever was accepted above: answered, not raised
    with session_scope() as s:
        game = s.get(GameRow, lobby_id)
        assert game.status in ("lobby", "active")
        assert "stack" not in game.config
        for key in ("turn_deadline", "response_deadline"):
            assert 0 < game.options[key] < 10**9


def test_a_user_with_a_very_long_name_can_play(backbone_pg, recording):
    """Matrix display names have no short limit; the users table keeps 255 characters."""
    submit(command("alice", "newgame", "cards", user_name="A" * 5000, language="x" * 100))
    with session_scope() as s:
        assert s.query(GameRow).count() == 1


def test_messages_during_a_card_game_silence_and_taps_after_an_abort(cards_game, recording):
    users = ["alice", "bob", "carol"]
    silent = drive(cards_game, users, random.Random(3), lambda kind, s: bool(get_game(kind).view(s, None)["silence"]))
    assert silent, "seed 3 should reach Morgan's silence"
    before = snapshot(cards_game)
    watch = Watch(recording)
    submit(Inbound("rec", GROUP, "alice", f"b{next(_ids)}", "text", text="the traitor is bob!", is_group=True))
    submit(Inbound("rec", GROUP, "mallory", f"b{next(_ids)}", "text", text="x" * 10_000, is_group=True))
    submit(Inbound("rec", GROUP, "alice", f"b{next(_ids)}", "unknown-kind", is_group=True))
    submit(command("alice", "nonsense", "%s"))
    assert snapshot(cards_game) == before
    assert watch.new() == []

    submit(command("alice", "abort", ADMIN_FLAG))  # the table has no creator: a chat admin ends it
    with session_scope() as s:
        assert s.get(GameRow, cards_game).status == "aborted"
    after = snapshot(cards_game)
    watch = Watch(recording)
    submit(tap("alice", pack(cards_game, before[1], "listen")))
    submit(tap("bob", pack(cards_game, before[1], "pass")))
    assert snapshot(cards_game) == after
    assert answered(watch, "dm-alice", "no such game") and answered(watch, "dm-bob", "no such game")
    assert [c for c in watch.new(GROUP) if c.method != "set_silence"] == []


def test_a_player_with_a_255_character_id_and_no_direct_chat_yet_can_play(backbone_pg, recording):
    """Matrix user ids may be 255 characters long; the outbox's marker for a not yet known direct chat must fit."""
    user = "@" + "u" * 241 + ":example.org"
    assert len(user) == 254
    recording.direct_chats[user] = "dm-long"  # the adapter can open it at delivery time
    game_id = lobby.create_and_start("rec", GROUP, "cards", {}, [user], 2, seed=1)
    assert any(c.buttons for c in recording.sent("dm-long"))  # the panel arrived in the opened direct chat
    seat, seq = next(iter(prompts(game_id).items()))
    kind, state = state_of(game_id)
    code = get_game(kind).encode(get_game(kind).legal_actions(state, seat)[0])
    submit(Inbound("rec", "dm-long", user, "long-1", "tap", text=pack(game_id, seq, code)))
    assert snapshot(game_id)[2][0] == (seat, code)


@pytest.mark.parametrize("level", ["@bogus", "@" + "z" * 39, "@%s{0}", "@"])
def test_a_forged_menu_level_shows_a_panel_and_moves_nothing(board_game, recording, level):
    seat, seq = next(iter(prompts(board_game).items()))
    user = ["alice", "bob", "carol"][seat]
    before = snapshot(board_game)
    watch = Watch(recording)
    submit(tap(user, pack(board_game, seq, level)))
    assert snapshot(board_game) == before
    assert [c.chat for c in watch.new()] in ([], [f"dm-{user}"])  # the panel, at most, and only to its owner


def test_a_forged_lobby_tap_cannot_post_another_chats_game_elsewhere(board_game, recording):
    """Lobby buttons carry only join, leave, start, abort and the three options; a tap naming a command
    (status, newgame, …) is refused, so an outsider cannot have a group's board posted into their chat."""
    watch = Watch(recording)
    for verb in ("status", "newgame", "rules", "help", "set"):
        submit(tap("mallory", pack_lobby(board_game, verb)))
    replies = watch.new()
    assert [c.chat for c in replies] == ["dm-mallory"] * 5
    assert all(c.text == replies[0].text for c in replies)  # the same refusal each time, never a board
    with session_scope() as s:
        assert s.query(GameRow).count() == 1


def test_a_tap_after_the_game_ended_is_answered_and_changes_nothing(cards_game, recording):
    users = ["alice", "bob", "carol"]
    last = dict(prompts(cards_game))
    over = drive(cards_game, users, random.Random(5), lambda kind, s: get_game(kind).result(s) is not None, 1000)
    assert over, "the game should end within 1000 moves"
    before = snapshot(cards_game)
    assert before[0] == "finished"
    watch = Watch(recording)
    seat, seq = next(iter(last.items()))
    submit(tap(users[seat], pack(cards_game, seq, "listen")))
    submit(tap(users[seat], pack(cards_game, before[1], "listen")))
    assert snapshot(cards_game) == before
    assert [c.chat for c in watch.new()] == [f"dm-{users[seat]}"] * 2
    assert all("over" in c.text for c in watch.new())


def test_an_overlong_update_id_is_still_deduplicated(board_game, recording):
    """Matrix event ids of old room versions may be 255 characters; the processed-updates key keeps 128."""
    seat, seq = next(iter(prompts(board_game).items()))
    user = ["alice", "bob", "carol"][seat]
    kind, state = state_of(board_game)
    code = get_game(kind).encode(get_game(kind).legal_actions(state, seat)[0])
    long_id = "$" + "e" * 254
    for _ in range(2):
        submit(tap(user, pack(board_game, seq, code), update_id=long_id))
    assert snapshot(board_game)[2] == [(seat, code)]


def test_a_game_tap_sent_from_the_group_is_refused_without_a_word_in_the_group(board_game, recording):
    """Choices are only offered in direct chats: a refused one arriving from the group is forged or replayed. The
    group must learn nothing (not even that a choice was refused), and the game does not change."""
    assert drive(board_game, ["alice", "bob", "carol"], random.Random(2), lambda k, s: len(prompts(board_game)) == 1)
    ((seat, seq),) = prompts(board_game).items()
    kind, state = state_of(board_game)
    code = get_game(kind).encode(get_game(kind).legal_actions(state, seat)[0])
    before = snapshot(board_game)
    watch = Watch(recording)
    others = [u for n, u in enumerate(["alice", "bob", "carol"]) if n != seat] + ["mallory"]
    for user in others:  # not this user's decision, or not seated
        submit(Inbound("rec", GROUP, user, f"b{next(_ids)}", "tap", text=pack(board_game, seq, code), is_group=True))
        submit(Inbound("rec", GROUP, user, f"b{next(_ids)}", "tap", text="garbage", is_group=True))
    assert watch.new() == []
    assert snapshot(board_game) == before
