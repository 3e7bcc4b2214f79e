"""A player who typed /join in the group (so never opened the bot's direct chat) is told how to fix it, through
the backbone's outbox and the Telegram adapter, with a button that opens the direct chat."""

from __future__ import annotations

from fake_bot_api import FakeBotApi
from telegram_gateway_runner import GatewayThread


def test_typed_join_gets_a_deep_link_and_a_tapped_join_does_not(telegram_local: FakeBotApi) -> None:
    api = telegram_local
    ann, bob, carol = api.add_user("Ann"), api.add_user("Bob"), api.add_user("Carol")
    group = api.add_group("Table", [ann, bob, carol])
    with GatewayThread(api.token, api.base_url):
        api.say(ann, group.id, "/newgame board 3")
        lobby = api.wait(
            lambda: next((m for m in api.messages(group.id) if "start=join" in str(m.reply_markup)), None),
            20,
            "the lobby",
        )
        api.say(bob, group.id, "/join")
        notice = api.wait(
            lambda: next(
                (m for m in api.messages(group.id) if "Bob" in (m.text or "") and "direct chat" in (m.text or "")), None
            ),
            20,
            "the notice to Bob",
        )
        (button,) = [b for row in notice.reply_markup["inline_keyboard"] for b in row]
        api.open_link(bob, button["url"])  # opens the direct chat; the bot may now write to Bob
        join = next(b["url"] for row in lobby.reply_markup["inline_keyboard"] for b in row if "url" in b)
        api.open_link(carol, join)
        api.wait(lambda: "Carol" in (api.messages(group.id)[0].text or ""), 20, "Carol in the lobby")
        api.wait(lambda: api.messages(bob.id), 20, "the help in Bob's direct chat")
    notices = [m for m in api.messages(group.id) if "direct chat" in (m.text or "")]
    assert [m.text for m in notices] == [notice.text]  # Carol joined by the deep link: no notice for her
    assert api.rejected == [] and api.throttled == []
