"""Mentions that notify: a deadline reminder in the group carries a text_mention entity over exactly the player's
name, counted in UTF-16 code units, and the fake Bot API refuses entities the real one would refuse."""

from __future__ import annotations

import asyncio

import pytest
from fake_bot_api import FakeBotApi
from telegram import MessageEntity
from telegram.error import BadRequest

from service.play import lobby
from service.play.scans import scan
from service.sessions import MemorySessions
from service.store import session_scope
from service.store.models import Deadline
from service.store.users import user_for
from service.telegram.adapter import TelegramAdapter
from service.telegram.mentions import mention_entities

DRAGON = "Zoë 🐉 Łucja"  # non-ASCII letters and an emoji outside the BMP (two UTF-16 code units)


def utf16(text: str) -> bytes:
    return text.encode("utf-16-le")


def covered(text: str, entity: dict) -> str:
    """The part of `text` an entity covers, read the way Telegram reads it (UTF-16 code units)."""
    units = utf16(text)
    return units[2 * entity["offset"] : 2 * (entity["offset"] + entity["length"])].decode("utf-16-le")


def test_offsets_and_lengths_count_utf16_code_units() -> None:
    text = f"⏳ 🐉 {DRAGON} and Bob, your move"
    (dragon, bob) = [e.to_dict() for e in mention_entities(text, {"7": DRAGON, "8": "Bob"})]
    assert dragon["offset"] == 5 and dragon["length"] == len(utf16(DRAGON)) // 2 == len(DRAGON) + 1
    assert covered(text, dragon) == DRAGON and covered(text, bob) == "Bob"
    assert dragon["user"]["id"] == 7 and dragon["type"] == "text_mention"


def test_a_name_twice_in_the_text_marks_each_user_once_and_a_missing_name_none() -> None:
    text = "Ann, Ann and Zed"
    found = [e.to_dict() for e in mention_entities(text, {"1": "Ann", "2": "Ann", "3": "Nobody"})]
    assert [(e["offset"], e["user"]["id"]) for e in found] == [(0, 1), (5, 2)]


def test_group_reminder_mentions_the_player_by_name(telegram_backbone: FakeBotApi) -> None:
    api = telegram_backbone
    dragon, bob = api.add_user("Zoë"), api.add_user("Bob")
    group = api.add_group("Table", [dragon, bob])
    game_id = lobby.create_and_start("telegram", str(group.id), "toy", {}, [str(dragon.id), str(bob.id)], 0, seed=4)
    with session_scope() as s:
        user_for(s, "telegram", str(dragon.id), name=DRAGON)
        row = s.query(Deadline).filter_by(game_id=game_id, seat=0).one()
        start, due = row.started_at, row.due_at
    assert scan(start + (due - start) * 0.6)["reminders"] == 1  # the first one goes to the direct chat
    assert scan(start + (due - start) * 0.95)["reminders"] == 1  # the second one mentions them in the group
    (reminder,) = [m for m in api.messages(group.id) if "waiting for you" in (m.text or "")]
    assert reminder.text.startswith(DRAGON)
    (entity,) = reminder.entities or []
    assert entity["type"] == "text_mention" and entity["user"]["id"] == dragon.id
    assert covered(reminder.text, entity) == DRAGON
    assert api.rejected == [] and not [e for e in api.errors if "entities" in e[2]]


def test_the_fake_server_refuses_entities_outside_the_text(fake_api: FakeBotApi) -> None:
    """An offset counted in code points instead of UTF-16 units runs past the end: Telegram answers 400."""
    group = fake_api.add_group("Table", [fake_api.add_user("Ann")])
    adapter = TelegramAdapter(fake_api.token, fake_api.base_url, sessions=MemorySessions())

    async def send(entities: list[dict]) -> None:
        bot = await adapter.bot()
        try:
            await bot.send_message(group.id, "🐉 Ann", entities=[MessageEntity.de_json(e, bot) for e in entities])
        finally:
            await adapter.close()

    asyncio.run(send([{"type": "bold", "offset": 3, "length": 3}]))  # "Ann": the dragon counts two
    with pytest.raises(BadRequest, match="(?i)can't parse entities"):
        asyncio.run(send([{"type": "bold", "offset": 3, "length": 4}]))
    with pytest.raises(BadRequest, match="(?i)can't parse entities"):
        asyncio.run(send([{"type": "text_mention", "offset": 3, "length": 3}]))
    assert [m.entities for m in fake_api.messages(group.id)] == [[{"type": "bold", "offset": 3, "length": 3}]]
