"""Lancelot's Armor over Telegram (B-KNIGHT, issue 21 item 1): the holder draws two black cards and keeps one; the
choice comes to him alone as a private prompt, each card named on its button, and everything Telegram received
stays explained by what each reader may know (see telegram_audit.py)."""

from __future__ import annotations

from typing import Any

import pytest
from fake_bot_api import FakeBotApi
from fake_bot_api.server import DEFAULT_BOT_RIGHTS
from telegram_audit import rendered
from telegram_players import Table
from telegram_stack import Stack
from test_telegram_games import BOARD_SEED, game_row, open_table, outbox_drained, settle

from service.callback import unpack
from service.render.i18n import available_languages, t
from service.store import games as game_rows
from service.store import session_scope

pytestmark = pytest.mark.e2e

# The first seat holds the Armor and starts; the two black cards on top are standard ones (no cancel window).
ARMOR = {"stack": {"first": 0, "skip_gesture": True, "board": {"relics": [["armor"], [], [], []]},
                   "black": ["despair", "picts"]}}


def test_the_armor_holders_two_black_cards_come_to_him_alone(stack: Stack, fake_api: FakeBotApi) -> None:
    api = fake_api
    users = [api.add_user(name, language_code=lang) for name, lang in (("Ann", "it"), ("Bo", "en"), ("Cy", "en"),
                                                                        ("Di", "nl"))]
    group, game_id, lobby_id = open_table(api, "board", users, BOARD_SEED, DEFAULT_BOT_RIGHTS, config=ARMOR)
    first_record = len(api.records())
    table = Table(api, users, BOARD_SEED)
    with session_scope() as s:
        holder_id = int(game_rows.seat_users(s, game_id)[0].platform_id)
    holder = next(p for p in table.players if p.user.id == holder_id)
    lang = holder.user.language_code or "en"

    message_id, _, data = api.wait(lambda: table.panel(holder), 30, "the Armor holder's Evil phase")
    black = next(d for d in data if getattr(unpack(d), "code", None) == "evil:black")
    api.tap(holder.user, holder.user.id, message_id, black)
    prompt = t(lang, "board.prompt.armor")

    def armor_panel() -> Any:
        return next((m for m in api.messages(holder.user.id) if prompt in (m.text or "") and m.reply_markup), None)

    panel = api.wait(armor_panel, 30, "the Armor's two-card choice")
    labels = [b["text"] for row in panel.reply_markup["inline_keyboard"] for b in row]
    assert len(labels) == 2 and all(label.startswith(t(lang, "board.action.armor") + ": ") for label in labels)
    table.play_until(lambda: game_row(game_id)[1] >= 6, timeout=120)  # his choice and a few moves after it
    settle(api, game_id)
    api.wait(outbox_drained, 60, "the outbox to drain")

    audit = rendered(game_id)
    assert audit.leaks == []
    prompts = [t(code, "board.prompt.armor") for code in available_languages()]
    for r in api.records()[first_record:]:
        if r.action not in ("send", "edit") or r.message_id == lobby_id:
            continue
        if r.chat_id == group.id:
            assert audit.public_text(r.text), f"group message not explained by public information: {r.text!r}"
        else:
            seat = audit.seats[str(r.chat_id)]
            assert audit.private_text(seat, r.text), f"direct message to seat {seat} not its own: {r.text!r}"
            assert r.chat_id == holder_id or not any(p in r.text for p in prompts), "the Armor's choice went astray"
