"""The sync loop against a real Synapse: commands and numbered answers become Inbound values, once each,
across a restart; stale numbers are answered "expired" in a direct room and ignored in a group; history from before
the bot is ignored."""

from __future__ import annotations

import asyncio

import pytest
from matrix_players import Player, login, scratch, settle
from nio import RoomPreset

from service.chat.base import Button, Inbound
from service.matrix.adapter import MatrixAdapter
from service.matrix.choices import ChoiceMaps
from service.matrix.client import connect
from service.matrix.gateway import Gateway
from service.matrix.login_store import LoginStore
from service.play.dispatch import ADMIN_FLAG
from service.sessions import MemorySessions

pytestmark = pytest.mark.e2e


class Recorder:
    def __init__(self) -> None:
        self.inbound: list[Inbound] = []
        self.answers: list[tuple[str, str, str]] = []

    def submit(self, cmd: Inbound) -> None:
        self.inbound.append(cmd)

    def answer(self, room: str, user: str, key: str) -> None:
        self.answers.append((room, user, key))


async def _gateway(
    hs, name: str, store: str, sessions: MemorySessions, rec: Recorder, handled=lambda ids: set(),
    direct_owner=lambda room: None,
) -> Gateway:
    client, stored = await connect(hs.url, hs.user_id(name), hs.users[hs.user_id(name)], store, encryption=True)
    choices = ChoiceMaps(sessions)
    adapter = MatrixAdapter(client, choices, explain=str, encrypt_direct=True)
    return Gateway(
        client, LoginStore(store), stored, adapter, choices, submit=rec.submit, answer=rec.answer, handled=handled,
        direct_owner=direct_owner,
    )


