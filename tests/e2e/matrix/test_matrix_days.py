"""Games that last days over Matrix (issue 24): a real Synapse, the real gateway with a `camelot worker` and
`camelot beat` scanning the deadlines every second, real nio clients answering with numbers. The lobby sets
deadlines of seconds (`!set turn`, `!set response`), so a night or a vanished player fits in a minute.

- A card game paused "overnight": the creator sends !pause mid-game; the board shows ⏸, and for longer than any open
  deadline had left the bot sends nothing to anyone; !resume gives every deadline the time it had left, and the game
  is played to its end.
- An idle player: the second never answers; after his second timeout in a row his seat goes to the autopilot, the
  group is told a substitute is wanted, and the game no longer waits a deadline on his seat; his answer to "play it
  again" takes the seat back, and he plays on by hand.
"""

from __future__ import annotations

import asyncio
import random
import time
from datetime import timedelta

import pytest
from matrix_players import Player
from test_matrix_games import BACK, GatewayProcess, _direct_room, _drained, _game_status, _open_table, _start_gateway
from test_matrix_substitute import _numbered

from service.matrix.numbered import render
from service.render.i18n import t as text
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow, utcnow
from tests.e2e.days_checks import deadlines, moves, paused_at, pilot, piloted_after, played_by_hand

pytestmark = pytest.mark.e2e
SEED = 3
SCAN = 1.0  # the beat's interval, seconds


def t(lang: str, msgid: str, **kwargs: str | int) -> str:
    """A text as a Matrix room shows it (its commands written `!resume`)."""
    return render(text(lang, msgid, **kwargs), None)[0]


PAUSED = t("en", "days.paused_mark")
TURN_S, RESPONSE_S = 7.2, 6.0


def _seq(game_id: int) -> int:
    with session_scope() as s:
        return s.get(GameRow, game_id).seq


def _name(game_id: int, seat: int) -> str:
    with session_scope() as s:
        user = game_rows.seat_users(s, game_id)[seat]
        return user.name or user.platform_id


async def _answer_until(
    done,
    answering: list[Player],
    everyone: list[Player],
    gateway: GatewayProcess,
    bot_id: str,
    group: str,
    rng: random.Random,
    timeout: float,
) -> int:
    """`answering` answer their newest menu with a random number (never "back") until `done()`; a menu answered
    and unchanged is answered again after a while (the answer may have been a step between menu levels). Returns
    how many answers were sent."""
    answered: dict[str, tuple[str, str, float]] = {}
    sent = 0
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end and gateway.alive(), f"not done in {timeout} s\n{gateway.tail()}"
        await asyncio.gather(*(p.sync(timeout_ms=150) for p in everyone))
        for p in answering:
            dm = _direct_room(p, bot_id, group)
            menu = p.menu(dm) if dm else None
            if menu is None:
                continue
            event_id, body, choices = menu
            last = answered.get(p.user_id)
            if last and last[:2] == (event_id, body) and time.monotonic() - last[2] < 3.0:
                continue
            numbers = [n for n, label in choices.items() if label != BACK] or list(choices)
            await p.say(dm, str(rng.choice(numbers)))
            answered[p.user_id] = (event_id, body, time.monotonic())
            sent += 1
    return sent


async def _still(game_id: int, gateway: GatewayProcess, players: list[Player]) -> None:
    """The moves on their way are played and delivered: the game stands still."""
    last = None
    while (now := _seq(game_id)) != last:
        last = now
        await _drained(gateway, players)
        await asyncio.sleep(1.0)


def _from_bot(players: list[Player], bot_id: str) -> int:
    """How many events the bot sent that the players have seen, in every room."""
    return sum(e.sender == bot_id for p in players for events in p.events.values() for e in events)


def _board_paused(player: Player, group: str) -> bool:
    return any(body.startswith(PAUSED) for _, body in player.current(group))


