"""MatrixAdapter against a real Synapse: what players' own clients see, not what the adapter believes."""

from __future__ import annotations

import asyncio
import dataclasses
import io

import httpx
import pytest
from matrix_players import Player, login, scratch, settle
from nio import RoomPreset, RoomSendError
from PIL import Image

from service.chat.base import Button, PermanentError, RateLimited, TransientError
from service.matrix.adapter import MatrixAdapter
from service.matrix.choices import ChoiceMaps
from service.matrix.client import connect, keep_keys
from service.matrix.login_store import LoginStore
from service.sessions import MemorySessions

pytestmark = pytest.mark.e2e


async def _bot(hs, name: str, store: str | None = None, encrypt: bool = False) -> tuple[MatrixAdapter, ChoiceMaps]:
    if (hs.user_id(name)) not in hs.users:
        hs.register(name)
    client, _ = await connect(hs.url, hs.user_id(name), hs.users[hs.user_id(name)],
                              store or scratch("bot-"), encryption=encrypt)
    await client.sync(timeout=0)
    choices = ChoiceMaps(MemorySessions())
    return MatrixAdapter(client, choices, explain=lambda key: f"explain:{key}", encrypt_direct=encrypt), choices


async def _player(hs, name: str, encryption: bool = False) -> Player:
    user_id, password = hs.register(name)
    return await login(hs.url, user_id, password, encryption=encryption)


async def _group(adapter: MatrixAdapter, *players: Player) -> str:
    resp = await adapter.client.room_create(invite=[p.user_id for p in players], preset=RoomPreset.private_chat)
    await settle(*players)
    return resp.room_id


async def _history(player: Player, room: str) -> list[dict]:
    """Every event of the room exactly as the server gives it to a member now: ciphertext stays ciphertext,
    redacted events have lost their content."""
    async with httpx.AsyncClient() as http:
        r = await http.get(
            f"{player.client.homeserver}/_matrix/client/v3/rooms/{room}/messages",
            params={"dir": "b", "limit": 500},
            headers={"Authorization": f"Bearer {player.client.access_token}"},
        )
    r.raise_for_status()
    return r.json()["chunk"]


async def _notifications(player: Player, until=lambda found: True, timeout: float = 10.0) -> dict[str, bool]:
    """The messages the server notifies the player of (its push rules applied): event id → highlighted. Asked
    again until `until(found)` holds (the server may record a notification a moment after the event)."""
    deadline = asyncio.get_running_loop().time() + timeout
    async with httpx.AsyncClient() as http:
        while True:
            r = await http.get(
                f"{player.client.homeserver}/_matrix/client/v3/notifications",
                headers={"Authorization": f"Bearer {player.client.access_token}"},
            )
            r.raise_for_status()
            found = {n["event"]["event_id"]: {"set_tweak": "highlight"} in n["actions"]
                     for n in r.json()["notifications"] if n["event"]["type"] == "m.room.message"}
            if until(found) or asyncio.get_running_loop().time() > deadline:
                return found
            await asyncio.sleep(0.1)


