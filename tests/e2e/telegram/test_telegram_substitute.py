"""A player leaves a 5-player board game over Telegram and a substitute plays his seat to the end (issue 24): fake
Telegram ↔ `camelot serve --telegram` ↔ Celery worker. Two people and three bots sit down; at the game's fifth
turn Gawain sends /leave in his direct chat and confirms; the autopilot plays his seat; Mordred, a member of the
group who is not seated, takes it from the group's call and confirms in his direct chat, gets the seat's whole
private view and plays it to the end. A leak audit: what the seat knows reached Mordred alone, and Gawain got
nothing after the handover."""

from __future__ import annotations

from typing import Any

import pytest
from fake_bot_api import FakeBotApi
from fake_bot_api.server import DEFAULT_BOT_RIGHTS
from sqlalchemy import func, select
from telegram_audit import rendered
from telegram_players import Table
from telegram_stack import Stack
from telegram_transcript import transcripts as phones
from test_telegram_games import game_row, outbox_drained, wait_drained

from engine import get_game
from service.callback import LobbyTap, linked_lobby, unpack
from service.play.state import load_state
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import ActionRow, GameRow, OutboxRow, Seat
from tests.e2e.days_checks import owner, panel_now

pytestmark = pytest.mark.e2e
SEED = 7
LEAVING_TURN = 5


def _lobby_button(api: FakeBotApi, chat_id: int, verb: str) -> tuple[int, str] | None:
    """The newest message in the chat with a lobby-style button of `verb`: (message id, its data)."""
    for msg in reversed(api.messages(chat_id)):
        for b in api.buttons(chat_id, msg.message_id):
            if isinstance(tap := unpack(b.get("callback_data", "")), LobbyTap) and tap.verb == verb:
                return msg.message_id, b["callback_data"]
    return None


def _open(api: FakeBotApi, people: list[Any], members: list[Any]) -> tuple[Any, int]:
    """A lobby of 5 with bots on; `people` join by the deep link; the creator starts."""
    group = api.add_group("Round Table", members, bot_rights=DEFAULT_BOT_RIGHTS)
    api.say(people[0], group.id, "/newgame board 5")
    link = api.wait(
        lambda: next(
            (
                b["url"]
                for m in api.messages(group.id)
                for b in api.buttons(group.id, m.message_id)
                if "start=join" in b.get("url", "")
            ),
            None,
        ),
        30,
        "the lobby's link",
    )
    game_id = linked_lobby(link.rsplit("join", 1)[1])
    for user in people:
        api.open_link(user, link)
    with session_scope() as s:
        api.wait(
            lambda: s.scalar(select(func.count()).select_from(Seat).where(Seat.game_id == game_id)) == 2,
            30,
            "both seated",
        )
        s.get(GameRow, game_id).seed = SEED
    message_id, bots = api.wait(lambda: _lobby_button(api, group.id, "bots"), 30, "the bots button")
    api.tap(people[0], group.id, message_id, bots)
    api.wait(lambda: _bots_on(game_id), 30, "bots on")
    message_id, start = _lobby_button(api, group.id, "start")
    api.tap(people[0], group.id, message_id, start)
    api.wait(lambda: game_row(game_id)[0] == "active", 30, "the game to start")
    return group, game_id


def _bots_on(game_id: int) -> bool:
    with session_scope() as s:
        return bool(s.get(GameRow, game_id).options.get("bots"))


def _turns(game_id: int) -> int:
    with session_scope() as s:
        return load_state(s, s.get(GameRow, game_id)).turns


def test_a_substitute_plays_a_left_seat_to_the_end_over_telegram(
    stack: Stack, fake_api: FakeBotApi, transcripts: Any
) -> None:
    api = fake_api
    arthur, gawain, mordred = (api.add_user(name) for name in ("Arthur", "Gawain", "Mordred"))
    try:
        _play(api, stack, arthur, gawain, mordred)
    finally:
        transcripts(phones(api, [arthur, gawain, mordred]))