def test_a_card_game_paused_overnight_and_resumed_over_matrix(homeserver, backbone_pg, redis_url, transcripts):
    async def scenario():
        gateway, bot_id = _start_gateway(homeserver, "camelot_pause", broker=redis_url)
        gateway.start_beat(SCAN)
        players: list[Player] = []
        try:
            options = {"turn": "0.004", "response": "0.25"}  # 14.4 s and 15 s
            game_id, group, _community, players = await _open_table(
                homeserver, gateway, bot_id, "cards", ["arthur_p", "gawain_p"], seed=SEED, lobby_options=options
            )
            arthur = players[0]
            rng = random.Random(SEED)
            await _answer_until(lambda: _seq(game_id) >= 3, players, players, gateway, bot_id, group, rng, 60)

            await arthur.say(group, "!pause")
            await _answer_until(lambda: paused_at(game_id) is not None, [], players, gateway, bot_id, group, rng, 30)
            since = paused_at(game_id)
            await _answer_until(lambda: _board_paused(arthur, group), [], players, gateway, bot_id, group, rng, 30)
            await _still(game_id, gateway, players)
            frozen, before, heard = deadlines(game_id), _seq(game_id), _from_bot(players, bot_id)
            assert frozen, "a decision is open while the game is paused"
            night = max(frozen.values()) - utcnow() + timedelta(seconds=4 * SCAN)
            until = time.monotonic() + night.total_seconds()
            while time.monotonic() < until:  # beyond the time any deadline had left, and a few scans more
                await asyncio.gather(*(p.sync(timeout_ms=500) for p in players))
            assert _seq(game_id) == before, "a move was played while paused"
            assert deadlines(game_id) == frozen, "a deadline moved while paused"
            assert _from_bot(players, bot_id) == heard, "a reminder or a timeout reached a room while paused"

            await arthur.say(group, "!resume")
            await _answer_until(lambda: paused_at(game_id) is None, [], players, gateway, bot_id, group, rng, 30)
            resumed, stood = deadlines(game_id), utcnow() - since
            for seat, due in frozen.items():  # each runs on with the time it had left
                assert resumed[seat] - due >= stood - timedelta(seconds=3), (seat, due, resumed[seat], stood)
                assert resumed[seat] > utcnow()
            await _answer_until(lambda: not _board_paused(arthur, group), [], players, gateway, bot_id, group, rng, 30)

            await _answer_until(
                lambda: _game_status(game_id) == "finished", players, players, gateway, bot_id, group, rng, 240
            )
            await _drained(gateway, players)
            bodies = arthur.bodies(group)
            name = _name(game_id, 0)
            assert t("en", "days.paused", name=name) in bodies and t("en", "days.resumed", name=name) in bodies
            night_s = round(night.total_seconds())
            print("paused card game over Matrix:", {"moves": len(moves(game_id)), "night_s": night_s})
        finally:
            transcripts({p.user_id: "\n".join(b for room in p.events for b in p.bodies(room)) for p in players})
            for p in players:
                await p.close()
            gateway.stop()

    asyncio.run(scenario())


def test_an_idle_player_goes_to_the_autopilot_and_comes_back_over_matrix(
    homeserver, backbone_pg, redis_url, transcripts
):
    async def scenario():
        gateway, bot_id = _start_gateway(homeserver, "camelot_idle", broker=redis_url)
        gateway.start_beat(SCAN)
        players: list[Player] = []
        try:
            options = {"turn": "0.002", "response": "0.1", "idle": "2"}  # 7.2 s, 6 s, two timeouts in a row
            game_id, group, _community, players = await _open_table(
                homeserver, gateway, bot_id, "cards", ["arthur_i", "gawain_i"], seed=SEED, lobby_options=options
            )
            arthur, gawain = players
            rng = random.Random(SEED)
            answer = lambda done, who, timeout: _answer_until(  # noqa: E731
                done, who, players, gateway, bot_id, group, rng, timeout
            )
            await answer(lambda: pilot(game_id, 1) == "idle", [arthur], 120)  # Gawain has vanished
            escalated = _seq(game_id)
            timeouts = [(seat, by) for _, seat, by, _ in moves(game_id) if by == "timeout"]
            assert timeouts == [(1, "timeout"), (1, "timeout")], timeouts
            name = _name(game_id, 1)
            wanted = t("en", "days.sub_wanted", name=name, game_id=game_id)
            await answer(lambda: any(wanted in body for body in arthur.bodies(group)), [], 30)
            assert t("en", "days.autopilot.idle", name=name) in arthur.bodies(group)

            waited_on_him: list[int] = []

            def three_piloted() -> bool:
                if 1 in deadlines(game_id):
                    waited_on_him.append(1)
                return len(piloted_after(game_id, escalated, 1)) >= 3

            await answer(three_piloted, [arthur], 60)
            assert not waited_on_him, "a deadline was set on the autopilot's seat"
            piloted = piloted_after(game_id, escalated, 1)
            assert all(move[2] == "bot" for _, move in piloted), piloted
            slowest = max((move[3] - prev[3]).total_seconds() for prev, move in piloted)
            assert slowest < min(TURN_S, RESPONSE_S), f"the game waited {slowest:.1f} s on the autopilot's seat"

            dm = _direct_room(gawain, bot_id, group)
            label = t("en", "days.button.reclaim")
            await answer(lambda: _numbered(gawain, dm, label), [], 30)
            await gawain.say(dm, str(_numbered(gawain, dm, label)))
            await answer(lambda: pilot(game_id, 1) is None, [], 30)
            returned = _seq(game_id)
            await answer(lambda: played_by_hand(game_id, returned, 1) or _game_status(game_id) != "active", players, 60)
            assert played_by_hand(game_id, returned, 1), "Gawain played his seat again by hand"
            await answer(lambda: t("en", "days.back", name=name) in arthur.bodies(group), [], 30)
            print("idle player over Matrix:", {"escalated_at": escalated, "slowest_autopilot_s": round(slowest, 2)})
        finally:
            transcripts({p.user_id: "\n".join(b for room in p.events for b in p.bodies(room)) for p in players})
            for p in players:
                await p.close()
            gateway.stop()

    asyncio.run(scenario())
