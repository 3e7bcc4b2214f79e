"""Games that last days over Telegram (issue 24): fake Telegram ↔ `camelot serve --telegram` ↔ Celery worker, and
`camelot beat` scanning the deadlines every second. The lobby sets deadlines of seconds (`/set turn`, `/set
response`), so a night or a vanished player fits in a minute.

- A card game paused "overnight": Arthur (the creator) sends /pause mid-game; the board shows ⏸, and for longer
  than any open deadline had left nothing at all happens (no reminder, no timeout); /resume gives every deadline the
  time it had left, and the game is played to its end.
- An idle player: Gawain never taps; after his second timeout in a row his seat goes to the autopilot, the group is
  told a substitute is wanted, and the game no longer waits a deadline on his seat; his tap on "play it again"
  takes the seat back, and he plays on by hand.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from fake_bot_api import FakeBotApi
from fake_bot_api.server import DEFAULT_BOT_RIGHTS
from telegram_players import Table
from telegram_stack import Stack
from telegram_transcript import transcripts as phones
from test_telegram_games import game_row, open_table, outbox_drained, settle
from test_telegram_substitute import _lobby_button

from service.render.i18n import t
from service.store.models import utcnow
from tests.e2e.days_checks import deadlines, moves, paused_at, pilot, piloted_after, played_by_hand

pytestmark = pytest.mark.e2e
SEED = 3
SCAN = 1.0  # the beat's interval, seconds
PAUSED = t("en", "days.paused_mark")


def _board(group: Any) -> str:
    """The pinned board's text (its caption, under a picture)."""
    return (group.messages[group.pinned].text or "") if group.pinned is not None else ""


def test_a_card_game_paused_overnight_and_resumed_over_telegram(
    stack: Stack, fake_api: FakeBotApi, transcripts: Any
) -> None:
    arthur, gawain = (fake_api.add_user(name) for name in ("Arthur", "Gawain"))
    try:
        _pause_overnight(fake_api, stack, arthur, gawain)
    finally:
        transcripts(phones(fake_api, [arthur, gawain]))


def _pause_overnight(api: FakeBotApi, stack: Stack, arthur: Any, gawain: Any) -> None:
    stack.start_beat(SCAN)
    options = {"turn": "0.004", "response": "0.25"}  # 14.4 s and 15 s
    group, game_id, _ = open_table(api, "cards", [arthur, gawain], SEED, DEFAULT_BOT_RIGHTS, lobby_options=options)
    table = Table(api, [arthur, gawain], SEED)
    table.play_until(lambda: game_row(game_id)[1] >= 3, timeout=60)

    api.say(arthur, group.id, "/pause")
    api.wait(lambda: paused_at(game_id) is not None, 30, "the pause")
    since = paused_at(game_id)
    api.wait(lambda: _board(group).startswith(PAUSED), 30, "⏸ on the pinned board")
    settle(api, game_id)  # taps that were on their way are played; the outbox is drained
    frozen, before, heard = deadlines(game_id), game_row(game_id), len(api.records())
    assert frozen, "a decision is open while the game is paused"
    night = max(frozen.values()) - utcnow() + timedelta(seconds=4 * SCAN)
    time.sleep(max(night.total_seconds(), 0))  # beyond the time any deadline had left, and a few scans more
    assert game_row(game_id) == before, "a move was played while paused"
    assert deadlines(game_id) == frozen, "a deadline moved while paused"
    assert api.records()[heard:] == [], "a reminder or a timeout reached Telegram while paused"

    api.say(arthur, group.id, "/resume")
    api.wait(lambda: paused_at(game_id) is None, 30, "the resume")
    resumed = deadlines(game_id)
    stood = utcnow() - since
    for seat, due in frozen.items():  # each runs on with the time it had left: moved on by the night's length
        assert resumed[seat] - due >= stood - timedelta(seconds=3), (seat, due, resumed[seat], stood)
        assert resumed[seat] > utcnow()
    api.wait(lambda: not _board(group).startswith(PAUSED), 30, "the board without ⏸")

    table.play_until(lambda: game_row(game_id)[0] == "finished", timeout=240)
    api.wait(outbox_drained, 60, "the outbox to drain")
    groups = [r.text for r in api.records(group.id)]
    assert t("en", "days.paused", name="Arthur") in groups and t("en", "days.resumed", name="Arthur") in groups
    print("paused card game over Telegram:", {"moves": game_row(game_id)[2], "night_s": round(night.total_seconds())})


def test_an_idle_player_goes_to_the_autopilot_and_comes_back_over_telegram(
    stack: Stack, fake_api: FakeBotApi, transcripts: Any
) -> None:
    arthur, gawain = (fake_api.add_user(name) for name in ("Arthur", "Gawain"))
    try:
        _idle_and_back(fake_api, stack, arthur, gawain)
    finally:
        transcripts(phones(fake_api, [arthur, gawain]))


TURN_S, RESPONSE_S = 7.2, 6.0


def _idle_and_back(api: FakeBotApi, stack: Stack, arthur: Any, gawain: Any) -> None:
    stack.start_beat(SCAN)
    options = {"turn": "0.002", "response": "0.1", "idle": "2"}  # 7.2 s, 6 s, two timeouts in a row
    group, game_id, _ = open_table(api, "cards", [arthur, gawain], SEED, DEFAULT_BOT_RIGHTS, lobby_options=options)
    alone = Table(api, [arthur], SEED)  # Gawain has vanished: he never taps
    alone.play_until(lambda: pilot(game_id, 1) == "idle", timeout=120)
    escalated = game_row(game_id)[1]
    timeouts = [(seat, by) for _, seat, by, _ in moves(game_id) if by == "timeout"]
    assert timeouts == [(1, "timeout"), (1, "timeout")], timeouts
    api.wait(lambda: _lobby_button(api, group.id, "sub"), 30, "the call for a substitute")
    groups = [r.text for r in api.records(group.id)]
    assert t("en", "days.autopilot.idle", name="Gawain") in groups
    assert t("en", "days.sub_wanted", name="Gawain", game_id=game_id) in groups

    waited_on_him: list[int] = []
    alone.play_until(
        lambda: len(piloted_after(game_id, escalated, 1)) >= 3,
        timeout=60,
        on_step=lambda: waited_on_him.append(1) if 1 in deadlines(game_id) else None,
    )
    assert not waited_on_him, "a deadline was set on the autopilot's seat"
    piloted = piloted_after(game_id, escalated, 1)
    assert all(move[2] == "bot" for _, move in piloted), piloted
    slowest = max((move[3] - prev[3]).total_seconds() for prev, move in piloted)
    assert slowest < min(TURN_S, RESPONSE_S), f"the game waited {slowest:.1f} s on the autopilot's seat"

    message_id, back = api.wait(lambda: _lobby_button(api, gawain.id, "reclaim"), 30, "Gawain's way back")
    api.tap(gawain, gawain.id, message_id, back)
    api.wait(lambda: pilot(game_id, 1) is None, 30, "the seat back with Gawain")
    returned = game_row(game_id)[1]
    by_hand = lambda: played_by_hand(game_id, returned, 1)  # noqa: E731
    Table(api, [arthur, gawain], SEED + 1).play_until(lambda: by_hand() or game_row(game_id)[0] != "active", 60)
    assert by_hand(), "Gawain played his seat again by hand"
    told = t("en", "days.back", name="Gawain")
    api.wait(lambda: told in [r.text for r in api.records(group.id)], 30, "the group told Gawain is back")
    print("idle player over Telegram:", {"escalated_at": escalated, "slowest_autopilot_s": round(slowest, 2)})
