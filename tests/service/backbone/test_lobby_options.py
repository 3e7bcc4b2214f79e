"""The lobby's one-thumb options: language, deadlines and variants are buttons that cycle values (creator only)."""

from __future__ import annotations

from sqlalchemy import select

from service.callback import LobbyTap, pack_lobby, unpack
from service.play import lobby
from service.play.dispatch import submit
from service.settings import get_settings
from service.store import session_scope
from service.store.models import GameRow
from tests.service.backbone.test_pipeline_local import command, tap


def lobby_buttons(rec) -> dict[str, LobbyTap]:
    """The newest lobby message's option buttons in the group, by verb."""
    for call in reversed(rec.calls):
        if call.chat == "group" and call.buttons:
            taps = [unpack(b.data) for row in call.buttons for b in row]
            return {t.verb: t for t in taps if isinstance(t, LobbyTap)}
    return {}


def lobby_row() -> GameRow:
    with session_scope() as s:
        game = s.scalars(select(GameRow).order_by(GameRow.id.desc())).first()
        s.expunge(game)
        return game


def test_option_buttons_cycle_language_deadlines_and_variants(backbone_local, recording):
    submit(command("alice", "newgame", "board"))
    first = lobby_buttons(recording)
    assert {"lang", "turn", "response", "traitor", "squires", "war_any_order"} <= first.keys()
    before = lobby_row()
    for verb in ("lang", "turn", "response", "traitor", "squires"):
        button = lobby_buttons(recording)[verb]
        submit(tap("alice", pack_lobby(button.lobby_id, verb, button.value), chat="group"))
    after = lobby_row()
    assert after.language == first["lang"].value != before.language
    assert after.options["turn_deadline"] == float(first["turn"].value) * 3600
    assert after.options["response_deadline"] == float(first["response"].value) * 60
    assert after.config["traitor"] == "none" and after.config["squires"] is True
    # the message now offers the next values
    assert lobby_buttons(recording)["traitor"].value == "among_us"


def test_option_buttons_refuse_everyone_but_the_creator(backbone_local, recording):
    submit(command("alice", "newgame", "cards"))
    expert = lobby_buttons(recording)["expert"]
    assert expert.value == "on"
    submit(tap("mallory", pack_lobby(expert.lobby_id, "expert", "on"), chat="group"))
    assert "expert" not in lobby_row().config
    submit(tap("alice", pack_lobby(expert.lobby_id, "expert", "on"), chat="group"))
    assert lobby_row().config["expert"] is True


def test_a_chat_games_bots_keep_the_chat_pace_and_the_terminal_game_none(backbone_local, recording, monkeypatch):
    """Issue 23 item 2: CHAT_BOT_DELAY paces the bots of a game opened in a chat; `create_and_start` (the terminal
    game, benchmarks) keeps its own pace, none by default."""
    monkeypatch.setenv("CHAT_BOT_DELAY", "7.5")
    get_settings.cache_clear()
    submit(command("alice", "newgame", "cards"))
    assert lobby_row().options["bot_delay"] == 7.5
    terminal = lobby.create_and_start("rec", "terminal", "cards", {}, [], 3, seed=1)
    with session_scope() as s:
        assert s.get(GameRow, terminal).options["bot_delay"] == 0.0