def test_choices_edit_and_superseded_versions_redacted(homeserver):
    async def scenario():
        bot, choices = await _bot(homeserver, "bot_edit")
        alice = await _player(homeserver, "alice_edit")
        room = await _group(bot, alice)
        keyboard = [[Button("Join", "L1:join"), Button("Leave", "L1:leave")], [Button("Start", "L1:start")]]
        first = await bot.send_text(room, "Lobby: threat A", keyboard)
        await alice.wait_for(lambda p: any("3. Start" in b for b in p.bodies(room)))
        assert choices.lookup(room, 3) == "L1:start"
        assert choices.lookup(room, 4) is None
        for text in ("Lobby: threat B", "Lobby: threat C", "Lobby: threat D"):
            await bot.edit_text(room, first, text, [[Button("Play", "7:3:play")]])
        assert choices.lookup(room, 1) == "7:3:play" and choices.lookup(room, 2) is None
        assert choices.lookup(room, 1, event_id=first) == "7:3:play"
        assert choices.lookup(room, 1, event_id="$unknown") is None
        history = await _history(alice, room)
        texts = [str(e.get("content")) for e in history]
        assert any("threat D" in t for t in texts)
        assert not any("threat B" in t or "threat C" in t for t in texts), texts
        edits = [e for e in history if e["type"] == "m.room.message" and e["event_id"] != first]
        live = [e for e in edits if e.get("content")]
        assert len(live) == 1 and len(edits) == 3
        # A redaction that fails does not fail the edit (the outbox would post the message anew);
        # the next edit redacts what was left.
        real_redact = bot.client.room_redact

        async def flaky_redact(*args, **kwargs):
            bot.client.room_redact = real_redact
            raise TimeoutError("lost")

        bot.client.room_redact = flaky_redact
        await bot.edit_text(room, first, "Lobby: threat E")
        assert len([e for e in await _history(alice, room) if e.get("content", {}).get("m.new_content")]) == 2
        await bot.edit_text(room, first, "Lobby: threat F")
        live = [e for e in await _history(alice, room) if e.get("content", {}).get("m.new_content")]
        assert [e["content"]["m.new_content"]["body"] for e in live] == ["Lobby: threat F"]
        await alice.close()
        await bot.client.close()

    asyncio.run(scenario())


def test_silence_blocks_members_and_restores(homeserver):
    async def scenario():
        bot, _ = await _bot(homeserver, "bot_silence")
        alice = await _player(homeserver, "alice_silence")
        room = await _group(bot, alice)
        assert await bot.set_silence(room, True)
        refused = await alice.say(room, "psst")
        assert isinstance(refused, RoomSendError) and refused.status_code == "M_FORBIDDEN"
        assert await bot.set_silence(room, True)  # already silent: nothing to change
        assert await bot.set_silence(room, False)
        assert not isinstance(await alice.say(room, "hello again"), RoomSendError)
        await alice.close()
        await bot.client.close()

    asyncio.run(scenario())


def test_silence_without_power_explains_once(homeserver):
    async def scenario():
        bot, _ = await _bot(homeserver, "bot_weak")
        alice = await _player(homeserver, "alice_owner")
        resp = await alice.client.room_create(invite=[bot.client.user_id])
        room = resp.room_id
        await bot.client.join(room)
        assert await bot.set_silence(room, True) is False
        assert await bot.set_silence(room, True) is False
        await alice.wait_for(lambda p: "explain:silence_no_power" in p.bodies(room))
        await settle(alice)
        assert alice.bodies(room).count("explain:silence_no_power") == 1
        assert not isinstance(await alice.say(room, "still free"), RoomSendError)
        await alice.close()
        await bot.client.close()

    asyncio.run(scenario())


def test_direct_room_encrypted_reaches_only_its_player(homeserver):
    async def scenario():
        store = scratch("bot-")
        bot, _ = await _bot(homeserver, "bot_direct", store=store, encrypt=True)
        alice = await _player(homeserver, "alice_direct", encryption=True)
        bob = await _player(homeserver, "bob_direct", encryption=True)
        room = await bot.direct_chat(alice.user_id)
        assert await bot.direct_chat(alice.user_id) == room
        await alice.wait_for(lambda p: room in p.client.rooms)
        await settle(alice, bob)
        await bot.client.sync(timeout=0)
        await bot.client.keys_query()
        await bot.send_text(room, "Your hand: Merlin, Fight 3", [[Button("Play Merlin", "9:1:play:0")]])
        await alice.wait_for(lambda p: any("Your hand: Merlin" in b for b in p.bodies(room)))
        assert alice.client.rooms[room].encrypted
        raw = await _history(alice, room)
        assert all("Merlin" not in str(e.get("content")) for e in raw)  # on the wire it is ciphertext
        await settle(bob)
        assert room not in bob.client.rooms and not any("Merlin" in b for r in bob.events for b in bob.bodies(r))
        assert room in (await bot.client.list_direct_rooms()).rooms[alice.user_id]  # m.direct recorded
        # A restarted gateway (same store: same device, no new login) finds the same direct room.
        await bot.client.close()
        again, _ = await _bot(homeserver, "bot_direct", store=store, encrypt=True)
        assert again.client.device_id == bot.client.device_id
        assert await again.direct_chat(alice.user_id) == room
        await again.client.close()
        await alice.close()
        await bob.close()

    asyncio.run(scenario())


