"""Tournaments through the service, with the recording adapter, on SQLite and PostgreSQL: an admin opens one and
sets it up with buttons, people register with the button, the organiser starts; each round's tables are games in
their own chats; the round's deadline hands tables still running to the autopilot, which plays them to the end;
each game's end is rated and recorded (the rating task hands it on); the standings are posted after each round,
then the podium. Late registration and a withdrawal between rounds change who plays the next round."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from sqlalchemy import select

from service.play import bot_move, tournament_deadlines
from service.store import session_scope
from service.store.games import seats_of
from service.store.models import GameRow, Seat, Tournament, TournamentPlayer, TournamentSeat, User
from tests.service.tournaments.tournament_steps import (
    GROUP,
    command,
    known,
    panel_buttons,
    past_deadline,
    rounds,
    set_option,
    tables_in_chats,
    tap,
    the_tournament,
    told,
)

NINE = [f"p{i}" for i in range(1, 10)]


def _open(recording, kind: str, options: list[str], people: list[str]) -> int:
    command("olga", "new", kind, admin=True)
    tournament_id = the_tournament().id
    tables_in_chats(tournament_id)
    for value in options:
        set_option("olga", tournament_id, value)
    for person in people:
        tap(person, panel_buttons(recording, tournament_id)["t_join"])
    return tournament_id


def _texts(recording, prefix: str) -> list[str]:
    return [c.text for c in recording.sent(GROUP) if c.text.startswith(prefix)]


def _seated(game_ids: list[int]) -> list[list[str]]:
    """Each game's people, by platform id."""
    with session_scope() as s:
        return [[s.get(User, seat.user_id).platform_id for seat in seats_of(s, g) if seat.user_id] for g in game_ids]


def _expected_points(game_ids: list[int]) -> Counter:
    """Each person's points from the games' own results: 1 where their side won, 0 where it lost."""
    points: Counter = Counter()
    with session_scope() as s:
        for game_id in game_ids:
            game = s.get(GameRow, game_id)
            for seat in seats_of(s, game_id):
                side = "evil" if game.result["loyalty"][seat.seat] == "traitor" else "loyal"
                name = s.get(User, seat.user_id).platform_id.title()
                points[name] += {True: 1.0, False: 0.0}[side == game.result["winner"]] if game.result["winner"] \
                    else 0.5
    return points


def _standings(text: str) -> list[tuple[str, float]]:
    """(name, points) of each row of a posted standings message."""
    rows = []
    for line in text.splitlines()[1:-1]:
        name, rest = line.split(". ", 1)[1].split(": ", 1)
        rows.append((name, float(rest.split(" ")[0])))
    return rows


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_two_rounds_of_nine_people_at_three_seat_board_tables(fixture, request, recording):
    request.getfixturevalue(fixture)
    tournament_id = _open(recording, "board", ["high-3", "rounds-2"], NINE)
    known("p1", "p2")
    tap("p1", panel_buttons(recording, tournament_id)["t_join"])  # twice: refused
    assert told(recording, "p1") == "You are already registered."
    command("p2", "start")  # not the organiser, not an admin
    assert told(recording, "p2") == "Only the tournament's organiser or a chat admin can do that."
    command("olga", "start")

    [(number, first)] = rounds(tournament_id)
    assert number == 1 and len(first) == 3 and all(status == "active" for _, status in first)
    seated = _seated([game for game, _ in first])
    assert sorted(p for table in seated for p in table) == NINE and all(len(t) == 3 for t in seated)
    with session_scope() as s:  # each table a game in its own chat
        chats = {s.get(GameRow, game).chat_id for game, _ in first}
    assert len(chats) == 3
    assert _texts(recording, "🎲 Tournament #1, round 1")[0].count("Table ") == 3

    assert tournament_deadlines.scan() == {"recorded": 0, "autopilot": 0}  # before the deadline: nothing
    assert tournament_deadlines.scan(past_deadline(tournament_id))["autopilot"] == 3
    (_, first), (_, second) = rounds(tournament_id)
    assert all(status == "finished" for _, status in first)
    for table in range(1, 4):  # each table was told why the autopilot played on
        assert any(c.text.startswith("⏰ Round 1's time is up") for c in recording.sent(f"{GROUP}-t1-r1-{table}"))
    after_one = _standings(_texts(recording, "📊 Tournament #1: standings after round 1")[0])
    assert dict(after_one) == {name: _expected_points([g for g, _ in first])[name] for name, _ in after_one}
    assert len(after_one) == 9 and [p for _, p in after_one] == sorted((p for _, p in after_one), reverse=True)

    again = _seated([game for game, _ in second])
    met_before = {frozenset(pair) for table in seated for pair in combinations(table, 2)}
    assert not met_before & {frozenset(pair) for table in again for pair in combinations(table, 2)}  # no repeat

    tournament_deadlines.scan(past_deadline(tournament_id))
    assert [status for _, status in rounds(tournament_id)[1][1]] == ["finished"] * 3
    after_two = _standings(_texts(recording, "📊 Tournament #1: standings after round 2")[0])
    everything = [g for _, tables in rounds(tournament_id) for g, _ in tables]
    assert dict(after_two) == {name: _expected_points(everything)[name] for name, _ in after_two}
    podium = _texts(recording, "🏆 Tournament #1 is over")[0].splitlines()
    assert podium[1] == "All its rounds are played." and podium[2].startswith(f"🥇 {after_two[0][0]} (")
    assert the_tournament().status == "finished" and len(rounds(tournament_id)) == 2
    assert "The tournament is over." in recording.sent(GROUP)[-1].text  # its message, edited
    for head in ("📊 Tournament #1: standings after round", "🏆 Tournament #1 is over"):  # each on its picture
        posts = [c for c in recording.sent(GROUP) if c.text.startswith(head)]
        assert posts and all(c.method == "send_photo" and c.extra["bytes"] > 1000 for c in posts), posts


