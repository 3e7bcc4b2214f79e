"""A bot's turn reads as one group message (`service.delivery.gather`): the lines of one seat's consecutive moves
join its message while nothing else was posted below it, and never beyond the platform's limit."""

from __future__ import annotations

from service.chat.base import PermanentError
from service.delivery.senders import deliver_chat, deliver_shard
from service.render.narration.messages import TELEGRAM_LIMIT
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


def test_a_persons_move_is_never_gathered(backbone_pg, recording):
    queue(bot("⚫ Bot 3 draws Morgan"))
    queue(("send", {"text": "🧙 Arthur plays Merlin"}))
    queue(bot("🗡 Bot 3 pushes Excalibur: 6/10"))
    assert shown(recording) == ["⚫ Bot 3 draws Morgan", "🧙 Arthur plays Merlin", "🗡 Bot 3 pushes Excalibur: 6/10"]


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
