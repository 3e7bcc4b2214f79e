"""Leaving and a substitute over Matrix (issue 24): a real Synapse, the real gateway, real nio clients. Arthur and
Gawain sit down with three bots, and the game moves to a room of its own; Gawain sends !leave in his direct room and
confirms with its number; Mordred, in the group but not seated, joins the table's room, sends !sub there, confirms in
the direct room the bot opens with him, and receives the seat's private view, which reached no other room; Gawain
gets nothing after the handover."""

from __future__ import annotations

import asyncio

import pytest
from matrix_players import login
from nio import JoinError
from sqlalchemy import func, select
from test_matrix_games import _db, _direct_room, _game_status, _start_gateway, _wait, table_room

from service.render.i18n import t
from service.store import session_scope
from service.store.models import GameRow, Seat
from tests.e2e.days_checks import owner, panel_now

pytestmark = pytest.mark.e2e


def _numbered(player, room: str, label: str) -> int | None:
    """The number of the choice `label` in the room's newest menu."""
    menu = player.menu(room) if room else None
    return next((n for n, text in menu[2].items() if text == label), None) if menu else None


def test_leave_and_a_substitute_over_matrix(homeserver, backbone_pg, transcripts):
    async def scenario():
        gateway, bot_id = _start_gateway(homeserver, "camelot_days")
        try:
            arthur, gawain, mordred = [
                await login(homeserver.url, *homeserver.register(n)) for n in ("arthur_d", "gawain_d", "mordred_d")
            ]
            players = [arthur, gawain, mordred]
            created = await arthur.client.room_create(
                name="Camelot days", invite=[bot_id, gawain.user_id, mordred.user_id]
            )
            group = created.room_id
            await _wait(lambda: all(group in p.client.rooms for p in players), 60, "everyone in", gateway, *players)
            room = arthur.client.rooms[group]
            await _wait(
                lambda: bot_id in room.users and bot_id not in room.invited_users, 60, "the bot in", gateway, *players
            )
            levels = await arthur.client.room_get_state_event(group, "m.room.power_levels")
            users = {**levels.content.get("users", {}), bot_id: 100}
            await arthur.client.room_put_state(group, "m.room.power_levels", {**levels.content, "users": users})
            await arthur.say(group, "!newgame board 5")
            lobby = await _wait(
                lambda: _db(select(GameRow.id).where(GameRow.status == "lobby")), 60, "the lobby", gateway
            )
            game_id = lobby[0][0]
            with session_scope() as s:
                s.get(GameRow, game_id).seed = 7
            await gawain.say(group, "!join")
            seated = select(func.count()).select_from(Seat).where(Seat.game_id == game_id)
            await _wait(lambda: _db(seated)[0][0] == 2, 60, "both seated", gateway, *players)
            await arthur.say(group, "!set bots on")
            await _wait(
                lambda: _db(select(GameRow.options).where(GameRow.id == game_id))[0][0].get("bots"),
                60,
                "bots on",
                gateway,
                *players,
            )
            await arthur.say(group, "!start")
            await _wait(lambda: _game_status(game_id) == "active", 60, "the start", gateway, *players)
            table = await table_room(game_id, gateway, arthur, gawain)  # the game's own room: its people invited
            await _wait(lambda: _direct_room(gawain, bot_id, group), 60, "Gawain's direct room", gateway, *players)

            gawain_dm = _direct_room(gawain, bot_id, group)
            await gawain.say(gawain_dm, "!leave")
            quit_label = t("en", "days.button.quit")
            number = await _wait(
                lambda: _numbered(gawain, gawain_dm, quit_label), 60, "the confirmation", gateway, *players
            )
            await gawain.say(gawain_dm, str(number))
            await _wait(lambda: owner(game_id, 1) is None, 60, "the seat to the autopilot", gateway, *players)
            await _wait(
                lambda: any("no longer yours" in b for b in gawain.bodies(gawain_dm)),
                60,
                "Gawain's panel replaced",
                gateway,
                *players,
            )  # the handover's last word to him
            await asyncio.gather(*(p.sync(timeout_ms=500) for p in players))
            gawain_seen = len(gawain.bodies(gawain_dm))

            joined = await mordred.client.join(table)  # a member of the community's room may join its tables
            assert not isinstance(joined, JoinError), joined
            await mordred.say(table, "!sub")
            await _wait(lambda: _direct_room(mordred, bot_id, group), 60, "Mordred's direct room", gateway, *players)
            mordred_dm = _direct_room(mordred, bot_id, group)
            take_label = t("en", "days.button.sub_ok")
            number = await _wait(
                lambda: _numbered(mordred, mordred_dm, take_label), 60, "his confirmation", gateway, *players
            )
            await mordred.say(mordred_dm, str(number))
            await _wait(lambda: owner(game_id, 1) == mordred.user_id, 60, "the takeover", gateway, *players)
            view = panel_now(game_id, 1)
            await _wait(
                lambda: any(view in body for body in mordred.bodies(mordred_dm)),
                60,
                "the seat's view, to Mordred",
                gateway,
                *players,
            )
            await asyncio.gather(*(p.sync(timeout_ms=1000) for p in players))

            assert len(gawain.bodies(gawain_dm)) == gawain_seen, gawain.bodies(gawain_dm)[gawain_seen:]
            others = [body for p in (arthur, gawain) for room in p.events for body in p.bodies(room)]
            assert not [body for body in others if view in body], "the seat's view reached another room"
            group_bodies = arthur.bodies(table)
            assert any("gawain_d left the game" in body for body in group_bodies)
            assert any("takes over the seat of gawain_d" in body for body in group_bodies)
            transcripts({p.user_id: "\n".join(b for room in p.events for b in p.bodies(room)) for p in players})
            for p in players:
                await p.close()
        finally:
            gateway.stop()

    asyncio.run(scenario())