def _play_by_timeouts(game_id: int) -> None:
    """Everyone at the table lets their time run out, move after move, until the game ends (people's moves)."""
    for _ in range(3000):
        with session_scope() as s:
            prompts = [(r.seat, r.prompt_seq) for r in seats_of(s, game_id) if r.user_id and r.prompt_seq is not None]
            over = s.get(GameRow, game_id).status != "active"
        if over:
            return
        for seat, prompt in prompts:
            bot_move.play_bot(game_id, seat, prompt, by="timeout")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_seven_at_card_tables_with_a_late_registration_and_a_withdrawal(fixture, request, recording):
    request.getfixturevalue(fixture)
    people = ["ann", "ben", "cat", "dan", "eve", "fay", "gus"]
    tournament_id = _open(recording, "cards", ["high-4", "rounds-2"], people)
    command("olga", "start")
    [(_, first)] = rounds(tournament_id)
    assert sorted(map(len, _seated([g for g, _ in first]))) == [3, 4]

    _play_by_timeouts(first[0][0])  # one table plays to its end before the deadline: its end is recorded at once
    with session_scope() as s:
        recorded = s.scalars(select(TournamentSeat.points).where(TournamentSeat.points.is_not(None))).all()
    assert len(recorded) == len(_seated([first[0][0]])[0])
    assert len(rounds(tournament_id)) == 1  # the other table still plays

    tap("hana", panel_buttons(recording, tournament_id)["t_join"])  # late: from round 2
    command("gus", "withdraw")  # plays on at his table, and not in round 2
    tournament_deadlines.scan(past_deadline(tournament_id))
    (_, first), (_, second) = rounds(tournament_id)
    assert all(status == "finished" for _, status in first)
    assert len(_texts(recording, "📊 Tournament #1: standings after round 1")) == 1
    round_two = _seated([g for g, _ in second])
    assert sorted(p for table in round_two for p in table) == sorted([*people[:-1], "hana"])
    assert sorted(map(len, round_two)) == [3, 4]
    tap("ivan", panel_buttons(recording, tournament_id).get("t_join", "none"))  # round 2 is seated: closed
    with session_scope() as s:
        assert s.scalar(select(User).where(User.platform_id == "ivan")) is None or not s.scalars(
            select(TournamentPlayer).join(User, User.id == TournamentPlayer.user_id)
            .where(User.platform_id == "ivan")).all()

    tournament_deadlines.scan(past_deadline(tournament_id))
    final = _texts(recording, "📊 Tournament #1: standings after round 2")[0].splitlines()
    assert len(final) == 10 and any(line.startswith(f"{n}. Gus: ") and line.endswith("· withdrawn")
                                    for n, line in enumerate(final))
    assert the_tournament().status == "finished"


def test_the_autopilot_plays_only_seats_handed_over_and_a_person_may_still_move(backbone_local, recording):
    tournament_id = _open(recording, "cards", ["high-3", "rounds-1"], ["ann", "ben", "cat"])
    command("olga", "start")
    [(_, [(game_id, _)])] = rounds(tournament_id)
    assert tournament_deadlines.autopilot(game_id) == "not_handed_over"  # before the deadline: nobody's seat
    with session_scope() as s:
        assert all(seat.bot is None for seat in s.scalars(select(Seat).where(Seat.game_id == game_id)))
    tournament_deadlines.scan(past_deadline(tournament_id))
    with session_scope() as s:
        assert s.get(GameRow, game_id).status == "finished"
        assert s.get(Tournament, tournament_id).status == "finished"


def test_bots_at_each_table_for_speed_are_neither_paired_nor_scored(backbone_local, recording):
    tournament_id = _open(recording, "cards", ["high-3", "bots-1", "rounds-1"], ["ann", "ben", "cat"])
    command("olga", "start")
    [(_, [(game_id, _)])] = rounds(tournament_id)
    with session_scope() as s:
        seats = seats_of(s, game_id)
        assert len(seats) == 4 and [seat.bot for seat in seats if seat.user_id is None] == ["heuristic"]
    tournament_deadlines.scan(past_deadline(tournament_id))
    with session_scope() as s:
        scored = s.scalars(select(TournamentSeat).where(TournamentSeat.points.is_not(None))).all()
    assert len(scored) == 3 and the_tournament().status == "finished"
