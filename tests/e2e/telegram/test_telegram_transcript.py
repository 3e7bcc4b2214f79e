"""The Telegram transcript shows a chat as a phone does: an edited message once, as last edited, marked; a photo
with its caption; the live keyboard under its message; a forum's topics under their names."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import telegram_transcript
from fake_bot_api import FORUM_BOT_RIGHTS, FakeBotApi, RateLimits
from fake_bot_api.calls import call, form_call, keyboard
from telegram_transcript import transcript

from tests.e2e.chat_transcript import ENV


def test_edits_photos_keyboards_and_topics_as_a_phone_shows_them(
    fake_api: FakeBotApi,
    transcripts: Callable[[dict[str, str]], list[Path]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_api.world.limits = RateLimits.lifted()
    ann, bob, carl = fake_api.add_user("Ann"), fake_api.add_user("Bob"), fake_api.add_user("Carl")
    forum = fake_api.add_group("Tables", [ann, bob], bot_rights=FORUM_BOT_RIGHTS, forum=True)
    fake_api.open_bot(ann)
    panel = call(fake_api, "sendMessage", chat_id=ann.id, text="Your turn", reply_markup=keyboard([["Fight", "Pass"]]))
    for text in ("Your turn: the siege", "Your turn: <b>the Grail</b>"):
        call(
            fake_api,
            "editMessageText",
            chat_id=ann.id,
            message_id=panel["result"]["message_id"],
            text=text,
            parse_mode="HTML",
            reply_markup=keyboard([["Fight", "Pass"]]),
        )
    table = call(fake_api, "createForumTopic", chat_id=forum.id, name="Table 1")["result"]["message_thread_id"]
    photo = form_call(
        fake_api,
        "sendPhoto",
        files={"photo": b"\x89PNG"},
        chat_id=forum.id,
        message_thread_id=table,
        caption="Board\n⚔ 3 white",
        reply_markup=keyboard([["Status"]]),
    )
    call(fake_api, "pinChatMessage", chat_id=forum.id, message_id=photo["result"]["message_id"])
    fake_api.say(bob, forum.id, "good luck")
    call(fake_api, "closeForumTopic", chat_id=forum.id, message_thread_id=table)

    seen = transcript(fake_api, ann)
    direct, group = seen.split("═══ Ann · group «Tables» ═══")
    assert "You: /start" in direct
    assert "Camelot: Your turn: the Grail\n    [ Fight ] [ Pass ]\n    (edited 2×)" in direct
    assert "the siege" not in direct  # an edit replaces in place
    general, topic = group.split("── topic «Table 1» (closed) ──")
    assert "Bob: good luck" in general and "Board" not in general
    assert (
        topic.index("· Camelot created the topic «Table 1»")
        < topic.index("📌 Camelot: [photo: Board\n    ⚔ 3 white]\n    [ Status ]")
        < topic.index("· Camelot closed the topic")
    )
    assert "Tables" not in transcript(fake_api, carl)  # not a member: not on Carl's phone

    chosen = tmp_path / "chosen"
    monkeypatch.setenv(ENV, str(chosen))
    written = transcripts(telegram_transcript.transcripts(fake_api))
    assert {p.parent for p in written} == {tmp_path / "transcripts", chosen / written[-1].parent.name}
    assert (chosen / written[-1].parent.name / "Ann.txt").read_text(encoding="utf-8") == seen
