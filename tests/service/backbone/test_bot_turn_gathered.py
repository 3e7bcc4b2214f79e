"""A seat's turn reads as one group message (`service.delivery.gather`): the lines of one seat's consecutive moves
join its message while nothing else was posted below it, and never beyond the platform's limit; a person's only while
each move comes within the run's window of the one before."""

from __future__ import annotations

import itertools
import time

import pytest

from service.chat.base import PermanentError
from service.delivery.senders import deliver_chat, deliver_shard
from service.render.narration.messages import TELEGRAM_LIMIT
from service.settings import get_settings
from service.store import outbox, session_scope


def queue(*rows: tuple[str, dict]) -> None:
    """Rows for the group, in order: ("send", payload) or ("upsert:<ref>", payload)."""
    with session_scope() as s:
        for op, payload in rows:
            if op.startswith("upsert:"):
                outbox.upsert(s, "rec", "grp", op.removeprefix("upsert:"), payload, is_group=True)
            else:
                outbox.add(s, "rec", "grp", op, payload, is_group=True)
    deliver_chat("rec", "grp", in_process=True)


def shown(recording) -> list[str]:
    """The group's messages as last edited, in order."""
    texts: dict[str, str] = {}
    for call in recording.sent("grp"):
        texts[call.message_id] = call.text
    return list(texts.values())


def bot(text: str, seat: int = 2) -> tuple[str, dict]:
    return "send", {"text": text, "run": f"1:{seat}"}


def test_a_bots_moves_join_its_message_until_something_else_is_posted(backbone_pg, recording):
    queue(("upsert:board:1", {"text": "board v0"}))  # the pinned board, above the story
    queue(bot("⚫ Bot 3 draws Mercenaries"), bot("🐎 Bot 3 rides to Excalibur"))  # one batch: one message
    assert shown(recording) == ["board v0", "⚫ Bot 3 draws Mercenaries\n🐎 Bot 3 rides to Excalibur"]
    queue(("upsert:board:1", {"text": "board v1"}), bot("🗡 Bot 3 pushes Excalibur: 6/10"))  # later: an edit
    queue(("upsert:board:1", {"text": "board v2"}), bot("▶ Turn 3: Arthur"))  # the board's edits do not cut it
    assert shown(recording) == [
        "board v2",
        "⚫ Bot 3 draws Mercenaries\n🐎 Bot 3 rides to Excalibur\n🗡 Bot 3 pushes Excalibur: 6/10\n▶ Turn 3: Arthur",
    ]
    assert [c.method for c in recording.sent("grp")].count("send_text") == 2  # the rest were edits

    queue(("send", {"text": "Arthur, the game is waiting for you"}), bot("⚫ Bot 3 draws Morgan"))
    assert shown(recording)[-2:] == ["Arthur, the game is waiting for you", "⚫ Bot 3 draws Morgan"]  # not above it
    queue(bot("⚫ Bot 4 draws Morgan", seat=3))  # another seat's turn: its own message
    assert shown(recording)[-1] == "⚫ Bot 4 draws Morgan"
    queue(bot("x" * (TELEGRAM_LIMIT - 10), seat=3))  # past the limit together: a message of its own
    assert shown(recording)[-2:] == ["⚫ Bot 4 draws Morgan", "x" * (TELEGRAM_LIMIT - 10)]


def person(text: str, within: float = 120.0, seat: int = 0) -> tuple[str, dict]:
    return "send", {"text": text, "run": f"1:{seat}", "within": within}


def test_a_row_without_a_run_is_never_gathered_and_ends_the_run_above_it(backbone_pg, recording):
    queue(bot("⚫ Bot 3 draws Morgan"))
    queue(("send", {"text": "Arthur ran out of time; a safe choice was played for them."}))
    queue(bot("🗡 Bot 3 pushes Excalibur: 6/10"))
    assert shown(recording) == [
        "⚫ Bot 3 draws Morgan",
        "Arthur ran out of time; a safe choice was played for them.",
        "🗡 Bot 3 pushes Excalibur: 6/10",
    ]


def test_a_persons_quick_taps_of_one_turn_read_as_one_message(backbone_pg, recording):
    queue(bot("▶ Turn 3: Arthur"))
    queue(person("😈 Arthur adds a siege engine: ⚙ 1/12"))  # another seat's run: a message of its own
    queue(person("🃏 Arthur draws 3 cards"))
    queue(person("🐎 Arthur rides to Picts\n▶ Turn 4: Bot 2"))
    queue(bot("⚫ Bot 2 draws Excalibur", seat=1))
    assert shown(recording) == [
        "▶ Turn 3: Arthur",
        "😈 Arthur adds a siege engine: ⚙ 1/12\n🃏 Arthur draws 3 cards\n🐎 Arthur rides to Picts\n▶ Turn 4: Bot 2",
        "⚫ Bot 2 draws Excalibur",
    ]


def test_a_persons_move_after_the_window_is_a_message_of_its_own(backbone_pg, recording):
    queue(person("😈 Arthur adds a siege engine: ⚙ 1/12", within=0.3))
    time.sleep(0.5)  # a pause: the group may have talked meanwhile, unseen by the bot
    queue(person("🃏 Arthur draws 3 cards", within=0.3))
    assert shown(recording) == ["😈 Arthur adds a siege engine: ⚙ 1/12", "🃏 Arthur draws 3 cards"]