async def _until(gateway: Gateway, check, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, "gateway did not see the expected events"
        await gateway.step(timeout_ms=300)


def test_commands_numbers_reactions_and_restart(homeserver):
    async def scenario():
        bot_id, _ = homeserver.register("bot_gw")
        store, sessions, rec = scratch("bot-"), MemorySessions(), Recorder()
        alice: Player = await login(homeserver.url, *homeserver.register("alice_gw"))
        old = await alice.client.room_create(preset=RoomPreset.private_chat)
        await alice.say(old.room_id, "!newgame before the bot existed")
        await alice.client.room_invite(old.room_id, bot_id)
        gw = await _gateway(homeserver, "bot_gw", store, sessions, rec)
        await gw.step()  # first sync ever: joins, learns rooms, treats nothing as a command
        await _until(gw, lambda: old.room_id in gw.client.rooms)
        await settle(alice)
        group = old.room_id
        joined = await alice.say(group, "!join")
        await alice.say(group, "3")  # a bare number in a group is conversation
        # a number replying to, or a keycap on, a message that offered no choice: nothing is said in the group
        reply = {"m.in_reply_to": {"event_id": joined.event_id}}
        await alice.client.room_send(group, "m.room.message", {
            "msgtype": "m.text", "body": "> <@alice> !join\n\n2", "m.relates_to": reply
        })
        await alice.client.room_send(group, "m.reaction", {
            "m.relates_to": {"rel_type": "m.annotation", "event_id": joined.event_id, "key": "2️⃣"}
        })
        await _until(gw, lambda: rec.inbound)
        assert [(c.kind, c.command, c.is_group, c.user) for c in rec.inbound] == [
            ("command", "join", True, alice.user_id)
        ]
        assert all(c.command != "newgame" for c in rec.inbound)

        dm = await gw.adapter.direct_chat(alice.user_id)
        await alice.wait_for(lambda p: dm in p.client.rooms)
        await gw.step(timeout_ms=0)
        keyboard = [[Button("Fight", "12:4:@fight"), Button("Pass", "12:4:pass")]]
        panel = await gw.adapter.send_text(dm, "Your turn", keyboard)
        await alice.wait_for(lambda p: any("2. Pass" in b for b in p.bodies(dm)))
        await alice.say(dm, "2")
        await alice.say(dm, "7")  # no such choice
        await _until(gw, lambda: len(rec.inbound) == 2 and rec.answers)
        action = rec.inbound[1]
        assert (action.kind, action.text, action.is_group, action.user) == ("tap", "12:4:pass", False, alice.user_id)
        assert rec.answers == [(dm, alice.user_id, "expired")]
        await alice.client.room_send(dm, "m.reaction", {
            "m.relates_to": {"rel_type": "m.annotation", "event_id": panel, "key": "1️⃣"}
        })
        await _until(gw, lambda: len(rec.inbound) == 3)
        assert rec.inbound[2].text == "12:4:@fight"
        seen = [c.update_id for c in rec.inbound]

        # A player who opens a direct chat with the bot gets it recorded as theirs (m.direct) and treated as direct.
        bob: Player = await login(homeserver.url, *homeserver.register("bob_gw"))
        opened = await bob.client.room_create(is_direct=True, invite=[gw.client.user_id])
        await _until(gw, lambda: opened.room_id in gw.client.rooms)
        assert await gw.adapter.direct_chat(bob.user_id) == opened.room_id
        assert opened.room_id in (await gw.client.list_direct_rooms()).rooms[bob.user_id]
        await bob.say(opened.room_id, "!help")
        await _until(gw, lambda: len(rec.inbound) == 4)
        assert (rec.inbound[3].command, rec.inbound[3].is_group) == ("help", False)
        await bob.close()
        seen.append(rec.inbound[3].update_id)

        # Restart: a new process with the same store resumes after the last handled event.
        await gw.drain()
        await gw.client.close()
        await alice.say(group, "!status")
        for i in range(7):  # more than the restarted gateway's timeline limit: the gap is fetched
            await alice.say(group, f"!rules {i}")
        gw2 = await _gateway(homeserver, "bot_gw", store, sessions, rec)
        gw2.timeline_limit = 3
        assert gw2.login.device_id == gw.login.device_id
        await _until(gw2, lambda: len(rec.inbound) == 12)
        await gw2.step(timeout_ms=200)
        assert [c.command for c in rec.inbound[4:]] == ["status"] + ["rules"] * 7
        # alice created the group's room: a room creator is its moderator (room version 12), so her commands carry
        # the admin flag, which the gateway adds and the backbone strips
        assert [c.args for c in rec.inbound[5:]] == [(str(i), ADMIN_FLAG) for i in range(7)]
        assert [c.update_id for c in rec.inbound[:4]] == seen
        assert len({c.update_id for c in rec.inbound}) == len(rec.inbound)
        await gw2.client.close()
        await alice.close()

    asyncio.run(scenario())


def test_a_batch_read_again_after_a_kill_skips_what_the_backbone_processed(homeserver):
    """A gateway killed before it saved the sync token of its last batch: the next one reads the batch again, and
    hands on only the events the backbone has not processed (the others were answered already)."""

    async def scenario():
        homeserver.register("bot_kill")
        store, sessions, rec = scratch("bot-"), MemorySessions(), Recorder()
        alice: Player = await login(homeserver.url, *homeserver.register("alice_kill"))
        room = await alice.client.room_create(preset=RoomPreset.private_chat, invite=[homeserver.user_id("bot_kill")])
        gw = await _gateway(homeserver, "bot_kill", store, sessions, rec)
        await gw.step()
        await _until(gw, lambda: room.room_id in gw.client.rooms)
        await gw.drain()
        before = LoginStore(store).load()
        await settle(alice)
        await alice.say(room.room_id, "!join")
        await alice.say(room.room_id, "!status")
        await _until(gw, lambda: len(rec.inbound) == 2)
        await gw.drain()
        await gw.client.close()
        LoginStore(store).save(before)  # the kill: the batch's token never reached the disk
        played = rec.inbound[0].update_id  # the backbone had processed the first command, not the second
        gw2 = await _gateway(homeserver, "bot_kill", store, sessions, rec, handled=lambda ids: {played} & set(ids))
        await _until(gw2, lambda: len(rec.inbound) == 3)
        await gw2.step(timeout_ms=200)
        assert [(c.command, c.update_id) for c in rec.inbound[2:]] == [("status", rec.inbound[1].update_id)]
        await gw2.client.close()
        await alice.close()

    asyncio.run(scenario())


def test_a_direct_room_missing_from_m_direct_is_still_direct_and_mended(homeserver):
    """m.direct lost the room (a write that dropped it, or another client of the bot's account rewrote it), while the
    backbone sends the player's panels there: the player's numbers still count as direct answers, and m.direct is
    mended. A room nobody owns stays a group."""

    async def scenario():
        homeserver.register("bot_mend")
        store, sessions, rec = scratch("bot-"), MemorySessions(), Recorder()
        carol: Player = await login(homeserver.url, *homeserver.register("carol_mend"))
        owners: dict[str, str] = {}
        asked: list[str] = []

        def owner(room: str) -> str | None:
            asked.append(room)
            return owners.get(room)

        gw = await _gateway(homeserver, "bot_mend", store, sessions, rec, direct_owner=owner)
        await gw.step()
        dm = await gw.adapter.direct_chat(carol.user_id)
        owners[dm] = carol.user_id  # what the backbone recorded when it opened the room
        await carol.wait_for(lambda p: dm in p.client.rooms)
        await gw.step(timeout_ms=0)
        await gw.adapter.send_text(dm, "Your turn", [[Button("Fight", "9:1:fight"), Button("Pass", "9:1:pass")]])
        await carol.wait_for(lambda p: any("2. Pass" in b for b in p.bodies(dm)))
        user = gw.client.user_id
        await gw.adapter._raw("PUT", f"/v3/user/{user}/account_data/m.direct", {})  # the room forgotten
        gw.adapter.forget_direct_rooms()
        assert not await gw.adapter.is_direct(dm)

        await carol.say(dm, "2")
        await _until(gw, lambda: rec.inbound)
        assert [(c.text, c.is_group, c.user) for c in rec.inbound] == [("9:1:pass", False, carol.user_id)]
        assert (await gw.client.list_direct_rooms()).rooms[carol.user_id] == [dm]
        assert await gw.adapter.is_direct(dm)

        group = (await carol.client.room_create(preset=RoomPreset.private_chat, invite=[user])).room_id
        await _until(gw, lambda: group in gw.client.rooms)
        await settle(carol)
        for text in ("1", "2"):  # a bare number in a group is conversation; the room is looked up once a minute
            await carol.say(group, text)
        await carol.say(group, "!help")
        await _until(gw, lambda: len(rec.inbound) == 2)
        assert (rec.inbound[1].command, rec.inbound[1].is_group) == ("help", True)
        assert asked.count(group) == 1
        await gw.client.close()
        await carol.close()

    asyncio.run(scenario())