def test_photo_upload(homeserver):
    async def scenario():
        bot, choices = await _bot(homeserver, "bot_photo")
        alice = await _player(homeserver, "alice_photo")
        room = await _group(bot, alice)
        buf = io.BytesIO()
        Image.new("RGB", (40, 30), "red").save(buf, "PNG")
        event_id = await bot.send_photo(room, buf.getvalue(), "Board")
        event = await alice.wait_for(lambda p: next((e for e in p.events[room] if e.event_id == event_id), None))
        assert event.source["content"]["info"]["w"] == 40
        downloaded = await alice.client.download(event.source["content"]["url"])
        assert downloaded.body == buf.getvalue()
        newer = io.BytesIO()
        Image.new("RGB", (60, 20), "blue").save(newer, "PNG")
        await bot.edit_photo(room, event_id, newer.getvalue(), "Board, later", [[Button("Status", "L3:status")]])
        edit = await alice.wait_for(lambda p: next((e for e in p.events[room] if (
            e.source["content"].get("m.relates_to", {}).get("event_id") == event_id)), None))
        replaced = edit.source["content"]["m.new_content"]
        assert (replaced["msgtype"], replaced["info"]["w"]) == ("m.image", 60)
        assert replaced["body"] == "Board, later\n\n1. Status"
        assert (await alice.client.download(replaced["url"])).body == newer.getvalue()
        assert choices.lookup(room, 1, event_id=event_id) == "L3:status"
        await alice.close()
        await bot.client.close()

    asyncio.run(scenario())


def test_document_upload(homeserver):
    async def scenario():
        bot, _ = await _bot(homeserver, "bot_document")
        alice = await _player(homeserver, "alice_document")
        room = await _group(bot, alice)
        event_id = await bot.send_document(room, b"the whole story\n", "camelot-3.txt", "Game #3")
        event = await alice.wait_for(lambda p: next((e for e in p.events[room] if e.event_id == event_id), None))
        content = event.source["content"]
        assert (content["msgtype"], content["filename"], content["body"]) == ("m.file", "camelot-3.txt", "Game #3")
        assert (await alice.client.download(content["url"])).body == b"the whole story\n"
        await alice.close()
        await bot.client.close()

    asyncio.run(scenario())


def test_retried_send_reuses_transaction_id(homeserver):
    async def scenario():
        bot, _ = await _bot(homeserver, "bot_retry")
        alice = await _player(homeserver, "alice_retry")
        room = await _group(bot, alice)
        real_send = bot.client.room_send
        calls = []

        async def lost_answer(*args, **kwargs):
            """The server stores the message but the answer never arrives (a dropped connection)."""
            calls.append(kwargs["tx_id"])
            resp = await real_send(*args, **kwargs)
            if len(calls) == 1:
                raise TimeoutError("answer lost")
            return resp

        bot.client.room_send = lost_answer
        with pytest.raises(TransientError):
            await bot.send_text(room, "only once")
        event_id = await bot.send_text(room, "only once")
        assert calls[0] == calls[1]
        history = await _history(alice, room)
        copies = [e for e in history if e.get("content", {}).get("body") == "only once"]
        assert [e["event_id"] for e in copies] == [event_id]
        await alice.close()
        await bot.client.close()

    asyncio.run(scenario())


