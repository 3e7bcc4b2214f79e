"""A tournament on Matrix in rooms of a Space (issue 25 'Done when'): a real Synapse, the real gateway and a Celery
worker. The organiser opens the tournament in the community room, people register by answering its numbered
choice, the start opens each table as a room of its own (its seated people invited, linked from the community room,
tied to it by a Space); the round's deadline hands the tables to the autopilot (the bots where the test needs
speed), and the standings come after each round. In the card tournament people play their table's first moves
until Morgan's silence falls at one table, which mutes that table's room only."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest
from matrix_players import Player, login, settle
from matrix_transcript import history
from matrix_transcript import transcripts as client_views
from nio import RoomSendError
from sqlalchemy import select
from test_matrix_games import GatewayProcess, _wait

from service.play import tournament_deadlines, tournament_options
from service.render.i18n import t
from service.settings import get_settings
from service.store import session_scope
from service.store.games import seat_users
from service.store.models import Chat, GameRow, Tournament, TournamentPlayer, TournamentRound, TournamentTable
from tests.service.tournaments.tournament_steps import past_deadline

pytestmark = pytest.mark.e2e
SILENT_SEED = 47  # a tournament seed whose round-1 card tables meet Morgan within a few moves of random play
JOIN = t("en", "tournament.button.join")


async def _get(player: Player, path: str) -> Any:
    async with httpx.AsyncClient() as http:
        r = await http.get(f"{player.client.homeserver}/_matrix/client/v3{path}",
                           headers={"Authorization": f"Bearer {player.client.access_token}"}, timeout=10)
        r.raise_for_status()
        return r.json()


async def _state(player: Player, room: str) -> list[dict]:
    return await _get(player, f"/rooms/{room}/state")


async def _community(hs, gateway: GatewayProcess, prefix: str, count: int) -> tuple[Player, list[Player], str]:
    """The organiser's room with the bot (power 100) and `count` people."""
    organiser = await login(hs.url, *hs.register(f"{prefix}_olga"))
    people = [await login(hs.url, *hs.register(f"{prefix}_p{n}")) for n in range(1, count + 1)]
    bot = gateway.bot_id
    created = await organiser.client.room_create(name="Camelot Club", invite=[bot, *(p.user_id for p in people)])
    room = created.room_id
    everyone = [organiser, *people]
    await _wait(lambda: all(room in p.client.rooms for p in everyone), 60, "people in the room", gateway, *everyone)
    joined = lambda: bot in organiser.client.rooms[room].users and bot not in organiser.client.rooms[room].invited_users  # noqa: E731
    await _wait(joined, 60, "the bot in the room", gateway, *everyone)
    levels = await organiser.client.room_get_state_event(room, "m.room.power_levels")
    await organiser.client.room_put_state(
        room, "m.room.power_levels", {**levels.content, "users": {**levels.content.get("users", {}), bot: 100}}
    )
    return organiser, people, room


async def _register(gateway, organiser: Player, people: list[Player], room: str, kind: str, options: list[str],
                    seed: int | None) -> int:
    found = None
    for _ in range(12):  # the gateway reads the organiser's power level from its sync: a new room may need another
        await organiser.say(room, f"!tournament new {kind}")
        try:
            found = await _wait(lambda: _db_one(select(Tournament.id)), 5, "the tournament", gateway, organiser)
            break
        except AssertionError:
            continue
    assert found is not None, gateway.tail()
    with session_scope() as s:
        tournament = s.get(Tournament, found)
        for value in options:  # the options as its buttons set them (the button taps are tested elsewhere)
            assert tournament_options.set_option(tournament, value) == "ok", value
        if seed is not None:
            tournament.seed = seed
    menu = await organiser.wait_for(lambda p: p.menu(room), 60)  # the tournament message and its choices
    event_id, _, choices = menu
    number = next(n for n, label in choices.items() if label == JOIN)
    for person in people:  # each answers the tournament message's "Register" with its number, as a reply
        await person.client.room_send(room, "m.room.message", {
            "msgtype": "m.text", "body": str(number), "m.relates_to": {"m.in_reply_to": {"event_id": event_id}}})
    registered = select(TournamentPlayer.user_id).where(TournamentPlayer.tournament_id == found)
    await _wait(lambda: len(_db_all(registered)) == len(people), 60, "everyone registered", gateway, *people)
    return found


def _db_one(query) -> Any:
    with session_scope() as s:
        return s.scalar(query)


def _db_all(query) -> list[Any]:
    with session_scope() as s:
        return list(s.scalars(query))


