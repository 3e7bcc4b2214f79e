"""Issue 23, the group's half of "the chat tells the story", over the real Telegram stack (fake Bot API, gateway and
worker processes): one person and paced bots play a 5-player board game and a 4-player card game; then the
group's messages are read back. Every move's public events are within one message (a bot's turn is one), every
Threat card revealed is told, the board is a captioned picture edited in place, the game ends with every loyalty
and the final picture, nothing secret reached the group (the audit), and Telegram never answered 429."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fake_bot_api import FakeBotApi
from telegram_audit import rendered
from telegram_players import Table
from telegram_stack import Stack
from telegram_transcript import transcripts as phones
from test_telegram_games import game_row, outbox_drained, wait_drained

from service.callback import LobbyTap, linked_lobby, unpack
from service.render import narration
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow
from tests.story_order import told_in_order

pytestmark = pytest.mark.e2e

BOT_DELAY = "0.5"  # seconds: the chat pace at the stack's TIME_SCALE (a few seconds on Telegram)


@pytest.fixture(autouse=True)
def paced_bots_and_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stack's processes read these when they start (the fixture runs before `stack`)."""
    monkeypatch.setenv("CHAT_BOT_DELAY", BOT_DELAY)
    monkeypatch.setenv("BOARD_PICTURES", "true")


def open_with_bots(api: FakeBotApi, user: Any, kind: str, players: int, seed: int) -> tuple[Any, int, int]:
    """/newgame in a new group, bots on, the creator starts: one person and `players - 1` bots."""
    group = api.add_group("Round Table", [user])
    api.open_bot(user)
    api.say(user, group.id, f"/newgame {kind} {players}")
    lobby = api.wait(
        lambda: next((m for m in api.messages(group.id) for b in api.buttons(group.id, m.message_id)
                      if "start=join" in b.get("url", "")), None),
        30, "the lobby message",
    )
    link = next(b["url"] for b in api.buttons(group.id, lobby.message_id) if "url" in b)
    game_id = linked_lobby(link.rsplit("join", 1)[1])
    with session_scope() as s:
        s.get(GameRow, game_id).seed = seed
    api.say(user, group.id, "/set bots on")
    api.wait(lambda: _options(game_id).get("bots") is True, 30, "bots on")
    start = next(
        b["callback_data"] for b in api.buttons(group.id, lobby.message_id)
        if isinstance(t := unpack(b.get("callback_data", "")), LobbyTap) and t.verb == "start"
    )
    api.tap(user, group.id, lobby.message_id, start)
    api.wait(lambda: game_row(game_id)[0] == "active", 30, "the game to start")
    return group, game_id, lobby.message_id


def _options(game_id: int) -> dict[str, Any]:
    with session_scope() as s:
        return dict(s.get(GameRow, game_id).options)


def told_moves(game_id: int) -> tuple[list[narration.Move], list[list[str]], dict[int, str], str]:
    """The game's moves (from its log), each move's narrated public lines as the group reads them, the seat names
    and the group's language."""
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        kind, config, seed, lang = game.kind, game.config, game.seed, game.language
        log = game_rows.action_log(s, game_id)
        users = game_rows.seat_users(s, game_id)
    names = {seat: users[seat].name if seat in users else f"Bot {seat + 1}" for seat in range(config["players"])}
    moves = narration.moves(kind, config, seed, log)[1:]  # (the setup is told by the first board)
    return moves, [narration.narrate(kind, events, lang, names) for _, _, events in moves], names, lang


def play_story(api: FakeBotApi, kind: str, players: int, seed: int, transcripts: Any) -> dict[str, Any]:
    person = api.add_user("Arthur", language_code="en")
    try:
        return _play_story(api, person, kind, players, seed)
    finally:
        transcripts(phones(api, [person]))


def _play_story(api: FakeBotApi, person: Any, kind: str, players: int, seed: int) -> dict[str, Any]:
    group, game_id, lobby_id = open_with_bots(api, person, kind, players, seed)
    first = len(api.records())
    table = Table(api, [person], seed)
    table.play_until(lambda: game_row(game_id)[0] == "finished", timeout=900, idle=120)
    wait_drained()
    time.sleep(2.0)  # a rating, if any, is handed on after the last move
    api.wait(outbox_drained, 60, "the outbox to drain")

    # every move's public events, whole and in order, each move within one message (a bot's turn: one message)
    moves, told, names, lang = told_moves(game_id)
    mine = [r for r in api.records()[first:] if r.chat_id == group.id]
    told_ids = {r.message_id for r in mine if r.action == "send" and r.method == "sendMessage"}
    finals = [m.text for i, m in sorted(group.messages.items()) if i in told_ids and m.text]
    missing = told_in_order(told, finals)
    assert missing == [], missing[:3]
    moves_told = sum(bool(lines) for lines in told)
    assert moves_told > 20

    # the board: one picture, its caption the text board, edited in place and pinned
    audit = rendered(game_id)
    photos = [r for r in mine if r.method in ("sendPhoto", "editMessageMedia")]
    board_id = photos[0].message_id
    # sent once, then only edited (edits waiting behind the move messages are superseded by the newest: fewer edits
    # than moves, none at all when bots at the tests' pace finish before the board's first turn to be sent)
    assert sum(r.message_id == board_id and r.method == "sendPhoto" for r in photos) == 1 and group.pinned == board_id
    assert group.messages[board_id].photo is not None and group.messages[board_id].caption == audit.last_board

    # the end: the result, every loyalty, the swords, the decisive play, each seat's numbers, on the final picture
    closing = [m for m in group.messages.values() if (m.caption or m.text) == audit.closing]
    assert len(closing) == 1 and closing[0].photo is not None
    assert all(names[seat] in audit.closing for seat in names) and "⭐" in audit.closing

    # nothing secret in the group, nothing refused, no 429
    assert audit.leaks == []
    for r in api.records()[first:]:
        if r.chat_id == group.id and r.action in ("send", "edit") and r.message_id != lobby_id:
            assert audit.public_text(r.text), f"group message not explained by public information: {r.text!r}"
    assert api.throttled == [] and api.rejected == []
    group_calls = [r for r in api.records()[first:] if r.chat_id == group.id]
    return {
        "moves": audit.moves,
        "moves told": moves_told,
        "group sends": sum(r.action == "send" for r in group_calls),
        "group messages telling moves": len(finals),
        "group edits": sum(r.action == "edit" for r in group_calls),
        "person's taps": table.taps,
        "moves_and_lines": (moves, lang, names),
    }


def test_telegram_board_game_of_one_person_and_four_bots_tells_every_move(
    stack: Stack, fake_api: FakeBotApi, transcripts: Any
) -> None:
    stats = play_story(fake_api, "board", 5, 7, transcripts)
    stats.pop("moves_and_lines")
    print("board game, one person and four bots, over Telegram:", stats)


def test_telegram_card_game_of_one_person_and_three_bots_shows_every_threat_card(
    stack: Stack, fake_api: FakeBotApi, transcripts: Any
) -> None:
    stats = play_story(fake_api, "cards", 4, 45, transcripts)
    moves, lang, names = stats.pop("moves_and_lines")
    group = next(chat for chat in fake_api.world.chats.values() if chat.is_group)
    shown = "\n".join(m.text or "" for m in group.messages.values())
    reveals = [e for _, _, events in moves for e in events if e.kind == "reveal"]
    lines = [narration.narrate("cards", [e], lang, names)[0] for e in reveals]
    assert len(reveals) > 10 and [line for line in lines if line not in shown] == []
    print("card game, one person and three bots, over Telegram:", stats, "Threat cards revealed and told:",
          len(reveals))