def test_login_is_reused_across_restarts(homeserver):
    async def scenario():
        store = scratch("bot-")
        homeserver.register("bot_login")
        first, login = await connect(homeserver.url, homeserver.user_id("bot_login"),
                                     homeserver.users[homeserver.user_id("bot_login")], store, encryption=False)
        before = {d.id for d in (await first.devices()).devices}
        await first.close()
        second, again = await connect(homeserver.url, homeserver.user_id("bot_login"), None, store, encryption=False)
        assert (again.device_id, again.access_token) == (login.device_id, login.access_token)
        after = {d.id for d in (await second.devices()).devices}
        assert login.device_id in after and after == before  # no second login, no new device
        LoginStore(store).save(dataclasses.replace(again, next_batch="s1_2_3"))
        assert LoginStore(store).load().next_batch == "s1_2_3"
        await second.logout()  # the token is revoked (e.g. by an admin): one new login, the sync position kept
        third, fresh = await connect(homeserver.url, homeserver.user_id("bot_login"),
                                     homeserver.users[homeserver.user_id("bot_login")], store, encryption=False)
        assert fresh.device_id != login.device_id and fresh.next_batch == "s1_2_3"
        assert LoginStore(store).load() == fresh
        await second.close()
        await third.close()

    asyncio.run(scenario())


def test_server_refusals_map_to_the_outbox_retry_classes(homeserver):
    async def scenario():
        bot, _ = await _bot(homeserver, "bot_limited")
        alice = await _player(homeserver, "alice_limited")
        room = await _group(bot, alice)
        other = await _group(bot, alice)
        admin, _ = homeserver.register("server_admin", admin=True)
        r = httpx.post(
            f"{homeserver.url}/_synapse/admin/v1/users/{bot.client.user_id}/override_ratelimit",
            json={"messages_per_second": 1, "burst_count": 1},
            headers={"Authorization": f"Bearer {homeserver.tokens[admin]}"},
        )
        r.raise_for_status()
        with pytest.raises(RateLimited) as limited:
            for i in range(5):
                await bot.send_text(room, f"flood {i}")
        assert limited.value.retry_after > 0
        real_send, calls = bot.client.room_send, []

        async def counted(*args, **kwargs):
            calls.append(args)
            return await real_send(*args, **kwargs)

        bot.client.room_send = counted
        with pytest.raises(RateLimited):
            await bot.send_text(other, "another room, same sender")
        assert calls == []  # Synapse limits the sender: no request until the wait is over
        await asyncio.sleep(limited.value.retry_after)
        assert await bot.send_text(other, "after the wait")
        with pytest.raises(PermanentError):
            await bot.send_text("!nowhere:localhost", "lost")
        await alice.close()
        await bot.client.close()

    asyncio.run(scenario())


def test_an_adapter_without_encryption_never_writes_plaintext_to_encrypted_rooms(homeserver):
    """The same stored login and device, but a client without the olm keys (no e2e extra): it may write to a
    plain room and must refuse an encrypted one."""

    async def scenario():
        store = scratch("bot-")
        gateway, _ = await _bot(homeserver, "bot_plain", store=store, encrypt=True)
        alice = await _player(homeserver, "alice_plain", encryption=True)
        group = await _group(gateway, alice)
        secret = await gateway.direct_chat(alice.user_id)
        plain, _ = await _bot(homeserver, "bot_plain", store=store, encrypt=False)
        assert (plain.client.device_id, plain.client.olm) == (gateway.client.device_id, None)
        event_id = await plain.send_text(group, "board from a client without keys")
        await alice.wait_for(lambda p: any(e.event_id == event_id for e in p.events[group]))
        with pytest.raises(PermanentError):
            await plain.send_text(secret, "your hand")
        assert all("your hand" not in str(e.get("content")) for e in await _history(alice, secret))
        await plain.client.close()
        await gateway.client.close()
        await alice.close()

    asyncio.run(scenario())


