"""The gateway's inbound side: real PTB application, fake Telegram, and a recording backbone in place of dispatch."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
import threading
from typing import Any

import pytest
from fake_bot_api import FakeBotApi
from telegram_gateway_runner import GatewayThread

from service.callback import link_token, pack
from service.chat.base import Button, Inbound
from service.play import dispatch
from service.render import i18n
from service.sessions import MemorySessions, get_sessions
from service.settings import get_settings
from service.telegram.adapter import TelegramAdapter, user_key
from service.telegram.handlers import Backbone
from service.telegram.inbound import join_link


class RecordingBackbone:
    """Collects what the gateway submits; prechecks with the backbone's own (cache-only) precheck."""

    def __init__(self) -> None:
        self.submitted: list[Inbound] = []
        self.refused: list[tuple[Inbound, str]] = []
        self.lobbies: dict[int, str] = {}  # lobby id → its group, as the backbone would know them
        self.joined_in_group: list[tuple[str, str]] = []
        self.migrated: list[tuple[str, str]] = []
        self.lock = threading.Lock()

    def backbone(self) -> Backbone:
        async def submit(command: Inbound) -> None:
            with self.lock:
                self.submitted.append(command)

        async def precheck(command: Inbound) -> str | None:
            return None if command.kind == "command" else dispatch.precheck(command)  # no lobbies in a database

        async def refuse(command: Inbound, reason: str) -> None:
            with self.lock:
                self.refused.append((command, reason))

        async def lobby_group(lobby_id: int) -> str | None:
            return self.lobbies.get(lobby_id)

        async def joined_in_group(command: Inbound, bot_username: str) -> None:
            with self.lock:
                self.joined_in_group.append((command.user, bot_username))

        async def chat_migrated(old: str, new: str) -> None:
            with self.lock:
                self.migrated.append((old, new))

        return Backbone(submit, precheck, refuse, lobby_group, joined_in_group, chat_migrated)


@pytest.fixture
def world(fake_api: FakeBotApi) -> Any:
    rec = RecordingBackbone()
    ann = fake_api.add_user("Ann", language_code="it")
    bob = fake_api.add_user("Bob")
    group = fake_api.add_group("Table", [ann, bob])
    with GatewayThread(fake_api.token, fake_api.base_url, rec.backbone()):
        yield fake_api, rec, group, ann, bob
    assert fake_api.rejected == [] and fake_api.throttled == []


def wait_submitted(api: FakeBotApi, rec: RecordingBackbone, n: int) -> list[Inbound]:
    api.wait(lambda: len(rec.submitted) >= n, 10, f"{n} submitted commands")
    return rec.submitted


def test_group_commands_become_inbound_commands(world: Any) -> None:
    api, rec, group, ann, _ = world
    api.say(ann, group.id, "/newgame@camelot_test_bot cards 4")
    api.say(ann, group.id, "/status")
    api.say(ann, group.id, "/frobnicate")
    submitted = {c.command: c for c in wait_submitted(api, rec, 2)}  # two updates: handled concurrently, any order
    newgame, status = submitted["newgame"], submitted["status"]
    assert (newgame.kind, newgame.command, newgame.args) == ("command", "newgame", ("cards", "4"))
    assert newgame.chat == str(group.id) and newgame.user == str(ann.id) and newgame.is_group
    assert newgame.language == "it" and newgame.user_name == "Ann"
    assert status.command == "status" and status.update_id != newgame.update_id


def test_deep_link_opens_the_direct_chat_and_joins(world: Any) -> None:
    api, rec, group, ann, _ = world
    rec.lobbies[12] = str(group.id)
    api.open_link(ann, join_link("camelot_test_bot", 12))
    (join,) = wait_submitted(api, rec, 1)
    assert (join.kind, join.command, join.game_id, join.chat, join.is_group) == (
        "command", "join", 12, str(ann.id), False
    )
    assert get_sessions().ui.get("user", user_key(str(ann.id))) == {"dm": True}


def test_a_bare_start_in_the_direct_chat_is_welcomed(world: Any) -> None:
    api, rec, _, ann, _ = world
    api.open_bot(ann)
    (welcome,) = wait_submitted(api, rec, 1)
    assert (welcome.kind, welcome.command, welcome.chat, welcome.is_group) == ("command", "welcome", str(ann.id), False)


