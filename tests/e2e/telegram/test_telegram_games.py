"""Whole games through the real Telegram gateway: fake Telegram ↔ `camelot serve --telegram` ↔ Celery worker, with
PostgreSQL and Redis on 127.0.0.1. Simulated players join by deep link and tap legal buttons to the end; then
everything Telegram received is audited against the engine (see telegram_audit.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fake_bot_api import CannotSend, FakeBotApi
from fake_bot_api.server import DEFAULT_BOT_RIGHTS
from sqlalchemy import func, select
from telegram_audit import rated, rating_settled, rendered
from telegram_players import Table
from telegram_stack import Stack
from telegram_transcript import transcripts as phones

from engine import get_game
from service.callback import LobbyTap, linked_lobby, pack, unpack
from service.play import pilots
from service.play.presenting import t
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import ActionRow, GameRow, OutboxRow, Seat
from service.telegram.adapter import NO_RIGHTS_DEFAULT

pytestmark = pytest.mark.e2e

NOTICE_KEYS = ("notice.malformed", "notice.expired", "notice.not_seated", "notice.no_game", "notice.not_your_turn")
BOARD_SEED = 7  # any deal works; fixed so a failure can be replayed
CARDS_SEED = 45  # a deal in which random play meets a Morgan early (15 of 15 random games), so silence is tested


def game_row(game_id: int) -> tuple[str, int, int]:
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        assert game is not None
        actions = s.scalar(select(func.count()).select_from(ActionRow).where(ActionRow.game_id == game_id))
        return game.status, game.seq, actions or 0


def legal_codes(game_id: int, user_id: int) -> set[str]:
    """The action codes the user's seat may play now, from the game's log."""
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        seat = next(seat for seat, user in game_rows.seat_users(s, game_id).items() if user.platform_id == str(user_id))
        state = get_game(game.kind).replay(game.config, game.seed, game_rows.action_log(s, game_id))
    engine_game = get_game(game.kind)
    return {engine_game.encode(a) for a in engine_game.legal_actions(state, seat)}


def game_options(game_id: int) -> dict[str, Any]:
    with session_scope() as s:
        return dict(s.get(GameRow, game_id).options)


def outbox_drained() -> bool:
    return pending_rows() == 0


def pending_rows() -> int:
    with session_scope() as s:
        return s.scalar(select(func.count()).select_from(OutboxRow).where(OutboxRow.status == "pending")) or 0


def wait_drained(stall: float = 60.0, limit: float = 900.0) -> None:
    """Wait for the outbox to drain while it keeps draining: bots play at once in tests (CHAT_BOT_DELAY 0), so a
    game whose people died early ends with hundreds of group messages queued behind the group's rate (one per
    0.75 s here). TimeoutError when nothing was sent for `stall` seconds (stuck rows), or after `limit`."""
    started = last_change = time.monotonic()
    left = pending_rows()
    while left:
        time.sleep(0.5)
        now, before, left = time.monotonic(), left, pending_rows()
        if left < before:
            last_change = now
        if now - last_change > stall or now - started > limit:
            raise TimeoutError(f"timed out waiting for the outbox to drain: {left} rows pending")


def open_table(
    api: FakeBotApi,
    kind: str,
    users: list[Any],
    seed: int,
    bot_rights: dict[str, bool] | None,
    basic: bool = False,
    config: dict[str, Any] | None = None,
    lobby_options: dict[str, str] | None = None,
) -> tuple[Any, int, int]:
    """/newgame in a new group (`basic`: a basic group, which may be upgraded), everyone joins through the deep
    link (the lobby message is edited in place as they do), the seed (and `config`, if given) is fixed, the creator
    sends `/set <option> <value>` for each of `lobby_options` (deadlines, limits: `pilots.LIMITS`), then starts."""
    group = api.add_group("Round Table", users, bot_rights=bot_rights, basic=basic)
    first = len(api.records())
    api.say(users[0], group.id, f"/newgame {kind} {len(users)}")
    lobby = api.wait(
        lambda: next(
            (
                m
                for m in api.messages(group.id)
                for b in api.buttons(group.id, m.message_id)
                if "start=join" in b.get("url", "")
            ),
            None,
        ),
        30,
        "the lobby message",
    )
    link = next(b["url"] for b in api.buttons(group.id, lobby.message_id) if "url" in b)
    game_id = linked_lobby(link.rsplit("join", 1)[1])
    for user in users:
        api.open_link(user, link)
    with session_scope() as s:
        api.wait(
            lambda: s.scalar(select(func.count()).select_from(Seat).where(Seat.game_id == game_id)) == len(users),
            30,
            "everyone seated",
        )
        row = s.get(GameRow, game_id)
        row.seed = seed  # the deal is random in play; fixed here so the run is repeatable
        if config:  # (a scripted situation: the engine's test-only `stack`)
            row.config = {**row.config, **config}
    for option, value in (lobby_options or {}).items():
        api.say(users[0], group.id, f"/set {option} {value}")
        key, unit, _, _ = pilots.LIMITS[option]
        api.wait(lambda key=key, want=float(value) * unit: game_options(game_id).get(key) == want, 30, f"/set {option}")
    api.wait(lambda: all(u.first_name in (lobby.text or "") for u in users), 30, "every name in the lobby message")
    lobby_phase = [r for r in api.records()[first:] if r.chat_id == group.id]
    assert [r.action for r in lobby_phase if r.action == "send"] == ["send"]  # one lobby message, edited in place
    start = next(
        b["callback_data"]
        for b in api.buttons(group.id, lobby.message_id)
        if isinstance(t := unpack(b.get("callback_data", "")), LobbyTap) and t.verb == "start"
    )
    api.tap(users[0], group.id, lobby.message_id, start)
    api.wait(lambda: game_row(game_id)[0] == "active", 30, "the game to start")
    return group, game_id, lobby.message_id


def settle(api: FakeBotApi, game_id: int) -> None:
    """Wait until the taps in flight are played and delivered: the game stands still."""
    last = None
    while (now := game_row(game_id)) != last or not outbox_drained():
        last = now
        time.sleep(1.0)


def forge_taps(api: FakeBotApi, table: Table, game_id: int, group: Any) -> None:
    """Another player's button, a wrong seq, garbage, another game, a hand-made `leave`: each answered to the tapper
    alone, none changes the game or says a word in the group."""
    holder = api.wait(lambda: next((p for p in table.players if table.panel(p)), None), 30, "a first decision")
    message_id, _, data = table.panel(holder)
    choice = unpack(data[0])
    # another player for whom the code is no choice of theirs (in a window open to several seats, a card code such
    # as "give:fight_1" can be as legal for another holder of that card: then the tap is theirs to make)
    other = next(p for p in table.players if p is not holder and choice.code not in legal_codes(game_id, p.user.id))
    before = game_row(game_id)
    other_msg = api.messages(other.user.id)[-1].message_id
    since = len(api.records(group.id))
    taps = [
        api.tap(other.user, other.user.id, other_msg, data[0], forge=True),
        api.tap(holder.user, holder.user.id, message_id, pack(game_id, before[1] + 5, choice.code), forge=True),
        api.tap(holder.user, holder.user.id, message_id, "\u0000\u00ff%garbage%", forge=True),
        api.tap(holder.user, holder.user.id, message_id, pack(game_id + 1000, choice.seq, choice.code), forge=True),
        api.tap(holder.user, holder.user.id, message_id, f"{game_id}:{choice.seq}:leave", forge=True),
    ]
    answers = [api.answer(q) for q in taps]  # at once; a reason when the cache knows, else the worker's notice
    time.sleep(1.0)
    assert game_row(game_id) == before, (answers, data[0])
    invalid = t(holder.user.language_code, "notice.malformed")
    assert answers[1] and answers[2] == answers[4] == invalid, answers  # refused by the precheck, privately
    refusals = {t(lang, key) for lang in ("en", "cs", "pl", "nl", "ro", "it") for key in NOTICE_KEYS}
    assert not [r.text for r in api.records(group.id)[since:] if r.text in refusals]  # the group hears nothing


def questions_at_the_bottom(records: list[Any]) -> int:
    """Replay what the bot did to the direct chats: questions (messages with choices) come as new messages, at the
    bottom of their chat when sent, and never more than one message with live choices per person at any moment (the
    answered question loses its buttons; the hand panel has none while a question is open). Returns how many."""
    live: dict[int, set[int]] = {}
    questions = 0
    for r in records:
        if r.chat_id <= 0 or r.message_id is None or r.action not in ("send", "edit"):
            continue
        chat = live.setdefault(r.chat_id, set())
        choices = any("callback_data" in b for row in (r.markup or {}).get("inline_keyboard", []) for b in row)
        if r.action == "send":
            questions += choices
        if choices:
            chat.add(r.message_id)
        else:
            chat.discard(r.message_id)
        assert len(chat) <= 1, f"two live sets of choices in chat {r.chat_id}: {sorted(chat)} at {r.text[:60]!r}"
    return questions


def play(
    api: FakeBotApi,
    stack: Stack,
    kind: str,
    names: list[tuple[str, str]],
    seed: int,
    watch_silence: bool = False,
    bot_rights: dict[str, bool] | None = DEFAULT_BOT_RIGHTS,
    crash_gateway_at: int | None = None,
    transcripts: Any = None,
) -> dict[str, Any]:
    """`transcripts`: the fixture that writes each person's chats as their phone shows them, at move 2 (decisions
    open) and at the end (also when the game fails)."""
    users = [api.add_user(name, language_code=lang) for name, lang in names]

    def snapshot() -> None:
        if transcripts is not None:
            transcripts({f"{name} at move 2": text for name, text in phones(api, users).items()})

    try:
        return _play(api, stack, kind, users, seed, watch_silence, bot_rights, crash_gateway_at, snapshot)
    finally:
        if transcripts is not None:
            transcripts(phones(api, users))


def _play(
    api: FakeBotApi,
    stack: Stack,
    kind: str,
    users: list[Any],
    seed: int,
    watch_silence: bool,
    bot_rights: dict[str, bool] | None,
    crash_gateway_at: int | None,
    snapshot: Callable[[], None],
) -> dict[str, Any]:
    group, game_id, lobby_id = open_table(api, kind, users, seed, bot_rights)
    first_record = len(api.records())
    table = Table(api, users, seed)
    table.play_until(lambda: game_row(game_id)[1] >= 2, timeout=60)
    settle(api, game_id)
    snapshot()  # what the phones show while the first decisions are open
    forge_taps(api, table, game_id, group)
    member = users[1]
    seen = {"silenced": 0, "lifted": 0}

    def check_silence() -> None:
        muted = not group.permissions["can_send_messages"]
        if muted and seen["silenced"] == seen["lifted"]:
            with pytest.raises(CannotSend):
                api.say(member, group.id, "psst, I know who the traitor is")
            api.say(users[0], group.id, "/status")  # the creator is an admin: admins are never restricted
            seen["silenced"] += 1
        elif not muted and seen["silenced"] > seen["lifted"]:
            api.say(member, group.id, "we may talk again")
            seen["lifted"] += 1

    if crash_gateway_at is not None:
        table.play_until(lambda: game_row(game_id)[1] >= crash_gateway_at, timeout=120)
        api.wait(outbox_drained, 60, "the outbox to drain")  # the gateway sends: the players have their buttons
        stack.kill_gateway()
        time.sleep(0.5)
        assert table.step(), "nobody could tap while the gateway was down"  # these taps wait at Telegram
        stack.start_gateway()
    try:
        table.play_until(
            lambda: game_row(game_id)[0] == "finished", timeout=420, on_step=check_silence if watch_silence else None
        )
    except TimeoutError as exc:
        raise TimeoutError(f"{exc}\n{stack.log_tail()}") from None
    api.wait(lambda: rating_settled(game_id), 180, "the game's rating")  # a notice, if rated, is the game's last
    api.wait(outbox_drained, 60, "the outbox to drain")
    time.sleep(0.5)
    if watch_silence:
        check_silence()

    audit = rendered(game_id)
    assert audit.leaks == []
    records = api.records()[first_record:]
    group_records = [r for r in records if r.chat_id == group.id and r.action in ("send", "edit")]
    for r in group_records:
        if r.message_id != lobby_id:
            assert audit.public_text(r.text), f"group message not explained by public information: {r.text!r}"
    if rated(game_id):  # the people's new ratings, told (a game of one side is not rated: `rating_settled`)
        assert audit.ratings and audit.ratings in [r.text for r in group_records]
    else:  # and no ratings notice: every group message is explained by the audit above, which has none
        assert not audit.ratings
    for r in records:
        if r.chat_id > 0:
            seat = audit.seats.get(str(r.chat_id))
            assert seat is not None, f"a direct message to someone not seated: {r.chat_id}"
            if r.action in ("send", "edit"):
                assert audit.private_text(seat, r.text), (
                    f"direct message to seat {seat} not its own: {r.text!r}; nearest: {audit.closest(seat, r.text)!r}"
                )
    assert questions_at_the_bottom(api.records()) > 0
    assert api.rejected == [], api.rejected
    assert api.throttled == [], [
        (t, [(round(r.at - t[3], 3), r.action, r.text[:30]) for r in api.records(t[1]) if abs(r.at - t[3]) < 1])
        for t in api.throttled
    ]
    refused_rights = [
        e for e in api.errors if e[0] in ("setChatPermissions", "pinChatMessage") and "not enough rights" in e[2]
    ]
    assert bot_rights is None or not refused_rights  # without the right, trying is how the bot finds out
    # "not modified": an edit that brings back what the message already shows (a superseded edit in between);
    # the adapter takes it as done. Counted, not an error.
    unchanged = [e for e in api.errors if e[0].startswith("edit") and "message is not modified" in e[2]]
    assert [e for e in api.errors if e not in refused_rights and e not in unchanged] == [], api.errors
    assert all(q["answered_at"] is not None for q in api.world.callbacks.values())
    if bot_rights:  # one board message, pinned
        assert group.pinned is not None and group.messages[group.pinned].text in audit.boards
    else:
        assert group.pinned is None
    return {
        "moves": audit.moves,
        "taps": table.taps,
        "group_sends": sum(r.action == "send" for r in group_records),
        "group_edits": sum(r.action == "edit" for r in group_records),
        "direct_sends": sum(r.action == "send" and r.chat_id > 0 for r in records),
        "direct_edits": sum(r.action == "edit" and r.chat_id > 0 for r in records),
        "silenced": seen["silenced"],
        "lifted": seen["lifted"],
        "audit_silenced": audit.silenced,
        "final_can_send": group.permissions["can_send_messages"],
        "edits_not_modified": len(unchanged),
        "group_texts": [r.text for r in group_records],
        "group_sends_first_lines": [r.text.split("\n")[0][:60] for r in group_records if r.action == "send"],
    }


def test_five_player_board_game_over_telegram(stack: Stack, fake_api: FakeBotApi, transcripts: Any) -> None:
    names = [("Arthur", "en"), ("Gawain", "en"), ("Percival", "it"), ("Tristan", "en"), ("Galahad", "en")]
    stats = play(fake_api, stack, "board", names, BOARD_SEED, transcripts=transcripts)
    stats.pop("group_texts")
    print("group messages of the board game:", stats.pop("group_sends_first_lines"))
    print("board game over Telegram:", stats)


def test_four_player_card_game_with_morgans_silence(stack: Stack, fake_api: FakeBotApi, transcripts: Any) -> None:
    names = [("Arthur", "en"), ("Kay", "en"), ("Guinevere", "en"), ("Lancelot", "en")]
    stats = play(fake_api, stack, "cards", names, CARDS_SEED, watch_silence=True, transcripts=transcripts)
    texts = "\n".join(stats.pop("group_texts"))
    print("group messages of the card game:", stats.pop("group_sends_first_lines"))
    print("card game over Telegram:", stats)
    assert stats["silenced"] >= 1, "no Morgan silence happened in this game"
    assert stats["final_can_send"], "members are still restricted after the game"
    assert t("en", "notice.silence_on") in texts and t("en", "notice.silence_off") in texts  # announced


def test_card_game_goes_on_when_the_bot_may_not_restrict(stack: Stack, fake_api: FakeBotApi, transcripts: Any) -> None:
    names = [("Arthur", "en"), ("Kay", "en"), ("Guinevere", "en"), ("Lancelot", "en")]
    stats = play(
        fake_api, stack, "cards", names, CARDS_SEED, watch_silence=True, bot_rights=None, transcripts=transcripts
    )
    texts = stats.pop("group_texts")
    print("group messages of the card game without rights:", stats.pop("group_sends_first_lines"))
    print("card game, bot without admin rights:", stats)
    assert stats["audit_silenced"] and stats["silenced"] == 0  # Morgan's silence held in the game, not the group
    assert sum(NO_RIGHTS_DEFAULT in text for text in texts) == 1  # said once, with how to grant the right


def test_card_game_survives_a_killed_gateway(stack: Stack, fake_api: FakeBotApi, transcripts: Any) -> None:
    names = [("Arthur", "en"), ("Kay", "en"), ("Guinevere", "en"), ("Lancelot", "en")]
    stats = play(fake_api, stack, "cards", names, CARDS_SEED, crash_gateway_at=6, transcripts=transcripts)
    stats.pop("group_texts"), stats.pop("group_sends_first_lines")
    print("card game with the gateway killed at move 6:", stats)
    assert stats["moves"] > 6