def test_a_row_sent_again_after_a_crash_is_stored_once(homeserver):
    """A gateway killed between a send and its bookkeeping sends the row again after the restart (a new process,
    the same device): the transaction id comes from the row, so Synapse keeps one event. Two rows with the same
    text are two messages."""
    from service.chat.base import delivering

    async def scenario():
        store = scratch("bot-")
        first, _ = await _bot(homeserver, "bot_resend", store=store, encrypt=True)
        alice = await _player(homeserver, "alice_resend", encryption=True)
        room = await first.direct_chat(alice.user_id)
        await first.client.sync(timeout=0)
        hand = "Your hand: Merlin"
        received = lambda p: [e.event_id for e in p.events[room] if getattr(e, "body", None) == hand]  # noqa: E731
        delivering.set("outbox:41")
        sent = await first.send_text(room, hand)
        await first.client.close()
        again, _ = await _bot(homeserver, "bot_resend", store=store, encrypt=True)
        # Synapse answers the same first sync of a device from a cache for a while: ask from where `first` was.
        await again.client.sync(timeout=0, since=first.client.next_batch, full_state=True)
        assert await again.send_text(room, hand) == sent
        delivering.set("outbox:42")
        other = await again.send_text(room, hand)
        delivering.set(None)
        await alice.wait_for(lambda p: other in received(p))
        await settle(alice)
        assert received(alice) == [sent, other]
        await again.client.close()
        await alice.close()

    asyncio.run(scenario())


def test_a_failed_key_claim_does_not_block_the_room(homeserver):
    """The first send to a new encrypted room must open olm sessions (a key claim). If that claim times out, the
    send fails and is retried; it must not leave the room waiting forever for a key share that never finishes."""

    async def scenario():
        bot, _ = await _bot(homeserver, "bot_claim", encrypt=True)
        alice = await _player(homeserver, "alice_claim", encryption=True)
        room = await bot.direct_chat(alice.user_id)
        await bot.client.sync(timeout=0, since=bot.client.next_batch)
        claim = bot.client.keys_claim
        failures = []

        async def lost_once(users):
            if not failures:
                failures.append(users)
                raise TimeoutError("lost")
            return await claim(users)

        bot.client.keys_claim = lost_once
        with pytest.raises(TransientError):
            await asyncio.wait_for(bot.send_text(room, "Your loyalty: Loyal"), 30)
        assert failures
        event_id = await asyncio.wait_for(bot.send_text(room, "Your loyalty: Loyal"), 30)
        await alice.wait_for(lambda p: any(e.event_id == event_id for e in p.events[room]) or p.undecryptable)
        assert alice.undecryptable == 0 and "Your loyalty: Loyal" in alice.bodies(room)
        await alice.close()
        await bot.client.close()

    asyncio.run(scenario())


def test_a_direct_room_opened_by_another_process_is_reused(homeserver):
    async def scenario():
        first, choices = await _bot(homeserver, "bot_two_procs")
        second = MatrixAdapter(first.client, choices, explain=str)  # its own m.direct cache, like another worker
        bob = await _player(homeserver, "bob_two_procs")
        assert not await first.is_direct("!nothing:localhost")  # the first one has read m.direct already
        room = await second.direct_chat(bob.user_id)
        assert await first.direct_chat(bob.user_id) == room
        await bob.close()
        await first.client.close()

    asyncio.run(scenario())


def test_direct_rooms_opened_at_once_are_all_recorded(homeserver):
    """A game's start opens every player's direct room at once (the delivery shards send in parallel). Each is
    recorded in m.direct: a room missing there reads as a group, where a bare number answers nothing, and that
    player could never move again (seen: four of five recorded, the game stuck)."""

    async def scenario():
        bot, _ = await _bot(homeserver, "bot_at_once")
        players = [await _player(homeserver, f"p{i}_at_once") for i in range(5)]
        rooms = await asyncio.gather(*(bot.direct_chat(p.user_id) for p in players))
        assert len(set(rooms)) == len(players)
        listed = (await bot.client.list_direct_rooms()).rooms
        assert {p.user_id: listed.get(p.user_id, [None])[-1] for p in players} == {
            p.user_id: room for p, room in zip(players, rooms, strict=True)
        }
        bot.forget_direct_rooms()  # as after the sync brings the m.direct change
        assert all([await bot.is_direct(room) for room in rooms])
        for p in players:
            await p.close()
        await bot.client.close()

    asyncio.run(scenario())


