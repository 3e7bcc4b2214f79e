"""The Matrix transcript shows a player's rooms as their client does, read from the real Synapse through the
player's own (decrypting) client: an edited message once, as last edited, marked; an image with its caption; the
numbered choices under their message; each room (a table's room is Matrix's topic) under its own name."""

from __future__ import annotations

import asyncio
import io

import pytest
from matrix_players import login, scratch, settle
from matrix_transcript import transcript
from nio import RoomPreset
from PIL import Image

from service.chat.base import Button
from service.matrix.adapter import MatrixAdapter
from service.matrix.choices import ChoiceMaps
from service.matrix.client import connect
from service.sessions import MemorySessions

pytestmark = pytest.mark.e2e


def _png(colour: str) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(buf, "PNG")
    return buf.getvalue()


def test_edits_images_choices_and_rooms_as_a_client_shows_them(homeserver):
    async def scenario():
        bot_id, password = homeserver.register("bot_transcript")
        client, _ = await connect(homeserver.url, bot_id, password, scratch("bot-"), encryption=True)
        await client.sync(timeout=0)
        bot = MatrixAdapter(client, ChoiceMaps(MemorySessions()), explain=str, encrypt_direct=True)
        alice = await login(homeserver.url, *homeserver.register("alice_transcript"), encryption=True)

        direct = await bot.direct_chat(alice.user_id)
        await alice.wait_for(lambda p: direct in p.client.rooms)
        await settle(alice)
        await client.sync(timeout=0)
        await client.keys_query()
        panel = await bot.send_text(direct, "Your turn", [[Button("Fight", "1:1:fight"), Button("Pass", "1:1:pass")]])
        for text in ("Your turn: the siege", "Your turn: the Grail"):
            await bot.edit_text(direct, panel, text, [[Button("Fight", "1:1:fight"), Button("Pass", "1:1:pass")]])
        await alice.say(direct, "2")

        table = await client.room_create(name="Table 1", invite=[alice.user_id], preset=RoomPreset.private_chat)
        await settle(alice)
        await client.sync(timeout=0)
        board = await bot.send_photo(table.room_id, _png("red"), "Board\n⚔ 3 white")
        await bot.edit_photo(table.room_id, board, _png("blue"), "Board\n⚔ 4 white")
        await settle(alice)  # Alice's client sees this edit before the next one redacts it (superseded)
        await bot.edit_photo(table.room_id, board, _png("blue"), "Board\n⚔ 5 white")
        await bot.edit_photo(table.room_id, board, _png("blue"), "Board\n⚔ 6 white")  # redacts "5" unseen
        gone = await bot.send_text(table.room_id, "a notice that is taken back")
        await bot.delete(table.room_id, gone)
        await settle(alice, rounds=3)

        seen = await transcript(alice)
        direct_part, room_part = seen.split("═══ alice_transcript · room «Table 1» ═══")
        assert direct_part.startswith("═══ alice_transcript · direct chat with bot_transcript ═══")
        assert "bot_transcript: Your turn: the Grail\n    \n    1. Fight\n    2. Pass\n    (edited 2×)" in direct_part
        assert "the siege" not in direct_part and "You: 2" in direct_part
        assert "turned on end-to-end encryption" in direct_part  # read through the player's keys
        # the edit seen live counts; the one redacted before any client saw it is, on the server, a deleted message
        assert (
            "bot_transcript: [photo: Board\n    ⚔ 6 white]\n    (edited 2×)\n  · bot_transcript deleted 2 messages"
            in (room_part)
        )
        assert "4 white" not in room_part and "5 white" not in room_part and "taken back" not in room_part
        assert room_part.index("· You joined") < room_part.index("[photo: Board")
        await alice.close()
        await client.close()

    asyncio.run(scenario())