def _tables(tournament_id: int, number: int) -> dict[int, tuple[str, list[str]]]:
    """Round `number`'s games: their room and their people's Matrix ids."""
    with session_scope() as s:
        round_id = s.scalar(select(TournamentRound.id).where(TournamentRound.tournament_id == tournament_id,
                                                             TournamentRound.number == number))
        out = {}
        for table in s.scalars(select(TournamentTable).where(TournamentTable.round_id == round_id)):
            game = s.get(GameRow, table.game_id)
            out[game.id] = (s.get(Chat, game.chat_id).platform_id,
                            [u.platform_id for _, u in sorted(seat_users(s, game.id).items())])
        return out


def _opened(tournament_id: int, number: int, count: int) -> dict[int, tuple[str, list[str]]] | None:
    """Round `number`'s tables once all `count` are opened as rooms (a table's game is created before its room)."""
    tables = _tables(tournament_id, number)
    return tables if len(tables) == count and all(room.startswith("!") for room, _ in tables.values()) else None


async def _rooms_in_space(gateway, people: list[Player], community: str, tables: dict[int, tuple[str, list[str]]]):
    """Each table is a room of its own with exactly its people (and the bot), a child of the community's Space,
    linked from the community room; returns the Space."""
    by_id = {p.user_id: p for p in people}
    rooms = [room for room, _ in tables.values()]
    assert len(set(rooms)) == len(rooms) and community not in rooms and all(r.startswith("!") for r in rooms)
    for room, seated in tables.values():
        await _wait(lambda r=room, s=seated: all(r in by_id[u].client.rooms for u in s), 60, "the table's people",
                    gateway, *people)
    first = by_id[next(iter(tables.values()))[1][0]]
    parents = [e for e in await _state(first, community) if e["type"] == "m.space.parent"]
    assert len(parents) == 1
    space = parents[0]["state_key"]
    await _wait(lambda: space in first.client.rooms, 60, "the Space joined", gateway, *people)
    children = {e["state_key"] for e in await _state(first, space) if e["type"] == "m.space.child"}
    assert community in children and set(rooms) <= children
    for room, seated in tables.values():
        member = by_id[seated[0]]
        state = await _state(member, room)
        assert {e["state_key"] for e in state if e["type"] == "m.space.parent"} == {space}
        joined = set((await _get(member, f"/rooms/{room}/joined_members"))["joined"])
        assert joined == {*seated, gateway.bot_id}
        await _wait(lambda r=room, m=member: any(e.sender == gateway.bot_id for e in m.events[r]
                                                if hasattr(e, "body")), 60, "the table's board", gateway, member)
    links = [f"https://matrix.to/#/{r}" for r in rooms]
    for _ in range(60):  # read from the room's history: a client's sync may skip what came in a burst
        said = " ".join(getattr(e, "body", "") for e in await history(first, community))
        if all(link in said for link in links):
            break
        await asyncio.sleep(1)
    assert all(link in said for link in links), f"the links in the community room\n{gateway.tail()}"
    return space


async def _round_over(gateway, watcher: Player, community: str, tournament_id: int, number: int) -> str:
    """Hand the round's tables to the autopilot at its deadline (as the beat does); the standings follow."""
    tournament_deadlines.scan(past_deadline(tournament_id))
    head = f"📊 Tournament #{tournament_id}: standings after round {number}"

    def standings() -> str | None:
        return next((b for b in watcher.bodies(community) if b.startswith(head)), None)

    return await _wait(standings, 240, f"the standings after round {number}", gateway, watcher)


def _broker(monkeypatch, redis_url: str) -> None:
    """The test process hands jobs to the worker, as the beat would."""
    monkeypatch.setenv("CELERY_BROKER_URL", redis_url)
    get_settings.cache_clear()


def _gateway(homeserver, name: str, redis_url: str) -> GatewayProcess:
    bot_id, password = homeserver.register(name)
    gateway = GatewayProcess(homeserver, bot_id, password, redis_url)
    gateway.start()
    return gateway