def test_first_private_message_readable_by_a_player_who_joins_later(homeserver):
    """The bot writes into a new encrypted direct room before the player has even accepted the invite."""

    async def scenario():
        bot, _ = await _bot(homeserver, "bot_early", encrypt=True)
        alice = await _player(homeserver, "alice_early", encryption=True)
        stop = asyncio.Event()

        await keep_keys(bot.client)  # the bot's own keys are up

        async def bot_sync_loop():  # a gateway loop that has not come round to querying the player's keys yet
            while not stop.is_set():
                await bot.client.sync(timeout=200)

        syncing = asyncio.create_task(bot_sync_loop())
        room = await bot.direct_chat(alice.user_id)
        await bot.send_text(room, "Your loyalty: Loyal", [[Button("Draw", "3:1:draw")]])
        await alice.wait_for(lambda p: any("Your loyalty: Loyal" in b for b in p.bodies(room)) or p.undecryptable)
        assert alice.undecryptable == 0
        stop.set()
        await syncing
        await alice.close()
        await bot.client.close()

    asyncio.run(scenario())


def test_a_reminder_row_mentions_the_player_with_a_pill_that_notifies(homeserver, backbone_pg):
    """Through the outbox, as `service.play.scans` writes a group reminder: another member's client receives a
    pill over the (escaped) name in `formatted_body` and the player in `m.mentions`, and the server highlights it
    for that player only."""
    from service.chat import registry
    from service.delivery.senders import deliver_chat
    from service.store import outbox, session_scope

    async def scenario():
        bot, _ = await _bot(homeserver, "bot_mention")
        alice = await _player(homeserver, "alice_mention")
        bob = await _player(homeserver, "bob_mention")
        await alice.client.set_displayname("Al <i>&</i> Co")
        room = await _group(bot, alice, bob)
        await bot.client.sync(timeout=0)
        assert bot.client.rooms[room].user_name(alice.user_id) == "Al <i>&</i> Co"
        registry.register("matrix", lambda: bot)
        await bot.send_text(room, "Al <i>&</i> Co plays next.")  # an ordinary notice, no mention
        text = "Al <i>&</i> Co, the game is waiting for you (5 min left)."
        with session_scope() as s:
            outbox.add(s, "matrix", room, "send", {"text": text, "mention_users": [alice.user_id]}, is_group=True)
        assert await asyncio.to_thread(deliver_chat, "matrix", room, True) == 1
        sent = lambda p: next((e for e in p.events[room] if getattr(e, "body", None) == text), None)  # noqa: E731
        event = await bob.wait_for(sent)
        content = event.source["content"]
        assert content["m.mentions"] == {"user_ids": [alice.user_id]}
        assert content["format"] == "org.matrix.custom.html"
        assert content["formatted_body"] == (
            f'<a href="https://matrix.to/#/{alice.user_id}">Al &lt;i&gt;&amp;&lt;/i&gt; Co</a>, '
            "the game is waiting for you (5 min left)."
        )
        # The player is highlighted; the others see an ordinary message, as for anything a member writes. The notice
        # sent before it notified nobody (the server records notifications in event order).
        assert await _notifications(alice, until=lambda found: event.event_id in found) == {event.event_id: True}
        assert await _notifications(bob, until=lambda found: event.event_id in found) == {event.event_id: False}
        for p in (alice, bob):
            await p.close()
        await bot.client.close()

    asyncio.run(scenario())
