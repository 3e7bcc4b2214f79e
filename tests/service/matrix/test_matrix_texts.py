"""Matrix has no bot buttons (a choice is a numbered line answered with its number): no text a Matrix room is sent
names a button or a tap, in any language, and the commands it names are `!` commands."""

from __future__ import annotations

import itertools
import re

import pytest

from service.chat import registry
from service.chat.recording import RecordingAdapter
from service.matrix import numbered
from service.play import commands
from service.render import i18n
from tests.conftest import FAST_RATES

LANGS = ("en", "cs", "it", "nl", "pl", "ro")
# The words for "button" and for tapping one, as each catalogue spells them (stems: every case and number).
BUTTON_WORDS = {
    "en": r"\bbutton|\btap(s|ped|ping)?\b",
    "cs": r"tlačít|klep",
    "it": r"pulsant|\btocchi\b|\btocca (qui|sotto|il|un)",  # not "tocca a te", whose turn it is
    "nl": r"\bknop|\btik",
    "pl": r"przycisk|stukn",
    "ro": r"\bbuton|\bapăs|\bapas",
}
# Every command a person can type, with words where its answer needs them, in a group and in a direct room.
GROUP = [
    ["help"],
    ["welcome"],
    ["rules"],
    ["rules", "cards"],
    ["card", "Merlin"],
    ["tournament"],
    ["tournament", "help"],
    ["ratings"],
    ["me"],
    ["status"],
    ["log"],
    ["newgame", "board", "5"],
    ["status"],
    ["set", "lang", "xx"],
    ["join"],
    ["leave"],
    ["start"],
    ["abort"],
    ["sub"],
    ["pause"],
    ["resume"],
    ["away", "3d"],
    ["back"],
    ["autopilot", "1"],
    ["replace", "1"],
    ["follow", "1"],
    ["unfollow"],
    ["set", "quiet", "23-08"],
]
DIRECT = [
    ["welcome"],
    ["help"],
    ["rules"],
    ["card", "Excalibur"],
    ["status"],
    ["log"],
    ["follow", "1"],
    ["unfollow"],
    ["away", "12h"],
    ["back"],
    ["me"],
    ["ratings"],
    ["tournament"],
    ["newgame"],
    ["leave"],
    ["sub"],
]


@pytest.fixture
def matrix(backbone_pg, monkeypatch):
    for var, value in FAST_RATES.items():
        monkeypatch.setenv(var, value)
    adapter = RecordingAdapter("matrix")
    registry.register("matrix", lambda: adapter)
    yield adapter
    registry.unregister("matrix")


def test_no_message_in_any_catalogue_names_a_button():
    """The catalogue's texts go to Matrix rooms as they are: none may speak of buttons or taps (a button's own
    label may say what it does, never that it is one)."""
    for lang in LANGS:
        words = re.compile(BUTTON_WORDS[lang], re.IGNORECASE)
        found = []
        for message in i18n._catalog(lang):
            if not message.id:
                continue
            strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            found += [(message.id, s) for s in strings if s and words.search(s)]
        assert found == [], lang


@pytest.mark.parametrize("lang", LANGS)
def test_what_every_command_answers_in_a_matrix_room_names_no_button(matrix, lang):
    ids = itertools.count(1)
    runs = [(cmd, True) for cmd in GROUP] + [(cmd, False) for cmd in DIRECT]
    for (verb, *args), is_group in runs:
        commands.handle(
            {
                "platform": "matrix",
                "chat": f"!room-{lang}:x" if is_group else f"!dm-{lang}:x",
                "user": f"@ann-{lang}:x",
                "user_name": "Ann",
                "update_id": f"$ev-{lang}-{next(ids)}",
                "command": verb,
                "args": args,
                "is_group": is_group,
                "language": lang,
                "chat_title": "Round Table",
            }
        )
    shown = [numbered.render(call.text, call.buttons)[0] for call in matrix.sent()]
    assert len(shown) >= len(DIRECT)  # every direct command is answered at least
    words = re.compile(BUTTON_WORDS[lang], re.IGNORECASE)
    assert [text for text in shown if words.search(text)] == []
    slash = re.compile(r"(?<![^\s(\[\"'«“])/[a-z]")
    assert [text for text in shown if slash.search(text)] == []  # `!help`, never `/help`
    assert any("!newgame" in text for text in shown)  # the help names the commands, as Matrix types them