def test_a_deep_link_joins_only_a_member_of_the_lobbys_group(world: Any) -> None:
    """A stranger who got the link (forwarded, guessed) is refused privately; so is a link the service did not make
    (the sequential id alone, or another lobby's MAC) and one of a lobby that is gone."""
    api, rec, group, ann, _ = world
    rec.lobbies[12] = str(group.id)
    stranger = api.add_user("Mallory")
    api.open_link(stranger, join_link("camelot_test_bot", 12))
    api.open_bot(stranger, "join12")
    api.open_bot(stranger, "join13_" + link_token(12).split("_")[1])
    api.open_link(ann, join_link("camelot_test_bot", 14))  # no such lobby (any more)
    api.wait(lambda: len(rec.refused) == 4, 10, "four refusals")
    assert sorted((c.user, c.chat, reason) for c, reason in rec.refused) == sorted(  # updates run concurrently
        [
            (str(stranger.id), str(stranger.id), "not_member"),
            (str(stranger.id), str(stranger.id), "malformed"),
            (str(stranger.id), str(stranger.id), "malformed"),
            (str(ann.id), str(ann.id), "no_lobby"),
        ]
    )
    api.join(stranger, group.id)  # now a member: the same link works
    api.open_link(stranger, join_link("camelot_test_bot", 12))
    (join,) = wait_submitted(api, rec, 1)
    assert (join.user, join.command, join.game_id) == (str(stranger.id), "join", 12)


def test_taps_are_answered_at_once_and_handed_on(world: Any) -> None:
    api, rec, group, ann, bob = world
    api.open_bot(ann)
    api.wait(lambda: rec.submitted, 10)
    get_sessions().games.put_meta(5, {"status": "active", "seq": 9, "seats": {str(ann.id): 0}, "prompts": {"0": 9}})
    adapter = TelegramAdapter(api.token, api.base_url, sessions=MemorySessions())
    panel = [[Button("Fight", pack(5, 9, "fight:1")), Button("Old", pack(5, 8, "pass"))]]
    mid = int(asyncio.run(adapter.send_text(str(ann.id), "Your turn", panel)))
    board = int(asyncio.run(adapter.send_text(str(group.id), "Board", [[Button("Fight", pack(5, 9, "fight:1"))]])))
    good = api.tap(ann, ann.id, mid, pack(5, 9, "fight:1"))
    stale = api.tap(ann, ann.id, mid, pack(5, 8, "pass"))
    forged = api.tap(ann, ann.id, mid, "5:9:\u00fcber", forge=True)
    unsigned = api.tap(ann, ann.id, mid, "5:9:fight:1", forge=True)  # the right game, seq and code, but hand-made
    foreign = api.tap(bob, group.id, board, pack(5, 9, "fight:1"))
    assert api.answer(good) == ""
    assert api.answer(stale) == i18n.t("it", "notice.expired") != i18n.t("en", "notice.expired")  # Ann's language
    assert api.answer(forged) == api.answer(unsigned) == i18n.t("it", "notice.malformed")
    assert api.answer(foreign) == "You are not seated in this game."
    wait_submitted(api, rec, 2)
    threading.Event().wait(0.3)
    (tap,) = rec.submitted[1:]
    assert (tap.kind, tap.text, tap.chat, tap.user, tap.is_group) == (
        "tap",
        pack(5, 9, "fight:1"),
        str(ann.id),
        str(ann.id),
        False,
    )


