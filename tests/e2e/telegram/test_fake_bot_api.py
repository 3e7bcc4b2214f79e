"""The fake Bot API server itself: it must refuse what Telegram refuses, or the gateway's tests prove nothing."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
import telegram
from aiohttp import web
from fake_bot_api import CannotSend, FakeBotApi, RateLimits
from fake_bot_api.calls import call, form_call, keyboard
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram_transcript import transcript


@pytest.fixture
def group(fake_api: FakeBotApi) -> Any:
    ann, bob = fake_api.add_user("Ann"), fake_api.add_user("Bob")
    return fake_api.add_group("Round Table", [ann, bob]), ann, bob


def test_ptb_bot_talks_to_it_and_bad_token_is_unauthorized(fake_api: FakeBotApi, group: Any) -> None:
    chat, ann, _ = group

    async def run() -> None:
        async with telegram.Bot(fake_api.token, base_url=fake_api.base_url) as bot:
            assert bot.username == "camelot_test_bot"
            msg = await bot.send_message(
                chat.id,
                "hello",
                reply_markup=InlineKeyboardMarkup(
                    [[InlineKeyboardButton("Join", url="https://t.me/camelot_test_bot?start=g1")]]
                ),
            )
            assert msg.text == "hello" and msg.chat.id == chat.id
            photo = await bot.send_photo(ann.id, b"\x89PNG fake", caption="board") if ann.started else None
            assert photo is None
        with pytest.raises(telegram.error.InvalidToken):
            async with telegram.Bot("999:wrong", base_url=fake_api.base_url):
                pass

    asyncio.run(run())
    assert fake_api.rejected == []


@pytest.mark.parametrize(
    "params, needle",
    [
        ({"text": "x", "colour": "red"}, "unknown parameter"),
        ({}, "parameter text is required"),
        ({"text": "x" * 4097}, "1-4096 characters"),
        ({"text": ""}, "1-4096 characters"),
        ({"text": "x", "disable_notification": "yes"}, "Boolean"),
        ({"text": "x", "reply_markup": keyboard([["d" * 65]])}, "1-64 bytes"),
        ({"text": "x", "reply_markup": keyboard([[str(i) for i in range(9)]])}, "8 buttons in a row"),
        ({"text": "x", "reply_markup": keyboard([[f"{r}.{i}" for i in range(8)] for r in range(13)])}, "100 buttons"),
        (
            {
                "text": "x",
                "reply_markup": {"inline_keyboard": [[{"text": "a", "callback_data": "a", "url": "https://x"}]]},
            },
            "exactly one",
        ),
        (
            {"text": "x", "reply_markup": {"inline_keyboard": [[{"text": "a", "callback_data": "a", "bogus": 1}]]}},
            "unknown field",
        ),
        ({"text": "<b>x", "parse_mode": "HTML"}, "can't parse entities"),
    ],
)
def test_invalid_requests_are_refused_and_recorded(
    fake_api: FakeBotApi, group: Any, params: dict[str, Any], needle: str
) -> None:
    chat, _, _ = group
    answer = call(fake_api, "sendMessage", chat_id=chat.id, **params)
    assert answer["ok"] is False and answer["error_code"] == 400
    assert needle in answer["description"]
    assert len(fake_api.rejected) == 1 and fake_api.records(chat.id) == []


def test_form_bodies_are_decoded_like_the_real_server(fake_api: FakeBotApi, group: Any) -> None:
    chat, _, _ = group
    ok = form_call(
        fake_api,
        "sendMessage",
        chat_id=str(chat.id),
        text="x",
        reply_markup=keyboard([["a", "b"]]),
        disable_notification="true",
    )
    assert ok["ok"] and ok["result"]["reply_markup"] == keyboard([["a", "b"]])
    bad = form_call(fake_api, "deleteMessage", chat_id=str(chat.id), message_id="one")
    assert bad["error_code"] == 400 and "Integer" in bad["description"]


def test_unknown_and_unmodelled_methods(fake_api: FakeBotApi) -> None:
    assert call(fake_api, "sendTelepathy")["error_code"] == 404
    answer = call(fake_api, "sendDice", chat_id=1)
    assert answer["error_code"] == 501 and fake_api.rejected


def test_one_message_per_second_per_chat_and_edits_count(group: Any, fake_api: FakeBotApi) -> None:
    chat, _, _ = group
    first = call(fake_api, "sendMessage", chat_id=chat.id, text="one")
    second = call(fake_api, "sendMessage", chat_id=chat.id, text="two")
    assert first["ok"] and second["error_code"] == 429 and second["parameters"]["retry_after"] >= 1
    edit = call(fake_api, "editMessageText", chat_id=chat.id, message_id=first["result"]["message_id"], text="1")
    assert edit["error_code"] == 429
    assert [t[0] for t in fake_api.throttled] == ["sendMessage", "editMessageText"]


def test_twenty_per_minute_per_group_and_thirty_per_second_overall() -> None:
    limits = RateLimits(per_chat=(100, 1.0), per_group=(20, 60.0), overall=(30, 1.0))
    assert all(limits.take(-1, True, 100.0 + i * 0.01) is None for i in range(20))
    assert limits.take(-1, True, 101.0) is not None
    assert limits.take(-1, True, 100.0 + 60.0) is None
    overall = RateLimits(per_chat=(1, 1.0))
    assert all(overall.take(i, False, 5.0) is None for i in range(30))
    assert overall.take(99, False, 5.5) == 1
    assert overall.take(99, False, 6.0) is None


def test_a_bot_cannot_write_first(fake_api: FakeBotApi) -> None:
    ann = fake_api.add_user("Ann")
    refused = call(fake_api, "sendMessage", chat_id=ann.id, text="your hand")
    assert refused["error_code"] == 403 and "initiate conversation" in refused["description"]
    fake_api.open_link(ann, "https://t.me/camelot_test_bot?start=g7")
    assert call(fake_api, "sendMessage", chat_id=ann.id, text="your hand")["ok"]
    with pytest.raises(ValueError):
        fake_api.open_link(ann, "https://t.me/other_bot?start=g7")


def test_edit_not_modified_and_missing_message(fake_api: FakeBotApi, group: Any) -> None:
    chat, _, _ = group
    msg = call(fake_api, "sendMessage", chat_id=chat.id, text="board", reply_markup=keyboard([["a"]]))["result"]
    fake_api.advance_clock(2)
    same = call(
        fake_api,
        "editMessageText",
        chat_id=chat.id,
        message_id=msg["message_id"],
        text="board",
        reply_markup=keyboard([["a"]]),
    )
    assert same["error_code"] == 400 and "message is not modified" in same["description"]
    changed = call(fake_api, "editMessageText", chat_id=chat.id, message_id=msg["message_id"], text="board 2")
    assert changed["ok"] and "reply_markup" not in changed["result"]
    gone = call(fake_api, "editMessageText", chat_id=chat.id, message_id=999, text="x")
    assert "message to edit not found" in gone["description"]
    assert [r.action for r in fake_api.records(chat.id)] == ["send", "edit"]


def test_silence_restricts_members_but_not_admins(fake_api: FakeBotApi) -> None:
    ann, bob, admin = fake_api.add_user("Ann"), fake_api.add_user("Bob"), fake_api.add_user("Guinevere")
    chat = fake_api.add_group("Silent hall", [ann, bob], admins=[admin])
    assert call(fake_api, "setChatPermissions", chat_id=chat.id, permissions={"can_send_messages": False})["ok"]
    with pytest.raises(CannotSend):
        fake_api.say(bob, chat.id, "psst")
    fake_api.say(admin, chat.id, "/status")
    assert call(fake_api, "setChatPermissions", chat_id=chat.id, permissions={"can_send_messages": True})["ok"]
    fake_api.say(bob, chat.id, "free again")


def test_rights_of_the_bot_are_required(fake_api: FakeBotApi) -> None:
    ann = fake_api.add_user("Ann")
    chat = fake_api.add_group("No rights", [ann], bot_rights=None)
    msg = call(fake_api, "sendMessage", chat_id=chat.id, text="board")["result"]
    no_pin = call(fake_api, "pinChatMessage", chat_id=chat.id, message_id=msg["message_id"])
    no_mute = call(fake_api, "setChatPermissions", chat_id=chat.id, permissions={"can_send_messages": False})
    assert "not enough rights" in no_pin["description"] and "not enough rights" in no_mute["description"]
    fake_api.say(ann, chat.id, "still talking")
    member = call(fake_api, "getChatMember", chat_id=chat.id, user_id=int(fake_api.token.split(":")[0]))
    assert member["result"]["status"] == "member"


def test_pin_and_delete(fake_api: FakeBotApi, group: Any) -> None:
    chat, _, _ = group
    msg = call(fake_api, "sendMessage", chat_id=chat.id, text="board")["result"]
    assert call(fake_api, "pinChatMessage", chat_id=chat.id, message_id=msg["message_id"])["ok"]
    assert chat.pinned == msg["message_id"]
    fake_api.advance_clock(49 * 3600)
    late = call(fake_api, "deleteMessage", chat_id=chat.id, message_id=msg["message_id"])
    assert late["error_code"] == 400
    fake_api.advance_clock(-49 * 3600)
    assert call(fake_api, "deleteMessage", chat_id=chat.id, message_id=msg["message_id"])["ok"]
    assert fake_api.messages(chat.id) == [] and chat.pinned is None


def test_long_polling_privacy_mode_and_offsets(fake_api: FakeBotApi) -> None:
    ann = fake_api.add_user("Ann")
    chat = fake_api.add_group("Plain bot", [ann], bot_rights=None)  # privacy mode holds for a bot that is no admin
    got: list[Any] = []
    poller = threading.Thread(target=lambda: got.append(call(fake_api, "getUpdates", timeout=5)))
    poller.start()
    fake_api.say(ann, chat.id, "just chatting")  # privacy mode: not for the bot
    fake_api.say(ann, chat.id, "/newgame@camelot_test_bot")
    poller.join(10)
    updates = got[0]["result"]
    assert [u["message"]["text"] for u in updates] == ["/newgame@camelot_test_bot"]
    assert updates[0]["message"]["entities"][0]["type"] == "bot_command"
    fake_api.open_bot(ann, "g1")
    later = call(fake_api, "getUpdates", offset=updates[-1]["update_id"] + 1, timeout=0)["result"]
    assert [u["message"]["text"] for u in later] == ["/start g1"]
    assert later[0]["message"]["from"]["language_code"] == "en"


def test_an_admin_bot_sees_every_group_message(fake_api: FakeBotApi, group: Any) -> None:
    chat, ann, _ = group  # the bot is an admin here: privacy mode does not apply to admins
    fake_api.say(ann, chat.id, "just chatting")
    assert [u["message"]["text"] for u in call(fake_api, "getUpdates")["result"]] == ["just chatting"]


def test_taps_carry_button_data_and_are_answered(fake_api: FakeBotApi, group: Any) -> None:
    chat, ann, _ = group
    msg = call(fake_api, "sendMessage", chat_id=chat.id, text="lobby", reply_markup=keyboard([["L1:join"]]))["result"]
    with pytest.raises(LookupError):
        fake_api.tap(ann, chat.id, msg["message_id"], "L1:start")
    query = fake_api.tap(ann, chat.id, msg["message_id"], "L1:join")
    update = call(fake_api, "getUpdates")["result"][-1]["callback_query"]
    assert update["data"] == "L1:join" and update["from"]["id"] == ann.id
    assert call(fake_api, "answerCallbackQuery", callback_query_id=query, text="joined")["ok"]
    assert fake_api.answer(query) == "joined"
    assert call(fake_api, "answerCallbackQuery", callback_query_id=query)["error_code"] == 400
    forged = fake_api.tap(ann, chat.id, msg["message_id"], "garbage\x00", forge=True)
    assert forged in fake_api.world.callbacks


def test_webhook_delivery_with_secret_token(fake_api: FakeBotApi, group: Any) -> None:
    chat, ann, _ = group
    received: list[tuple[str | None, dict[str, Any]]] = []

    async def hook(request: web.Request) -> web.Response:
        received.append((request.headers.get("X-Telegram-Bot-Api-Secret-Token"), await request.json()))
        return web.Response()

    async def run() -> None:
        app = web.Application()
        app.router.add_post("/hook", hook)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        loop = asyncio.get_running_loop()
        set_hook = await loop.run_in_executor(
            None, lambda: call(fake_api, "setWebhook", url=f"http://127.0.0.1:{port}/hook", secret_token="s3cret")
        )
        assert set_hook["ok"]
        polled = await loop.run_in_executor(None, lambda: call(fake_api, "getUpdates"))
        assert polled["error_code"] == 409
        await loop.run_in_executor(None, lambda: fake_api.say(ann, chat.id, "/status"))
        for _ in range(200):
            if received:
                break
            await asyncio.sleep(0.02)
        await runner.cleanup()

    asyncio.run(run())
    assert received and received[0][0] == "s3cret" and received[0][1]["message"]["text"] == "/status"
    assert call(fake_api, "setWebhook", url="https://example.org/hook")["error_code"] == 400


def test_a_document_is_an_upload_with_its_name_and_caption(fake_api: FakeBotApi) -> None:
    ann = fake_api.add_user("Ann")
    fake_api.open_bot(ann)
    sent = form_call(fake_api, "sendDocument", files={"document": b"the whole story\n"}, chat_id=ann.id, caption="Log")
    assert sent["ok"] and sent["result"]["caption"] == "Log"
    assert sent["result"]["document"]["file_name"] == "document.png"
    assert fake_api.world.chats[ann.id].messages[sent["result"]["message_id"]].document == (
        "document.png", b"the whole story\n"
    )
    refused = call(fake_api, "sendDocument", chat_id=ann.id, document="https://example.org/log.txt")
    assert not refused["ok"] and refused["error_code"] == 400
    assert "[file: document.png] Log" in transcript(fake_api, ann)
