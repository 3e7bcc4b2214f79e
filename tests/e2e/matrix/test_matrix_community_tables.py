"""Several tables of one Matrix community at once (issue 25 item 1): a real Synapse and the real gateway. Two lobbies
opened with a plain `!newgame` in the community's room start one after the other; each game moves to a room of its
own (its seated people invited, linked from the community's room, a child of the community's Space), and the
community's room takes the second lobby while the first table plays. Morgan's silence at one table raises that
table room's power levels only: the other table's room and the community's room talk on."""

from __future__ import annotations

import asyncio
import random

import pytest
from matrix_players import Player, settle
from matrix_transcript import transcripts as client_views
from nio import RoomSendError
from sqlalchemy import func, select
from test_matrix_games import _db, _game_status, _start_gateway, _wait, table_room
from test_matrix_tournament_tables import _community, _play_until_silence, _rooms_in_space

from service.store import session_scope
from service.store.models import GameRow, OutboxRow, Seat

pytestmark = pytest.mark.e2e
MORGAN_FIRST = 4  # a 3-seat card deal whose first move turns up a Morgan card (Morgan's silence)
QUIET = 2  # another deal: nobody moves at that table in this test anyway


async def _table(gateway, host: Player, guest: Player, community: str, seed: int) -> tuple[int, str]:
    """A card lobby by `host` in the community's room, `guest` joins, a bot fills the third seat, the host starts;
    returns the game and the room it moved to."""
    await host.say(community, "!newgame cards 3")
    lobby = select(GameRow.id).where(GameRow.status == "lobby")
    game_id = (await _wait(lambda: _db(lobby), 60, "the lobby", gateway, host))[0][0]
    with session_scope() as s:
        s.get(GameRow, game_id).seed = seed
    await guest.say(community, "!join")
    seated = select(func.count()).select_from(Seat).where(Seat.game_id == game_id)
    await _wait(lambda: _db(seated)[0][0] == 2, 60, "the guest seated", gateway, host, guest)
    await host.say(community, "!set bots on")
    await _wait(
        lambda: _db(select(GameRow.options).where(GameRow.id == game_id))[0][0].get("bots"),
        60,
        "bots on",
        gateway,
        host,
    )
    await host.say(community, "!start")
    await _wait(lambda: _game_status(game_id) == "active", 60, "the start", gateway, host, guest)
    return game_id, await table_room(game_id, gateway, host, guest)


def test_two_newgame_tables_of_one_room_in_rooms_of_a_space(homeserver, backbone_pg, transcripts):
    async def scenario():
        gateway, _ = _start_gateway(homeserver, "camelot_community")
        people: list[Player] = []
        try:
            ann, others, community = await _community(homeserver, gateway, "ct", 3)
            ben, cat, dan = others
            everyone = people = [ann, *others]
            first, first_room = await _table(gateway, ann, ben, community, MORGAN_FIRST)
            second, second_room = await _table(gateway, cat, dan, community, QUIET)  # while the first one plays
            assert _game_status(first) == _game_status(second) == "active"
            for game_id in (first, second):  # each lobby message, left in the community's room, says where it went
                lobby_text = _db(
                    select(OutboxRow.payload)
                    .where(OutboxRow.chat == community, OutboxRow.ref == f"lobby:{game_id}")
                    .order_by(OutboxRow.id.desc())
                    .limit(1)
                )[0][0]["text"]
                assert lobby_text.endswith(
                    "The game has started in a room of its own: the seated players are "
                    "invited, and its link follows here."
                ), lobby_text
            tables = {
                first: (first_room, [ann.user_id, ben.user_id]),
                second: (second_room, [cat.user_id, dan.user_id]),
            }
            space = await _rooms_in_space(gateway, everyone, community, tables)

            skip = {community, space, first_room, second_room}
            silenced = await _play_until_silence(gateway, [ann, ben], {first: tables[first]}, skip, random.Random(1))
            assert silenced == first

            def level(player: Player, room: str) -> int:
                return player.client.rooms[room].power_levels.defaults.events_default

            await _wait(lambda: level(ben, first_room) >= 50, 60, "the first table's room muted", gateway, *everyone)
            refused = await ben.client.room_send(first_room, "m.room.message", {"msgtype": "m.text", "body": "psst"})
            assert isinstance(refused, RoomSendError) and refused.status_code == "M_FORBIDDEN"
            assert level(dan, second_room) == 0  # the other table talks on
            spoken = await dan.client.room_send(second_room, "m.room.message", {"msgtype": "m.text", "body": "hi"})
            assert not isinstance(spoken, RoomSendError)
            said = await ben.client.room_send(community, "m.room.message", {"msgtype": "m.text", "body": "gg soon"})
            assert not isinstance(said, RoomSendError)  # nor is the community's room muted
            assert level(ann, community) == 0
            await settle(*everyone)
            transcripts(await client_views([ann, dan]))
        finally:
            for p in people:
                await p.client.close()
            gateway.stop()

    asyncio.run(scenario())
