"""The fake Bot API's command menus, callback queries that expire or come from inline messages, and photos (sent
with a caption and a keyboard, replaced in place with editMessageMedia)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import telegram
from fake_bot_api import FakeBotApi
from fake_bot_api.calls import call, form_call, keyboard
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto

TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
PNG_1, PNG_2 = b"\x89PNG board at move 1", b"\x89PNG board at move 2"

pytestmark = pytest.mark.usefixtures("no_rate_limits")


def commands(*names: str) -> list[dict[str, str]]:
    return [{"command": n, "description": f"{n} it"} for n in names]


def test_command_menus_per_scope_and_language(fake_api: FakeBotApi) -> None:
    ann, lia = fake_api.add_user("Ann"), fake_api.add_user("Lia", language_code="it")
    group = fake_api.add_group("Hall", [ann, lia])
    fake_api.open_bot(ann), fake_api.open_bot(lia)
    assert call(fake_api, "setMyCommands", commands=commands("help", "newgame"))["ok"]
    assert call(fake_api, "setMyCommands", commands=commands("aiuto"), language_code="it")["ok"]
    private = {"type": "all_private_chats"}
    assert call(fake_api, "setMyCommands", commands=commands("hand"), scope=private)["ok"]
    here = {"type": "chat", "chat_id": group.id}
    assert call(fake_api, "setMyCommands", commands=commands("status"), scope=here, language_code="it")["ok"]
    assert [c["command"] for c in call(fake_api, "getMyCommands")["result"]] == ["help", "newgame"]
    assert [c["command"] for c in call(fake_api, "getMyCommands", language_code="it")["result"]] == ["aiuto"]
    assert call(fake_api, "getMyCommands", scope=here)["result"] == []  # that exact scope and language only
    assert [c["command"] for c in fake_api.commands_menu(ann, ann.id)] == ["hand"]
    assert [c["command"] for c in fake_api.commands_menu(lia, group.id)] == ["status"]
    assert [c["command"] for c in fake_api.commands_menu(ann, group.id)] == ["help", "newgame"]
    assert call(fake_api, "deleteMyCommands", scope=private)["ok"]
    assert [c["command"] for c in fake_api.commands_menu(lia, lia.id)] == ["aiuto"]
    assert call(fake_api, "setMyCommands", commands=[], language_code="it")["ok"]  # empty: deleted
    assert [c["command"] for c in fake_api.commands_menu(lia, lia.id)] == ["help", "newgame"]


@pytest.mark.parametrize(
    "params, needle",
    [
        ({"commands": commands("NewGame")}, "BOT_COMMAND_INVALID"),
        ({"commands": [{"command": "x", "description": ""}]}, "1-256 characters"),
        ({"commands": [{"command": "x", "description": "   "}]}, "BOT_COMMAND_DESCRIPTION_INVALID"),
        ({"commands": commands(*(f"c{i}" for i in range(101)))}, "too many commands"),
        ({"commands": commands("help"), "language_code": "ita"}, "invalid language code"),
        ({"commands": commands("help"), "scope": {"type": "chat", "chat_id": -5}}, "chat not found"),
        ({"commands": commands("help"), "scope": {"type": "sometimes"}}, "no BotCommandScope"),
    ],
)
def test_bad_command_menus_are_refused(fake_api: FakeBotApi, params: dict[str, Any], needle: str) -> None:
    answer = call(fake_api, "setMyCommands", **params)
    assert answer["error_code"] == 400 and needle in answer["description"]
    assert fake_api.world.commands == {}


def test_callback_queries_expire_and_are_answered_once(fake_api: FakeBotApi) -> None:
    ann = fake_api.add_user("Ann")
    fake_api.open_bot(ann)
    fake_api.world.callback_ttl = 0.5  # a world setting: Telegram's window is some seconds, short in tests
    msg = call(fake_api, "sendMessage", chat_id=ann.id, text="choose", reply_markup=keyboard([["a"]]))["result"]
    late = fake_api.tap(ann, ann.id, msg["message_id"], "a")
    fake_api.advance_clock(1)
    answer = call(fake_api, "answerCallbackQuery", callback_query_id=late, text="too late")
    assert (answer["error_code"], answer["description"]) == (400, TOO_OLD)
    with pytest.raises(LookupError):
        fake_api.answer(late)
    fresh = fake_api.tap(ann, ann.id, msg["message_id"], "a")
    assert call(fake_api, "answerCallbackQuery", callback_query_id=fresh, text="ok")["ok"]
    twice = call(fake_api, "answerCallbackQuery", callback_query_id=fresh)
    assert twice["description"] == TOO_OLD and fake_api.answer(fresh) == "ok"
    unknown = call(fake_api, "answerCallbackQuery", callback_query_id="cq999")
    assert unknown["description"] == TOO_OLD


def test_a_tap_on_an_inline_message_has_no_message(fake_api: FakeBotApi) -> None:
    ann = fake_api.add_user("Ann")
    query = fake_api.tap_inline(ann, "G1:5:pass")
    update = call(fake_api, "getUpdates")["result"][-1]["callback_query"]
    assert "message" not in update and update["inline_message_id"] and update["data"] == "G1:5:pass"
    assert update["from"]["id"] == ann.id
    assert call(fake_api, "answerCallbackQuery", callback_query_id=query)["ok"]
    edit = call(fake_api, "editMessageText", inline_message_id=update["inline_message_id"], text="x")
    assert edit["description"] == "Bad Request: MESSAGE_ID_INVALID"  # this bot sent no inline message


def test_photo_with_caption_and_keyboard_then_replaced_in_place(fake_api: FakeBotApi) -> None:
    ann = fake_api.add_user("Ann")
    group = fake_api.add_group("Hall", [ann])
    buttons = InlineKeyboardMarkup([[InlineKeyboardButton("Status", callback_data="S")]])

    async def run() -> tuple[Any, Any]:
        async with telegram.Bot(fake_api.token, base_url=fake_api.base_url) as bot:
            sent = await bot.send_photo(
                group.id, PNG_1, caption="<b>Board</b> 1", parse_mode="HTML", reply_markup=buttons
            )
            edited = await bot.edit_message_media(
                InputMediaPhoto(PNG_2, caption="Board 2"), chat_id=group.id, message_id=sent.message_id
            )
            return sent, edited

    sent, edited = asyncio.run(run())
    assert sent.caption == "<b>Board</b> 1" and sent.reply_markup == buttons and sent.photo
    msg = group.messages[sent.message_id]
    assert (msg.photo, msg.caption, msg.edits, msg.reply_markup) == (PNG_2, "Board 2", 1, None)
    assert edited.photo[0].file_id != sent.photo[0].file_id
    assert [r.text for r in fake_api.records(group.id)] == ["Board 1", "Board 2"]  # what a reader sees
    again = call(
        fake_api,
        "editMessageMedia",
        chat_id=group.id,
        message_id=sent.message_id,
        media={"type": "photo", "media": sent.photo[0].file_id, "caption": "Board 1 again"},
    )
    assert again["ok"] and msg.photo == PNG_1  # a file_id the bot got back is reused
    assert fake_api.rejected == []


def test_a_text_message_becomes_a_photo(fake_api: FakeBotApi) -> None:
    ann = fake_api.add_user("Ann")
    group = fake_api.add_group("Hall", [ann])
    text = call(fake_api, "sendMessage", chat_id=group.id, text="board in text")["result"]
    media = {"type": "photo", "media": "attach://board", "caption": "board as a picture"}
    answer = form_call(
        fake_api,
        "editMessageMedia",
        files={"board": PNG_1},
        chat_id=group.id,
        message_id=text["message_id"],
        media=media,
    )
    assert answer["ok"] and answer["result"]["caption"] == "board as a picture" and "text" not in answer["result"]
    assert group.messages[text["message_id"]].photo == PNG_1


@pytest.mark.parametrize(
    "media, files, needle",
    [
        ({"type": "photo", "media": "attach://missing"}, {}, "refers to a missing file part"),
        ({"type": "photo", "media": "AgACunknown"}, {}, "wrong file identifier/HTTP URL specified"),
        ({"type": "photo", "media": "https://example.org/b.png"}, {}, "wrong file identifier/HTTP URL specified"),
        ({"type": "photo", "media": "attach://p", "caption": "c" * 1025}, {"p": PNG_2}, "0-1024 characters"),
        ({"type": "video", "media": "attach://p"}, {"p": PNG_2}, "Not Implemented"),
    ],
)
def test_bad_media_edits_are_refused(
    fake_api: FakeBotApi, media: dict[str, Any], files: dict[str, bytes], needle: str
) -> None:
    ann = fake_api.add_user("Ann")
    group = fake_api.add_group("Hall", [ann])
    photo = form_call(fake_api, "sendPhoto", files={"photo": PNG_1}, chat_id=group.id, caption="board")["result"]
    answer = form_call(
        fake_api, "editMessageMedia", files=files, chat_id=group.id, message_id=photo["message_id"], media=media
    )
    assert not answer["ok"] and needle in answer["description"], answer
    assert group.messages[photo["message_id"]].photo == PNG_1


def test_send_photo_refuses_unknown_files_and_long_captions(fake_api: FakeBotApi) -> None:
    ann = fake_api.add_user("Ann")
    group = fake_api.add_group("Hall", [ann])
    unknown = call(fake_api, "sendPhoto", chat_id=group.id, photo="AgACnothing")
    assert unknown["description"] == "Bad Request: wrong file identifier/HTTP URL specified"
    long = form_call(fake_api, "sendPhoto", files={"photo": PNG_1}, chat_id=group.id, caption="c" * 1025)
    assert long["error_code"] == 400 and fake_api.records(group.id) == []
