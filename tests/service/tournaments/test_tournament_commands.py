"""`/tournament` and its buttons: who may open, set up, start and cancel one; registration and withdrawal; refusals
answered and changing nothing (a non-admin, a stranger's option tap, values out of range, another chat's
tournament, a typed `tournament_tap`, too few players to seat a table). The people here have written to the bot
privately, so a refusal reaches them wherever refusals are told (`told`)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from service.callback import LobbyTap, pack_lobby, unpack
from service.chat.base import Inbound
from service.play.dispatch import submit
from service.store import session_scope
from service.store.models import Tournament, TournamentPlayer
from tests.service.tournaments.tournament_steps import (
    GROUP,
    command,
    known,
    panel_buttons,
    set_option,
    tap,
    the_tournament,
    told,
)


def _last(recording, chat: str = GROUP) -> str:
    return recording.sent(chat)[-1].text


@pytest.fixture(autouse=True)
def _people_known(request):
    """Every person here has written to the bot privately (after the backbone fixture is in place)."""
    request.getfixturevalue("backbone_local")
    request.getfixturevalue("recording")
    known("olga", "pat", "cat")


def _registered() -> int:
    with session_scope() as s:
        return s.scalar(select(func.count()).select_from(TournamentPlayer).where(
            TournamentPlayer.withdrawn_after.is_(None)))


def test_only_a_chat_admin_opens_a_tournament_and_one_at_a_time(backbone_local, recording):
    command("pat", "new")
    assert told(recording, "pat") == "Only a chat admin can open a tournament."
    command("olga", "new", admin=True, chat="dm-olga")
    assert told(recording, "olga", "dm-olga") == "Create games in a group chat."
    assert the_tournament() is None
    command("olga", "new", "cards", admin=True)
    tournament = the_tournament()
    assert tournament.kind == "cards" and tournament.status == "registration"
    assert _last(recording).startswith("🏆 Tournament #1: Shadows over Camelot: The Card Game")
    command("olga", "new", admin=True)
    assert told(recording, "olga") == "This chat already has a tournament; finish or cancel it first."


def test_the_organiser_sets_options_with_the_buttons_and_nobody_else(backbone_local, recording):
    command("olga", "new", "board", admin=True)
    tournament_id = the_tournament().id
    buttons = panel_buttons(recording, tournament_id)
    assert all(len(data.encode()) <= 40 and unpack(data).verb.startswith("t_") for data in buttons.values())
    assert {"t_join", "t_leave", "t_start", "t_cancel", "t_set:high-6", "t_set:low-4", "t_set:game-cards"} <= set(
        buttons)
    tap("olga", buttons["t_set:low-4"])
    tap("olga", panel_buttons(recording, tournament_id)["t_set:high-6"])
    assert "tables of 4–6 players" in _last(recording)
    tap("pat", panel_buttons(recording, tournament_id)["t_set:high-7"])
    assert told(recording, "pat") == "Only the tournament's organiser or a chat admin can do that."
    before = the_tournament().options
    for value in ("high-9", "low-7", "bots-3", "high-6x", "rounds-99", "hours-nan", "hours-inf", "turn-0",
                  "lang-xx", "traitor-evil", "squires-maybe", "game-chess", "pairing-knockout", "nonsense", "seed-1"):
        set_option("olga", tournament_id, value)
        assert told(recording, "olga") == "That value is not valid.", value
    assert the_tournament().options == before
    set_option("olga", tournament_id, "game-cards")
    assert the_tournament().kind == "cards" and the_tournament().options["low"] == 3  # the kind's defaults again
    set_option("olga", tournament_id, "expert-on")
    set_option("olga", tournament_id, "pairing-rr")
    set_option("olga", tournament_id, "rounds-0")
    assert the_tournament().options["variants"] == {"expert": True}
    assert "rounds until everyone has met everyone (at most 7)" in _last(recording)


def test_registration_withdrawal_and_a_start_that_cannot_seat_anyone(backbone_local, recording):
    command("olga", "new", admin=True)
    tournament_id = the_tournament().id
    command("pat", "withdraw")
    assert told(recording, "pat") == "You are not registered."
    for person in ("ann", "ben"):
        tap(person, panel_buttons(recording, tournament_id)["t_join"])
    assert "Registered (2): Ann, Ben" in _last(recording)
    command("olga", "start")
    assert told(recording, "olga") == "The registered players cannot be split into tables of the allowed sizes yet."
    assert the_tournament().status == "registration"
    tap("ben", panel_buttons(recording, tournament_id)["t_leave"])  # before the start: the registration is gone
    assert _registered() == 1 and "Registered (1): Ann" in _last(recording)
    command("olga", "standings")
    assert _last(recording) == "Tournament #1: no round is over yet."
    command("olga", "cancel")
    assert the_tournament().status == "cancelled" and _last(recording) == "Tournament #1 was cancelled."
    tap("cat", pack_lobby(tournament_id, "t_join"))
    assert told(recording, "cat") == "There is no tournament here; a chat admin opens one with /tournament new."


@pytest.mark.parametrize("data", [pack_lobby(1, "t_join"), pack_lobby(1, "t_set", "high-3"), pack_lobby(1, "t_start")])
def test_a_tap_naming_another_chats_tournament_changes_nothing(backbone_local, recording, data):
    command("olga", "new", admin=True)
    before = the_tournament().options
    tap("olga", data, chat="elsewhere")  # a button forwarded to, or made up in, another group
    submit(Inbound("rec", "other", "olga", "x1", "tap", text=data, is_group=True))
    assert told(recording, "olga", "other") == (
        "There is no tournament here; a chat admin opens one with /tournament new."
    )
    assert the_tournament().options == before and the_tournament().status == "registration" and _registered() == 0


def test_a_typed_tournament_tap_is_not_a_command(backbone_local, recording):
    command("olga", "new", admin=True)
    sent = len(recording.calls)
    submit(Inbound("rec", GROUP, "pat", "x2", "command", command="tournament_tap", args=("1", "t_join", ""),
                   is_group=True))
    assert len(recording.calls) == sent and _registered() == 0
    assert isinstance(unpack(pack_lobby(1, "t_join")), LobbyTap)


def test_the_help_in_a_group_and_in_a_direct_chat(backbone_local, recording):
    command("pat")
    command("pat", "help", chat="dm-pat")
    for chat in (GROUP, "dm-pat"):
        assert _last(recording, chat).startswith("Tournaments. A chat admin opens one with /tournament new [board|")
    with session_scope() as s:
        assert s.scalar(select(func.count()).select_from(Tournament)) == 0
