"""Numbered choices: rendering, parsing answers, and the per-room number → button-data maps."""

from __future__ import annotations

from service.chat.base import Button
from service.matrix import numbered
from service.matrix.choices import KEEP_MENUS, ChoiceMaps
from service.sessions import MemorySessions


def test_render_numbers_every_button_in_order():
    body, mapping = numbered.render("Your turn", [[Button("Move", "1:2:@move"), Button("Fight", "1:2:@fight")],
                                                 [Button("Pass", "1:2:pass")]])
    assert body == "Your turn\n\n1. Move\n2. Fight\n3. Pass"
    assert mapping == {"1": "1:2:@move", "2": "1:2:@fight", "3": "1:2:pass"}
    assert numbered.render("Board", None) == ("Board", {})


def test_parse_number_accepts_plain_and_reply_answers_only():
    assert numbered.parse_number("3") == 3
    assert numbered.parse_number(" #12. ") == 12
    assert numbered.parse_number("> <@bot:x> Your turn\n> 1. Move\n\n2") == 2
    for text in ("3 please", "hello", "", "1.5", "-1"):
        assert numbered.parse_number(text) is None


def test_reaction_keys():
    assert numbered.reaction_number("1️⃣") == 1
    assert numbered.reaction_number("🔟") == 10
    assert numbered.reaction_number("3\u20e3") == 3  # keycap without the variation selector
    assert numbered.reaction_number("👍") is None


def test_choice_maps_latest_menu_and_staleness():
    maps = ChoiceMaps(MemorySessions())
    maps.remember("!r", "$a", {"1": "L1:join"})
    maps.remember("!r", "$b", {"1": "5:1:pass", "2": "5:1:@fight"})
    assert maps.lookup("!r", 2) == "5:1:@fight"
    assert maps.lookup("!r", 1, event_id="$a") == "L1:join"
    assert maps.lookup("!r", 3) is None
    assert maps.lookup("!other", 1) is None
    maps.remember("!r", "$b", {"1": "5:2:play:4"})  # the panel was edited: its old numbers are gone
    assert maps.lookup("!r", 2) is None and maps.lookup("!r", 1) == "5:2:play:4"
    for i in range(KEEP_MENUS + 1):
        maps.remember("!r", f"$m{i}", {"1": f"x{i}"})
    assert maps.lookup("!r", 1, event_id="$a") is None  # too old: expired
    maps.remember("!r", "$b", {})
    assert maps.lookup("!r", 1, event_id="$b") is None


def test_first_time_flag_is_once_per_room():
    maps = ChoiceMaps(MemorySessions())
    assert maps.first_time("!r", "silence-power") is True
    assert maps.first_time("!r", "silence-power") is False
    assert maps.first_time("!s", "silence-power") is True
