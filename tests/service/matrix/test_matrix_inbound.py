"""Numbered choices: rendering, parsing answers, and the per-room number → button-data maps."""

from __future__ import annotations

from service.chat.base import Button
from service.matrix import inbound, numbered
from service.matrix.choices import KEEP_MENUS, ChoiceMaps
from service.play.dispatch import ADMIN_FLAG
from service.render.i18n import t
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


def _origin(is_group: bool) -> inbound.Origin:
    return inbound.Origin("!room", "@ann:x", "$ev", "Ann", is_group)


def test_commands_are_recognized_with_arguments_and_admin_flag():
    assert inbound.parse_command("!NewGame cards 5") == ("newgame", ("cards", "5"))
    assert inbound.parse_command("  !join ") == ("join", ())
    for text in ("join", "!dance", "!", "hello !join"):
        assert inbound.parse_command(text) is None
    cmd = inbound.command(_origin(True), "abort", (), admin=True)
    assert (cmd.platform, cmd.kind, cmd.command, cmd.is_group) == ("matrix", "command", "abort", True)
    assert cmd.args == (ADMIN_FLAG,)
    assert inbound.command(_origin(True), "abort", (), admin=False).args == ()
    typed = inbound.parse_command(f"!abort {ADMIN_FLAG}")  # the flag typed by anyone is no moderator's
    assert typed is not None and inbound.command(_origin(True), *typed, admin=False).args == ()
    assert inbound.command(_origin(True), *typed, admin=True).args == (ADMIN_FLAG,)


def test_numbers_count_in_direct_rooms_or_as_replies_only():
    reply = {"m.relates_to": {"m.in_reply_to": {"event_id": "$menu"}}}
    assert inbound.number_in_message("2", {}, direct=True) == (2, None)
    assert inbound.number_in_message("2", {}, direct=False) is None
    assert inbound.number_in_message("> quoted\n\n2", reply, direct=False) == (2, "$menu")
    assert inbound.number_in_message("two", reply, direct=True) is None
    assert inbound.number_in_reaction("2️⃣", "$menu") == (2, "$menu")
    assert inbound.number_in_reaction("🎉", "$menu") is None
    tap = inbound.choice(_origin(False), "7:3:play:2")
    assert (tap.kind, tap.text, tap.update_id, tap.user) == ("tap", "7:3:play:2", "$ev", "@ann:x")


def test_texts_name_commands_as_a_matrix_room_types_them():
    """Issue 23 item 11: help and notices say `!join` on Matrix; fractions, paths and links keep their slashes."""
    body, _ = numbered.render("Commands: /newgame [board|cards], /join (/start) · 4/12 · https://x.org/a/b", None)
    assert body == "Commands: !newgame [board|cards], !join (!start) · 4/12 · https://x.org/a/b"
    assert numbered.render("Al <i>&</i> Co, t.me/camelot_bot", None)[0] == "Al <i>&</i> Co, t.me/camelot_bot"
    for lang in ("en", "cs", "pl", "nl", "ro", "it"):
        told, _ = numbered.render(t(lang, "lobby.help"), None)
        assert "/join" not in told and "!join" in told and "!newgame" in told
