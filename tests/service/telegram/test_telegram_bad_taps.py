"""Hostile and unlucky taps through the real gateway and the embedded backbone, counted at the fake Telegram: an
admin of one group reaching into another's game, a member's flood of forged taps, a stranger with a lobby's link,
a tap whose answer Telegram no longer takes, a tap on an inline message."""

from __future__ import annotations

import logging
from typing import Any

from fake_bot_api import FakeBotApi, User
from telegram_gateway_runner import GatewayThread

from service.callback import LobbyTap, unpack
from service.play import lobby
from service.render import i18n
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow


def open_lobby(api: FakeBotApi, group: Any, creator: User, kind: str = "cards") -> tuple[int, int, str]:
    """`/newgame` in the group: (lobby id, its message, its join link)."""
    api.say(creator, group.id, f"/newgame {kind}")
    message = api.wait(
        lambda: next((m for m in api.messages(group.id) if "start=join" in str(m.reply_markup)), None), 20, "the lobby"
    )
    link = next(b["url"] for b in api.buttons(group.id, message.message_id) if "url" in b)
    with session_scope() as s:
        lobby_id = s.query(GameRow).filter_by(status="lobby").order_by(GameRow.id.desc()).first().id
    return lobby_id, message.message_id, link


def lobby_button(api: FakeBotApi, group: Any, message_id: int, verb: str) -> str:
    return next(
        b["callback_data"]
        for b in api.buttons(group.id, message_id)
        if isinstance(t := unpack(b.get("callback_data", "")), LobbyTap) and t.verb == verb
    )


def status(game_id: int) -> tuple[str, int]:
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        return game.status, len(game_rows.seats_of(s, game_id))


def test_an_admin_of_another_group_can_neither_start_nor_abort_its_game(telegram_local: FakeBotApi) -> None:
    """Mallory owns group H and sits in G; she taps, on the bot's message in H, the data of G's Start and Abort
    buttons. The gateway finds her an admin (of H), and G's game must not move."""
    api = telegram_local
    ann, bob, mallory = api.add_user("Ann"), api.add_user("Bob"), api.add_user("Mallory")
    g = api.add_group("G", [ann, bob, mallory])
    h = api.add_group("H", [mallory])
    with GatewayThread(api.token, api.base_url):
        lobby_id, message_id, link = open_lobby(api, g, ann)
        api.open_link(bob, link)
        api.wait(lambda: status(lobby_id) == ("lobby", 2), 20, "Bob seated")
        start, abort = (lobby_button(api, g, message_id, verb) for verb in ("start", "abort"))
        api.say(mallory, h.id, "/rules")
        rules = api.wait(lambda: api.messages(h.id), 20, "a bot message in H")[-1].message_id
        in_g, in_h = len(api.records(g.id)), len(api.records(h.id))
        refused = api.tap(mallory, h.id, rules, start, forge=True)
        assert api.answer(refused) == i18n.t("en", "notice.malformed")
        assert status(lobby_id) == ("lobby", 2)  # not started at 2 of 4
        assert len(api.records(g.id)) == in_g

        api.tap(ann, g.id, message_id, start)
        api.wait(lambda: status(lobby_id)[0] == "active", 20, "the game started by its creator")
        refused = api.tap(mallory, h.id, rules, abort, forge=True)
        assert api.answer(refused) == i18n.t("en", "notice.malformed")
        assert status(lobby_id)[0] == "active"
        assert len(api.records(h.id)) == in_h


