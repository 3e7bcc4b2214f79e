"""The lobby shows the new options and sets them by its buttons; /help lists the new commands in every language
(issue 24, 'Done when')."""

from __future__ import annotations

import pytest

from service.callback import unpack
from service.play import lobby
from service.render import i18n
from service.render.lobby import lobby_message
from service.store import session_scope
from service.store.models import GameRow
from tests.service.days.helpers import buttons, command, tap, texts

NEW_COMMANDS = (
    "/leave",
    "/sub",
    "/away",
    "/back",
    "/pause",
    "/resume",
    "/autopilot",
    "/replace",
    "/set quiet",
    "/quiet on|off",
)


@pytest.mark.parametrize("lang", i18n.available_languages())
def test_help_lists_the_new_commands_in_every_language(lang):
    text = i18n.t(lang, "days.help")
    assert all(name in text for name in NEW_COMMANDS), lang


def test_help_in_a_group_shows_them(backbone_pg, recording):
    command("alice", "help", group=True)
    assert all(name in texts(recording.sent("grp"))[-1] for name in NEW_COMMANDS)


def test_the_lobby_shows_and_sets_the_idle_and_vacation_limits(backbone_pg, recording):
    status, game_id = lobby.create("rec", "grp", "alice", kind="board")
    assert status == "ok"
    with session_scope() as s:
        text, _ = lobby_message(lobby.lobby_view(s, s.get(GameRow, game_id)), "en")
    assert "Autopilot 🤖 after 2 timeouts in a row" in text and "up to 72 h" in text
    idle = next(d for d in buttons(recording.sent("grp")) if (c := unpack(d)) and c.verb == "idle")
    tap("alice", idle, group=True)
    away = next(d for d in buttons(recording.sent("grp")[-1:]) if (c := unpack(d)) and c.verb == "away")
    tap("alice", away, group=True)
    with session_scope() as s:
        options = s.get(GameRow, game_id).options
    assert options["idle_limit"] == 3 and options["away_limit"] == 168 * 3600
    assert "after 3 timeouts" in recording.sent("grp")[-1].text
