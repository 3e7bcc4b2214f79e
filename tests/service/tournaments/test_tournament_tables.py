"""A tournament's tables at places of their own (issue 25 item 1: `service.play.tables`, the "tables" place): each
table's game starts at a placeholder address; the delivery opens its place through the adapter (a forum's topic, a
Matrix room: here the recording adapter's `<community>/<n>`) with its title and seated people, then the table's
messages go there and never to the community or another table. A platform that cannot open one keeps the table in
the community. In a forum, /newgame opens its own table too."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from service.chat.base import Inbound, PermanentError
from service.play import tables, tournament_deadlines
from service.play.dispatch import submit
from service.store import session_scope
from service.store.games import seats_of
from service.store.models import Chat, GameRow, SentMessage, Tournament, User
from tests.service.tournaments.tournament_steps import (
    GROUP,
    command,
    panel_buttons,
    past_deadline,
    rounds,
    set_option,
    tap,
    the_tournament,
)

NINE = [f"p{i}" for i in range(1, 10)]


def _open(recording, people: list[str]) -> int:
    command("olga", "new", "board", admin=True)
    tournament_id = the_tournament().id
    with session_scope() as s:
        tournament = s.get(Tournament, tournament_id)
        tournament.options = {**tournament.options, "place": "tables"}  # as a forum or a Matrix room has it
    for value in ("high-3", "rounds-2"):
        set_option("olga", tournament_id, value)
    for person in people:
        tap(person, panel_buttons(recording, tournament_id)["t_join"])
    return tournament_id


def _placed(game_ids: list[int]) -> dict[int, tuple[str, list[str]]]:
    """Each game's chat address and its people's platform ids."""
    with session_scope() as s:
        found = {}
        for game_id in game_ids:
            chat = s.get(Chat, s.get(GameRow, game_id).chat_id).platform_id
            found[game_id] = (chat, [s.get(User, seat.user_id).platform_id for seat in seats_of(s, game_id)])
        return found


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_each_table_of_each_round_gets_its_own_place(fixture, request, recording):
    request.getfixturevalue(fixture)
    tournament_id = _open(recording, NINE)
    command("olga", "start")
    [(_, first)] = rounds(tournament_id)
    placed = _placed([game for game, _ in first])
    opened = [c for c in recording.calls if c.method == "open_table"]
    assert [c.chat for c in opened] == [GROUP] * 3  # opened from the community
    assert sorted(c.text for c in opened) == [f"Tournament {tournament_id} · round 1 · table {n}" for n in (1, 2, 3)]
    addresses = {f"{GROUP}/{c.extra['table']}": sorted(c.extra["people"]) for c in opened}
    assert {chat: sorted(people) for chat, people in placed.values()} == addresses  # invited: exactly its people
    with session_scope() as s:  # each board went to its own table, none to the community
        boards = dict(s.execute(select(SentMessage.ref, SentMessage.chat).where(SentMessage.ref.like("board:%"))).all())
    assert boards == {f"board:{game_id}": chat for game_id, (chat, _) in placed.items()}
    for chat, _ in placed.values():
        assert any(c.text and c.chat == chat for c in recording.calls if c.method in ("send_text", "send_photo"))
    placeholders = [c.chat for c in recording.calls if tables.is_placeholder(c.chat)]
    assert not placeholders  # nothing was ever sent to a placeholder

    tournament_deadlines.scan(past_deadline(tournament_id))
    (_, first), (_, second) = rounds(tournament_id)
    again = _placed([game for game, _ in second])
    assert len({chat for chat, _ in again.values()} | {chat for chat, _ in placed.values()}) == 6  # new places
    assert [c.method for c in recording.calls].count("open_table") == 6


def test_a_table_that_cannot_be_opened_stays_in_the_community(backbone_local, recording):
    tournament_id = _open(recording, ["ann", "ben", "cat"])
    recording.calls.clear()
    recording.fail_next(PermanentError("Bad Request: the chat is not a forum"))  # the first call: open_table
    command("olga", "start")
    [(_, [(game_id, status)])] = rounds(tournament_id)
    assert status == "active"
    assert _placed([game_id])[game_id][0] == GROUP  # kept in the tournament's own chat
    assert any(c.chat == GROUP and c.text for c in recording.calls if c.method == "send_text")


def test_newgame_in_a_forum_opens_a_table_of_its_own(backbone_local, recording):
    for number in (1, 2):
        submit(Inbound("rec", GROUP, "ann", f"ng{number}", "command", command="newgame", args=("cards", "2"),
                       user_name="Ann", is_group=True, forum=True))
    with session_scope() as s:
        games = s.scalars(select(GameRow).order_by(GameRow.id)).all()
        chats = [s.get(Chat, g.chat_id).platform_id for g in games]
    assert len(games) == 2 and len(set(chats)) == 2 and all(c.startswith(f"{GROUP}/") for c in chats)
    titles = [c.text for c in recording.calls if c.method == "open_table"]
    assert titles == [f"Camelot card game — table {g.id}" for g in games]
    for game, chat in zip(games, chats, strict=True):  # each lobby in its own table
        assert any(f"#{game.id}" in c.text or c.buttons for c in recording.sent(chat))