def test_thirty_forged_taps_by_one_member_post_nothing_in_the_group(telegram_local: FakeBotApi) -> None:
    """Hand-made lobby data, and the real Start and option buttons tapped by someone who is not the creator: each is
    answered in a toast only the tapper sees; the group gets nothing, and the lobby is as it was."""
    api = telegram_local
    ann, bob = api.add_user("Ann"), api.add_user("Bob")
    group = api.add_group("Table", [ann, bob])
    with GatewayThread(api.token, api.base_url):
        lobby_id, message_id, link = open_lobby(api, group, ann)
        api.open_link(bob, link)
        api.wait(lambda: status(lobby_id) == ("lobby", 2), 20, "Bob seated")
        api.wait(lambda: "Bob" in (api.messages(group.id)[0].text or ""), 20, "Bob in the lobby message")
        real = [lobby_button(api, group, message_id, verb) for verb in ("start", "players", "bots")]
        forged = [f"L{lobby_id}:start", f"L{lobby_id}:players:7", f"L{lobby_id}:abort"]
        before = len(api.records(group.id))
        taps = [api.tap(bob, group.id, message_id, data, forge=True) for data in (real + forged) * 5]
        answers = [api.answer(q) for q in taps]
        assert len(taps) == 30 and all(answers), answers  # every tap answered, with a reason
        assert set(answers) <= {
            i18n.t("en", "lobby.reply.not_creator"),
            i18n.t("en", "notice.malformed"),
            i18n.t("en", "notice.too_fast"),
        }
        assert api.records(group.id)[before:] == []
        assert status(lobby_id) == ("lobby", 2)
        api.tap(ann, group.id, message_id, real[0])  # the creator is not slowed down by Bob's flood
        api.wait(lambda: status(lobby_id)[0] == "active", 20, "the game started by its creator")


def test_a_lobby_link_seats_a_member_and_refuses_a_stranger(telegram_local: FakeBotApi) -> None:
    api = telegram_local
    ann, bob, stranger = api.add_user("Ann"), api.add_user("Bob"), api.add_user("Mallory")
    group = api.add_group("Table", [ann, bob])
    with GatewayThread(api.token, api.base_url):
        lobby_id, _, link = open_lobby(api, group, ann)
        api.open_link(stranger, link)
        api.wait(lambda: api.messages(stranger.id), 20, "the stranger's answer")
        api.open_link(bob, link)
        api.wait(lambda: status(lobby_id) == ("lobby", 2), 20, "Bob seated")
    assert [m.text for m in api.messages(stranger.id)] == [i18n.t("en", "notice.not_member")]
    with session_scope() as s:
        names = {user.name for user in game_rows.seat_users(s, lobby_id).values()}
    assert names == {"Ann", "Bob"}


def test_a_move_is_played_although_telegram_no_longer_takes_its_answer(telegram_local: FakeBotApi) -> None:
    """After an outage the gateway reads taps too old to answer: the answer fails, the move stands."""
    api = telegram_local
    ann = api.add_user("Ann")
    group = api.add_group("Table", [ann])
    with GatewayThread(api.token, api.base_url):
        api.open_bot(ann)  # the bot may write to Ann
        api.wait(lambda: api.messages(ann.id), 20, "the help")
        game_id = lobby.create_and_start("telegram", str(group.id), "cards", {}, [str(ann.id)], 2, seed=3)
        panel = api.wait(lambda: next((m for m in api.messages(ann.id) if m.reply_markup), None), 20, "Ann's panel")
        data = api.buttons(ann.id, panel.message_id)[0]["callback_data"]
        api.world.callback_ttl = 0.0  # every answer comes too late
        query = api.tap(ann, ann.id, panel.message_id, data)
        with session_scope() as s:
            seat = next(seat for seat, user in game_rows.seat_users(s, game_id).items() if user.name == "Ann")

        def played() -> bool:
            with session_scope() as s:
                return (seat, unpack(data).code) in game_rows.action_log(s, game_id)

        api.wait(played, 20, "Ann's move in the log")
        api.wait(lambda: api.world.callbacks[query].get("refused"), 20, "the refused answer")


def test_a_tap_on_an_inline_message_is_answered_quietly(telegram_local: FakeBotApi, caplog: Any) -> None:
    api = telegram_local
    ann = api.add_user("Ann")
    with caplog.at_level(logging.WARNING), GatewayThread(api.token, api.base_url):
        query = api.tap_inline(ann, "anything")
        assert api.answer(query) == ""
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