def test_abort_by_a_group_admin_carries_the_admin_flag(fake_api: FakeBotApi) -> None:
    rec = RecordingBackbone()
    ann, guin = fake_api.add_user("Ann"), fake_api.add_user("Guinevere")
    group = fake_api.add_group("Table", [ann], admins=[guin])
    with GatewayThread(fake_api.token, fake_api.base_url, rec.backbone()):
        fake_api.say(ann, group.id, "/abort --admin")  # the flag typed by someone who is no admin is dropped
        fake_api.say(guin, group.id, "/abort")
        plain, admin = wait_submitted(fake_api, rec, 2)
    assert {plain.user: plain.args, admin.user: admin.args} == {str(ann.id): (), str(guin.id): (dispatch.ADMIN_FLAG,)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_webhook_mode_checks_the_secret_token(fake_api: FakeBotApi) -> None:
    rec = RecordingBackbone()
    ann = fake_api.add_user("Ann")
    group = fake_api.add_group("Table", [ann])
    port = free_port()
    hook = {
        "listen": "127.0.0.1",
        "port": port,
        "url_path": "tg",
        "secret_token": "right-secret",
        "webhook_url": f"http://127.0.0.1:{port}/tg",
    }
    with GatewayThread(fake_api.token, fake_api.base_url, rec.backbone(), webhook=hook):
        fake_api.say(ann, group.id, "/status")
        wait_submitted(fake_api, rec, 1)
        assert fake_api.world.webhook and fake_api.world.webhook["secret_token"] == "right-secret"
        fake_api.world.webhook["secret_token"] = "forged"  # someone else posting to our endpoint
        fake_api.say(ann, group.id, "/rules")
        fake_api.wait(lambda: fake_api.webhook_deliveries == 1 and len(fake_api.world.updates) == 2, 5)
        threading.Event().wait(0.5)
        assert len(rec.submitted) == 1
        fake_api.world.webhook["secret_token"] = "right-secret"
        assert [c.command for c in wait_submitted(fake_api, rec, 2)] == ["status", "rules"]


def test_typed_join_in_the_group_is_followed_up(world: Any) -> None:
    api, rec, group, ann, _ = world
    api.say(ann, group.id, "/join")
    (join,) = wait_submitted(api, rec, 1)
    api.wait(lambda: rec.joined_in_group, 10)
    assert join.command == "join" and rec.joined_in_group == [(str(ann.id), "camelot_test_bot")]


def test_one_persons_flood_is_dropped_before_it_is_queued(world: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond the flood limits a person's taps are answered "too fast" and their commands ignored; nothing of it
    reaches the backbone, and nobody else is slowed down."""
    api, rec, group, ann, bob = world
    monkeypatch.setenv("TAP_RATE_LIMIT", "15 per minute")  # windows long enough for a slow machine
    monkeypatch.setenv("COMMAND_RATE_LIMIT", "10 per minute")
    get_settings.cache_clear()
    api.open_bot(ann)
    api.wait(lambda: rec.submitted, 10)
    get_sessions().games.put_meta(5, {"status": "active", "seq": 9, "seats": {str(ann.id): 0}, "prompts": {"0": 9}})
    adapter = TelegramAdapter(api.token, api.base_url, sessions=MemorySessions())
    mid = int(asyncio.run(adapter.send_text(str(ann.id), "Your turn", [[Button("Fight", pack(5, 9, "fight:1"))]])))
    answers = [api.answer(api.tap(ann, ann.id, mid, pack(5, 9, "fight:1"))) for _ in range(30)]
    assert answers == [""] * 15 + [i18n.t("it", "notice.too_fast")] * 15
    for _ in range(12):
        api.say(bob, group.id, "/status")
    api.say(ann, group.id, "/status")  # Ann's taps do not count against her commands
    api.wait(lambda: len(rec.submitted) == 1 + 15 + 10 + 1, 10, "what was let through")
    threading.Event().wait(0.5)
    submitted = rec.submitted[1:]
    assert [c.kind for c in submitted].count("tap") == 15
    assert sorted(c.user for c in submitted if c.kind == "command") == sorted([str(bob.id)] * 10 + [str(ann.id)])


def test_one_chats_updates_are_handled_in_order_while_other_chats_go_on(fake_api: FakeBotApi) -> None:
    """A quick /start then /follow in a direct chat reach the backbone in that order even when the first one's
    hand-off is slow; another person's command meanwhile does not wait for it (`service.telegram.ordering`)."""
    rec = RecordingBackbone()
    backbone = rec.backbone()

    async def slow_first(command: Inbound) -> None:
        if command.command == "welcome":
            await asyncio.sleep(0.6)  # longer than the next update takes to arrive
        await backbone.submit(command)

    ann = fake_api.add_user("Ann")
    bob = fake_api.add_user("Bob")
    with GatewayThread(fake_api.token, fake_api.base_url, dataclasses.replace(backbone, submit=slow_first)):
        fake_api.open_bot(ann)
        fake_api.say(ann, ann.id, "/follow 3")
        fake_api.say(bob, bob.id, "/status")
        submitted = wait_submitted(fake_api, rec, 3)
    assert [(c.user, c.command) for c in submitted] == [
        (str(bob.id), "status"),  # another chat: not held behind Ann's slow /start
        (str(ann.id), "welcome"),
        (str(ann.id), "follow"),  # after her /start, as she sent them
    ]