def test_a_shards_batch_sends_a_runs_rows_as_one_message(backbone_pg, recording):
    """The broker's sender takes a shard's rows in one batch: a run's rows in it go as one message, sent once."""
    with session_scope() as s:
        for text in ("⚫ Bot 3 draws Mercenaries", "🐎 Bot 3 rides to Excalibur", "🗡 Bot 3 pushes Excalibur: 6/10"):
            outbox.add(s, "rec", "grp", "send", {"text": text, "run": "1:2"}, is_group=True)
    deliver_shard("rec", outbox.shard_of("grp"))
    assert [(c.method, c.text) for c in recording.sent("grp")] == [
        ("send_text", "⚫ Bot 3 draws Mercenaries\n🐎 Bot 3 rides to Excalibur\n🗡 Bot 3 pushes Excalibur: 6/10")
    ]
    with session_scope() as s:
        assert outbox.pending_for_chat(s, "rec", "grp") == []  # all three rows are done


def test_a_runs_message_past_editing_gets_the_new_lines_in_a_message_of_their_own(backbone_pg, recording):
    queue(bot("⚫ Bot 3 draws Mercenaries"))
    recording.fail_next(PermanentError("message can't be edited"))
    queue(bot("🐎 Bot 3 rides to Excalibur"))
    queue(bot("🗡 Bot 3 pushes Excalibur: 6/10"))  # the run goes on in the new message
    after = "🐎 Bot 3 rides to Excalibur\n🗡 Bot 3 pushes Excalibur: 6/10"
    assert shown(recording) == ["⚫ Bot 3 draws Mercenaries", after]


@pytest.fixture
def busy_group(backbone_pg, recording, monkeypatch):
    """Telegram's rates, with a group interval long enough that a group sends once in a test."""
    monkeypatch.setenv("TELEGRAM_CHAT_INTERVAL", "0.05")
    monkeypatch.setenv("TELEGRAM_GROUP_INTERVAL", str(GROUP))
    get_settings.cache_clear()
    return recording


GROUP = 0.5


def queue_shard(*texts: str, seat: int = 2) -> None:
    with session_scope() as s:
        for text in texts:
            outbox.add(s, "rec", "grp", "send", {"text": text, "run": f"1:{seat}"}, is_group=True)


def pending() -> list[str]:
    with session_scope() as s:
        return [row.payload["text"] for row in outbox.pending_for_chat(s, "rec", "grp")]


def test_a_bots_turn_queued_behind_a_busy_group_costs_one_call_not_one_per_move(busy_group):
    """The substitute game's backlog: a group at its rate (20/min) sent a bot's moves one pass and one rate slot
    each, so the gathering never happened in the shard's sender and a long game's end drained past the e2e's 120 s.
    A run's rows ride with the first one's rate: one call, every row done."""
    moves = [f"⚫ Bot 3 move {i}" for i in range(6)]
    queue_shard(*moves)
    deliver_shard("rec", outbox.shard_of("grp"))
    assert [(c.method, c.text) for c in busy_group.sent("grp")] == [("send_text", "\n".join(moves))]
    assert pending() == []

    time.sleep(GROUP + 0.05)  # the group's rate again: the run goes on in its message, more moves in one edit
    queue_shard("🐎 Bot 3 rides", "🗡 Bot 3 pushes")
    deliver_shard("rec", outbox.shard_of("grp"))
    calls = busy_group.sent("grp")
    assert [c.method for c in calls] == ["send_text", "edit_text"]
    assert calls[-1].text == "\n".join([*moves, "🐎 Bot 3 rides", "🗡 Bot 3 pushes"])
    assert pending() == []


def test_a_rider_past_the_limit_waits_for_its_own_rate(busy_group):
    """A run's row that cannot join (the message would pass the platform's limit) is not sent without a rate: it
    and the chat's later rows wait for the group's next slot, in order (the in-process sender waits them out)."""
    long = "x" * (TELEGRAM_LIMIT - 10)
    queue_shard("⚫ Bot 3 draws Morgan", long, "🐎 Bot 3 rides")
    deliver_shard("rec", outbox.shard_of("grp"))
    calls = busy_group.sent("grp")
    assert [(c.method, c.text) for c in calls] == [
        ("send_text", "⚫ Bot 3 draws Morgan"),
        ("send_text", long),
        ("send_text", "🐎 Bot 3 rides"),  # past the limit with the long one too
    ]
    assert all(b.at - a.at >= GROUP * 0.9 for a, b in itertools.pairwise(calls))  # each took the group rate
    assert pending() == []


def test_a_move_marks_its_group_lines_with_its_seats_run_a_persons_with_its_window(backbone_pg, recording):
    from sqlalchemy import select

    from service.play import lobby
    from service.play.move_messages import PERSON_RUN
    from service.store.models import OutboxRow
    from tests.service.days.helpers import buttons, tap

    game_id = lobby.create_and_start("rec", "grp", "board", {}, ["alice"], 4, seed=5)
    for _ in range(3):  # alice answers what she is asked; the bots play at once between her answers
        tap("alice", [b for b in buttons(recording.sent("dm-alice")) if not b.startswith("!")][-1])
    with session_scope() as s:
        runs = [
            row.payload
            for row in s.scalars(select(OutboxRow).where(OutboxRow.chat == "grp", OutboxRow.op == "send"))
            if "run" in row.payload
        ]
    mine = [p for p in runs if p["run"] == f"{game_id}:0"]
    bots = [p for p in runs if p["run"] != f"{game_id}:0"]
    assert mine and all(p["within"] == PERSON_RUN for p in mine)
    assert bots and all("within" not in p for p in bots)  # a bot's run lasts its turn
