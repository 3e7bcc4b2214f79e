"""A lobby on a platform whose tables get rooms of their own (Matrix: `service.play.tables.moved_at_start`): the
lobby is in the community's room, and the game moves to its own place when it starts, with its seated people
invited; the community's room is then free for the next lobby, so several tables run at once. A game of one person
(a 1:1 room with the bot, a solo game against bots) stays where it was started. Here the recording adapter stands
for Matrix (its places are `<community>/<n>`)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from service.chat.base import Inbound
from service.play import tables
from service.play.dispatch import submit
from service.store import session_scope
from service.store.models import Chat, GameRow, SentMessage
from tests.service.tournaments.tournament_steps import GROUP

_update = iter(range(1, 10_000))


@pytest.fixture
def own_rooms(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "OWN_ROOMS", ("rec",))


def _say(user: str, verb: str, *args: str) -> None:
    submit(
        Inbound(
            "rec",
            GROUP,
            user,
            f"u{next(_update)}",
            "command",
            command=verb,
            args=args,
            user_name=user.title(),
            is_group=True,
        )
    )


def _games() -> list[tuple[int, str, str]]:
    with session_scope() as s:
        games = s.scalars(select(GameRow).order_by(GameRow.id)).all()
        return [(g.id, g.status, s.get(Chat, g.chat_id).platform_id) for g in games]


def test_two_lobbies_of_one_room_start_in_rooms_of_their_own(backbone_local, recording, own_rooms):
    for host, guest in (("ann", "ben"), ("cat", "dan")):
        _say(host, "newgame", "board", "3")
        _say(guest, "join")
        [*_, (game_id, status, chat)] = _games()
        assert (status, chat) == ("lobby", GROUP)  # the lobby is where the players are
        _say(host, "set", "bots", "on")
        _say(host, "start")
    (first, s1, room1), (second, s2, room2) = _games()
    assert (s1, s2) == ("active", "active")
    assert room1 != room2 and room1.startswith(f"{GROUP}/") and room2.startswith(f"{GROUP}/")
    opened = [c for c in recording.calls if c.method == "open_table"]
    assert [(c.chat, sorted(c.extra["people"])) for c in opened] == [(GROUP, ["ann", "ben"]), (GROUP, ["cat", "dan"])]
    assert [c.text for c in opened] == [f"Shadows over Camelot — table {g}" for g in (first, second)]
    with session_scope() as s:
        sent = dict(s.execute(select(SentMessage.ref, SentMessage.chat)).all())
    assert sent[f"board:{first}"] == room1 and sent[f"board:{second}"] == room2  # each board in its own room
    assert sent[f"lobby:{first}"] == GROUP and sent[f"lobby:{second}"] == GROUP  # the lobbies stay, started
    assert not [c for c in recording.calls if tables.is_placeholder(c.chat)]

    _say("ann", "abort")  # a command in the community's room no longer reaches a table
    assert [status for _, status, _ in _games()] == ["active", "active"]


def test_a_game_of_one_person_stays_in_its_room(backbone_local, recording, own_rooms):
    _say("ann", "newgame", "cards", "3")
    _say("ann", "set", "bots", "on")
    _say("ann", "start")
    [(_, status, chat)] = _games()
    assert (status, chat) == ("active", GROUP)
    assert not [c for c in recording.calls if c.method == "open_table"]


def test_a_refused_start_keeps_the_lobby_in_the_room(backbone_local, recording, own_rooms):
    _say("ann", "newgame", "board", "5")
    _say("ben", "join")
    _say("ann", "start")  # two of five seats and no bots: not enough
    [(_, status, chat)] = _games()
    assert (status, chat) == ("lobby", GROUP)
    with session_scope() as s:
        assert [c.platform_id for c in s.scalars(select(Chat))] == [GROUP]  # no placeholder left behind
