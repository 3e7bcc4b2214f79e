"""Morgan's silence at one table of a forum supergroup mutes that table only (issue 25 item 1): its seated people are
restricted, the other table's people talk on, and a seated person the bot cannot restrict (the group's owner) has a
message in the table's topic deleted with a notice. Through the real gateway and worker against the fake Bot API."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fake_bot_api import FORUM_BOT_RIGHTS, CannotSend, FakeBotApi
from telegram_players import Table
from telegram_stack import Stack
from telegram_transcript import transcripts as phones
from test_telegram_games import CARDS_SEED, game_row
from test_telegram_topics_tables import lobby_button, lobby_in, open_two_tables

from service.render.i18n import t
from service.store import session_scope
from service.store.models import GameRow

pytestmark = pytest.mark.e2e


def silenced(game_id: int) -> bool:
    with session_scope() as s:
        return bool(s.get(GameRow, game_id).silence)


def test_silence_at_one_table_does_not_mute_the_other(fake_api: FakeBotApi, stack: Stack, transcripts: Any) -> None:
    api = fake_api
    ann, ben, cid, dee, eve, fay = (api.add_user(n) for n in ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay"))
    group = api.add_group("Camelot Club", [ann, ben, cid, dee, eve, fay], bot_rights=FORUM_BOT_RIGHTS, forum=True)
    try:
        _silence(api, group, [[ann, ben, cid, dee], [eve, fay]])
    finally:
        transcripts(phones(api, [ann, ben, eve]))


def _silence(api: FakeBotApi, group: Any, seated: list[list[Any]]) -> None:
    opened = open_two_tables(api, group, seated)
    with session_scope() as s:  # table A is the four-seat one
        players = {gid: s.get(GameRow, gid).options["players"] for _, gid, _ in opened}
    (thread_a, game_a, lobby_a), (thread_b, game_b, lobby_b) = sorted(opened, key=lambda o: -players[o[1]])
    for thread, users in zip((thread_a, thread_b), seated, strict=True):
        link = next(b["url"] for b in api.buttons(group.id, lobby_in(api, group, thread).message_id) if "url" in b)
        for user in users:
            api.open_link(user, link)
        names = [p.first_name for p in users]
        api.wait(lambda th=thread, n=names: all(x in (lobby_in(api, group, th).text or "") for x in n), 30, "names")
    with session_scope() as s:
        s.get(GameRow, game_a).seed = CARDS_SEED  # a deal in which Morgan's silence comes early
    api.tap(seated[0][0], group.id, lobby_a, lobby_button(api, group, lobby_a, "start"))
    api.tap(seated[1][0], group.id, lobby_b, lobby_button(api, group, lobby_b, "start"))
    api.wait(lambda: game_row(game_a)[0] == game_row(game_b)[0] == "active", 30, "both games to start")

    table_a = Table(api, seated[0], 5)
    deadline = time.monotonic() + 240
    while not silenced(game_a):
        assert time.monotonic() < deadline and game_row(game_a)[0] == "active", table_a.describe()
        if not table_a.step():
            time.sleep(0.05)
    ann, ben, cid, dee = seated[0]
    eve, fay = seated[1]
    # the silence is on at table A: its people who can be restricted are, in the group (Telegram has no narrower)
    api.wait(lambda: {ben.id, cid.id, dee.id} <= set(group.restrictions), 30, "table A's people restricted")
    assert ann.id not in group.restrictions and eve.id not in group.restrictions and fay.id not in group.restrictions
    assert group.permissions["can_send_messages"]  # the group itself is not muted
    with pytest.raises(CannotSend):
        api.say(ben, group.id, "psst, Cid is the traitor", thread_id=thread_a)
    spoken = api.say(eve, group.id, "our table talks on", thread_id=thread_b)  # table B keeps its voice
    api.say(fay, group.id, "so it does", thread_id=thread_b)
    # the owner cannot be restricted: what she still posts at the silenced table is deleted, with a notice
    breach = api.say(ann, group.id, "I know who it is!", thread_id=thread_a)
    api.wait(lambda: breach["message_id"] not in group.messages, 30, "the owner's message deleted")
    notice = t("en", "notice.silence_breach", name="Ann")
    api.wait(lambda: any(m.text == notice for m in api.messages(group.id, thread_a)), 30, "the notice at table A")
    assert spoken["message_id"] in group.messages  # table B's talk stays
    assert not any(m.text == notice for m in api.messages(group.id, thread_b))

    while silenced(game_a) and game_row(game_a)[0] == "active":  # play on until a quest or the end lifts it
        assert time.monotonic() < deadline + 240, table_a.describe()
        if not table_a.step():
            time.sleep(0.05)
    api.wait(lambda: not {ben.id, cid.id, dee.id} & set(group.restrictions), 30, "table A's people restored")
    api.say(ben, group.id, "we may talk again", thread_id=thread_a)