def _play(api: FakeBotApi, stack: Stack, arthur: Any, gawain: Any, mordred: Any) -> None:
    group, game_id = _open(api, [arthur, gawain], [arthur, gawain, mordred])
    table = Table(api, [arthur, gawain], SEED)
    table.play_until(lambda: _turns(game_id) >= LEAVING_TURN, timeout=300)
    api.wait(outbox_drained, 60, "the outbox to drain")

    api.say(gawain, gawain.id, "/leave")
    message_id, quit_data = api.wait(lambda: _lobby_button(api, gawain.id, "quit"), 30, "the confirmation")
    api.tap(gawain, gawain.id, message_id, quit_data)
    api.wait(lambda: owner(game_id, 1) is None, 30, "the seat handed to the autopilot")
    api.wait(outbox_drained, 60, "the outbox to drain")
    left_at, left_seq = len(api.records()), game_row(game_id)[1]

    message_id, sub = api.wait(lambda: _lobby_button(api, group.id, "sub"), 30, "the call for a substitute")
    api.tap(mordred, group.id, message_id, sub)  # he never wrote to the bot: asked to, in the group
    api.wait(
        lambda: any("Mordred, please open a direct chat" in (m.text or "") for m in api.messages(group.id)),
        30,
        "the group asking Mordred to open a direct chat",
    )
    api.say(mordred, mordred.id, "/start")
    api.tap(mordred, group.id, message_id, sub)
    message_id, take = api.wait(lambda: _lobby_button(api, mordred.id, "sub_ok"), 30, "his confirmation")
    api.tap(mordred, mordred.id, message_id, take)
    api.wait(lambda: owner(game_id, 1) == str(mordred.id), 30, "the takeover")
    handover = panel_now(game_id, 1)
    api.wait(lambda: any(m.text == handover for m in api.messages(mordred.id)), 30, "the seat's view, to Mordred")
    taken_at, taken_seq = len(api.records()), game_row(game_id)[1]

    table = Table(api, [arthur, mordred], SEED + 1)
    table.play_until(lambda: game_row(game_id)[0] == "finished", timeout=600)
    try:
        wait_drained()
    except TimeoutError:
        with session_scope() as s:
            pending = s.execute(
                select(OutboxRow.chat, OutboxRow.op, OutboxRow.payload, OutboxRow.not_before).where(
                    OutboxRow.status == "pending"
                )
            ).all()
        raise AssertionError(f"{pending}\n{stack.log_tail()}") from None

    with session_scope() as s:
        log = [
            tuple(row)
            for row in s.execute(
                select(ActionRow.seat, ActionRow.by).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)
            )
        ]
    assert (1, "user") in log[taken_seq:], "Mordred played seat 1 by hand"
    assert all(by == "bot" for seat, by in log[left_seq:taken_seq] if seat == 1), "only the autopilot between"
    records = api.records()
    after = records[taken_at:]
    assert [r.text for r in records[left_at:] if r.chat_id == gawain.id] == [], "Gawain got nothing after the handover"
    audit = rendered(game_id)
    assert audit.leaks == []
    mordreds = [r.text for r in after if r.chat_id == mordred.id and r.action in ("send", "edit")]
    assert handover in [r.text for r in records[left_at:taken_at] if r.chat_id == mordred.id]
    others = set().union(*(texts for seat, texts in audit.private.items() if seat != 1)) - audit.private.get(1, set())
    assert mordreds and not [text for text in mordreds if text in others], "another seat's view reached Mordred"
    seat_one = audit.private.get(1, set()) - audit.private.get(0, set())
    assert [text for text in mordreds if text in seat_one], "Mordred played on with the seat's own view"
    arthurs = [r.text for r in records if r.chat_id == arthur.id]
    assert not [text for text in arthurs if text in seat_one], "seat 1's view reached Arthur"
    groups = [r.text for r in records if r.chat_id == group.id]
    assert not [text for text in groups if text in seat_one], "seat 1's view reached the group"
    engine = get_game("board")
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        final = engine.replay(game.config, game.seed, game_rows.action_log(s, game_id))
    assert engine.result(final) is not None
    print("substitute game over Telegram:", {"moves": len(log), "taps": table.taps, "mordred_messages": len(mordreds)})