def test_board_tournament_of_nine_in_rooms_of_a_space(homeserver, backbone_pg, redis_url, monkeypatch, transcripts):
    async def scenario():
        gateway = _gateway(homeserver, "camelot_tour_board", redis_url)
        began = time.monotonic()
        people: list[Player] = []
        try:
            organiser, people, community = await _community(homeserver, gateway, "tb", 9)
            tid = await _register(gateway, organiser, people, community, "board", ["low-3", "high-3", "rounds-2"],
                                  None)
            await organiser.say(community, "!tournament start")
            first = await _wait(lambda: _opened(tid, 1, 3), 60, "round 1", gateway)
            await _rooms_in_space(gateway, [organiser, *people], community, first)
            one = await _round_over(gateway, organiser, community, tid, 1)
            assert len(one.splitlines()) == 11  # a title, nine rows, a closing line
            second = await _wait(lambda: _opened(tid, 2, 3), 60, "round 2", gateway)
            assert not {r for r, _ in second.values()} & {r for r, _ in first.values()}  # new rooms
            await _rooms_in_space(gateway, [organiser, *people], community, second)
            await _round_over(gateway, organiser, community, tid, 2)
            podium = f"🏆 Tournament #{tid} is over"
            await _wait(lambda: any(b.startswith(podium) for b in organiser.bodies(community)), 60, "the podium",
                        gateway, organiser)
            await settle(organiser, *people)
            transcripts(await client_views([organiser, people[0]]))
            print(f"\nboard tournament of nine on Matrix: {time.monotonic() - began:.1f}s")
        finally:
            for p in people:
                await p.client.close()
            gateway.stop()

    _broker(monkeypatch, redis_url)
    asyncio.run(scenario())


def _silenced_game(games: list[int]) -> int | None:
    with session_scope() as s:
        return next((g for g in games if s.get(GameRow, g).silence), None)


async def _play_until_silence(gateway, people: list[Player], tables: dict[int, tuple[str, list[str]]],
                              skip: set[str], rng: random.Random) -> int:
    """People answer their direct rooms' menus at random until Morgan's silence falls at a table."""
    answered: dict[str, tuple[str, str]] = {}
    deadline = time.monotonic() + 240
    while (game := _silenced_game(list(tables))) is None:
        assert time.monotonic() < deadline, gateway.tail()
        await asyncio.gather(*(p.sync(timeout_ms=150) for p in people))
        for p in people:
            direct = next((r for r, room in p.client.rooms.items()
                           if r not in skip and gateway.bot_id in room.users and room.member_count == 2), None)
            menu = p.menu(direct) if direct else None
            if menu is None or answered.get(p.user_id) == menu[:2]:
                continue
            await p.say(direct, str(rng.choice(list(menu[2]))))
            answered[p.user_id] = menu[:2]
            break
    return game


def test_card_tournament_of_seven_with_a_silence_at_one_table(homeserver, backbone_pg, redis_url, monkeypatch,
                                                              transcripts):
    async def scenario():
        gateway = _gateway(homeserver, "camelot_tour_cards", redis_url)
        people: list[Player] = []
        try:
            organiser, people, community = await _community(homeserver, gateway, "tc", 7)
            tid = await _register(gateway, organiser, people, community, "cards", ["low-3", "high-4", "rounds-2"],
                                  SILENT_SEED)
            await organiser.say(community, "!tournament start")
            first = await _wait(lambda: _opened(tid, 1, 2), 60, "round 1", gateway)
            assert sorted(len(seated) for _, seated in first.values()) == [3, 4]
            space = await _rooms_in_space(gateway, [organiser, *people], community, first)
            skip = {community, space, *(room for room, _ in first.values())}
            silenced = await _play_until_silence(gateway, people, first, skip, random.Random(3))
            by_id = {p.user_id: p for p in people}
            quiet_room, quiet_people = first[silenced]
            (other_room, other_people), = [v for g, v in first.items() if g != silenced]

            def level(room: str, member: str) -> int:
                return by_id[member].client.rooms[room].power_levels.defaults.events_default

            await _wait(lambda: level(quiet_room, quiet_people[0]) >= 50, 60, "the silenced table's room muted",
                        gateway, *people)
            refused = await by_id[quiet_people[1]].client.room_send(
                quiet_room, "m.room.message", {"msgtype": "m.text", "body": "psst"})
            assert isinstance(refused, RoomSendError) and refused.status_code == "M_FORBIDDEN"
            assert level(other_room, other_people[0]) == 0  # the other table talks on
            spoken = await by_id[other_people[1]].client.room_send(
                other_room, "m.room.message", {"msgtype": "m.text", "body": "we may talk"})
            assert not isinstance(spoken, RoomSendError)
            said = await people[0].client.room_send(community, "m.room.message", {"msgtype": "m.text", "body": "hi"})
            assert not isinstance(said, RoomSendError)  # nor is the community room muted

            await _round_over(gateway, organiser, community, tid, 1)
            second = await _wait(lambda: _opened(tid, 2, 2), 60, "round 2", gateway)
            await _rooms_in_space(gateway, [organiser, *people], community, second)
            await _round_over(gateway, organiser, community, tid, 2)
            await settle(organiser, *people)
            transcripts(await client_views([organiser, by_id[quiet_people[0]]]))
        finally:
            for p in people:
                await p.client.close()
            gateway.stop()

    _broker(monkeypatch, redis_url)
    asyncio.run(scenario())
