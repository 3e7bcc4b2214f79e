"""A tournament in a Telegram forum supergroup (issue 25 'Done when'): the organiser opens it in the General topic,
people register with its button, the start opens each table as a topic of its own; the round's deadline hands the
tables to the autopilot (the bots where the test needs speed, as the beat does), and the standings come after each
round. In the card tournament people play their tables' first moves until Morgan's silence falls at one table: its
people are restricted, the other table's are not. Through the real gateway and worker against the fake Bot API."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fake_bot_api import FORUM_BOT_RIGHTS, CannotSend, FakeBotApi
from sqlalchemy import select
from telegram_players import Table
from telegram_stack import Stack
from telegram_transcript import transcripts as phones
from test_telegram_topics_tables import bot_topics

from service.callback import LobbyTap, unpack
from service.play import tournament_deadlines, tournament_options
from service.render.i18n import t
from service.store import session_scope
from service.store.games import seat_users, seats_of
from service.store.models import Chat, GameRow, Tournament, TournamentPlayer, TournamentRound, TournamentTable
from tests.service.tournaments.tournament_steps import past_deadline

pytestmark = pytest.mark.e2e
SILENT_SEED = 47  # a tournament seed whose round-1 card tables meet Morgan within a few moves of random play


def _tables(tournament_id: int, number: int) -> dict[int, tuple[str, list[str]]]:
    """Round `number`'s games: their chat address and their people's Telegram ids."""
    with session_scope() as s:
        round_id = s.scalar(select(TournamentRound.id).where(TournamentRound.tournament_id == tournament_id,
                                                             TournamentRound.number == number))
        found = {}
        for table in s.scalars(select(TournamentTable).where(TournamentTable.round_id == round_id)):
            game = s.get(GameRow, table.game_id)
            people = [u.platform_id for _, u in sorted(seat_users(s, game.id).items())]
            found[game.id] = (s.get(Chat, game.chat_id).platform_id, people)
        return found


def _opened(group: Any, tournament_id: int, number: int, count: int) -> dict[int, tuple[str, list[str]]] | None:
    tables = _tables(tournament_id, number)
    opened = len(tables) == count and all(chat.startswith(f"{group.id}/") for chat, _ in tables.values())
    return tables if opened else None


def _open_tournament(api: FakeBotApi, group: Any, organiser: Any, people: list[Any], kind: str, options: list[str],
                     seed: int | None) -> int:
    for person in people:
        api.open_bot(person)  # each has the bot's direct chat, where a seat's hand goes
    api.say(organiser, group.id, f"/tournament new {kind}")
    tid = api.wait(lambda: _one(select(Tournament.id)), 30, "the tournament")
    with session_scope() as s:
        tournament = s.get(Tournament, tid)
        assert tournament.options.get("place") == "tables"  # made in a forum: tables in topics
        for value in options:  # the options as its buttons set them (the taps are tested in tests/service)
            assert tournament_options.set_option(tournament, value) == "ok", value
        if seed is not None:
            tournament.seed = seed
    message = api.wait(lambda: next((m for m in api.messages(group.id, None)
                                     for b in api.buttons(group.id, m.message_id) if _verb(b) == "t_join"), None),
                       30, "the tournament message")
    join = next(b["callback_data"] for b in api.buttons(group.id, message.message_id) if _verb(b) == "t_join")
    for person in people:
        api.tap(person, group.id, message.message_id, join)
    registered = select(TournamentPlayer.user_id).where(TournamentPlayer.tournament_id == tid)
    api.wait(lambda: len(_all(registered)) == len(people), 30, "everyone registered")
    api.say(organiser, group.id, "/tournament start")
    return tid


def _verb(button: dict) -> str | None:
    tap = unpack(button.get("callback_data", "")) if "callback_data" in button else None
    return tap.verb if isinstance(tap, LobbyTap) else None


def _one(query) -> Any:
    with session_scope() as s:
        return s.scalar(query)


def _all(query) -> list[Any]:
    with session_scope() as s:
        return list(s.scalars(query))


def _in_topics(api: FakeBotApi, group: Any, tables: dict[int, tuple[str, list[str]]]) -> None:
    """Each table a topic of the bot's, named for the tournament's table, with its board there."""
    threads = {int(chat.split("/")[1]) for chat, _ in tables.values()}
    assert len(threads) == len(tables) and threads <= set(bot_topics(api, group))
    for thread in threads:
        api.wait(lambda t=thread: api.messages(group.id, t), 30, f"the board in topic {thread}")
        with api.world.lock:
            assert group.topics[thread].name.startswith("Tournament ")


def _round_over(api: FakeBotApi, group: Any, tid: int, number: int) -> str:
    tournament_deadlines.scan(past_deadline(tid))  # the round's deadline, as the beat finds it
    return _pictured(api, group, f"📊 Tournament #{tid}: standings after round {number}", 240)


def _finished_by_autopilot(api: FakeBotApi, group: Any, tables: dict[int, tuple[str, list[str]]], number: int) -> None:
    """The round's deadline handed every table to the autopilot: each game over, each person's seat played by the
    heuristic bot, and each topic told why."""
    notice = t("en", "tournament.autopilot", round=number, names="").split(":")[0]
    for game_id, (chat, _) in tables.items():
        with session_scope() as s:
            assert s.get(GameRow, game_id).status == "finished"
            assert {seat.bot for seat in seats_of(s, game_id) if seat.user_id} == {tournament_deadlines.AUTOPILOT}
        thread = int(chat.split("/")[1])
        api.wait(lambda th=thread: any((m.text or "").startswith(notice) for m in api.messages(group.id, th)), 60,
                 f"the autopilot's notice in topic {thread}")


PNG = b"\x89PNG\r\n\x1a\n"


def _pictured(api: FakeBotApi, group: Any, head: str, timeout: float) -> str:
    """The text of a post in the General topic that starts with `head`, once it is there: a photo (sendPhoto)
    with the text as its caption."""
    post = api.wait(lambda: next((m for m in api.messages(group.id, None) if (m.caption or "").startswith(head)),
                                 None), timeout, head)
    assert post.photo is not None and post.photo.startswith(PNG), post
    return post.caption


def test_board_tournament_of_nine_in_topics(fake_api: FakeBotApi, stack: Stack, transcripts: Any) -> None:
    api = fake_api
    organiser = api.add_user("Olga")
    people = [api.add_user(f"P{n}") for n in range(1, 10)]
    group = api.add_group("Camelot League", [organiser, *people], bot_rights=FORUM_BOT_RIGHTS, forum=True)
    try:
        tid = _open_tournament(api, group, organiser, people, "board", ["low-3", "high-3", "rounds-2"], None)
        first = api.wait(lambda: _opened(group, tid, 1, 3), 60, "round 1's topics")
        _in_topics(api, group, first)
        one = _round_over(api, group, tid, 1)
        _finished_by_autopilot(api, group, first, 1)
        assert len(one.splitlines()) == 11  # a title, nine rows, a closing line
        second = api.wait(lambda: _opened(group, tid, 2, 3), 60, "round 2's topics")
        assert not {c for c, _ in second.values()} & {c for c, _ in first.values()}
        _in_topics(api, group, second)
        _round_over(api, group, tid, 2)
        _finished_by_autopilot(api, group, second, 2)
        _pictured(api, group, f"🏆 Tournament #{tid} is over", 60)  # the podium
    finally:
        transcripts(phones(api, [organiser, people[0]]))


def test_card_tournament_of_seven_with_a_silence_at_one_table(fake_api: FakeBotApi, stack: Stack,
                                                               transcripts: Any) -> None:
    api = fake_api
    organiser = api.add_user("Olga")
    people = [api.add_user(f"C{n}") for n in range(1, 8)]
    group = api.add_group("Camelot League", [organiser, *people], bot_rights=FORUM_BOT_RIGHTS, forum=True)
    try:
        tid = _open_tournament(api, group, organiser, people, "cards", ["low-3", "high-4", "rounds-2"], SILENT_SEED)
        first = api.wait(lambda: _opened(group, tid, 1, 2), 60, "round 1's topics")
        assert sorted(len(seated) for _, seated in first.values()) == [3, 4]
        _in_topics(api, group, first)
        table = Table(api, people, 5)
        deadline = time.monotonic() + 240
        while (silenced := _one(select(GameRow.id).where(GameRow.id.in_(list(first)), GameRow.silence))) is None:
            assert time.monotonic() < deadline, table.describe()
            if not table.step():
                time.sleep(0.05)
        by_id = {str(p.id): p for p in people}
        quiet_chat, quiet = first[silenced]
        (other_chat, others), = [v for g, v in first.items() if g != silenced]
        api.wait(lambda: {int(u) for u in quiet} <= set(group.restrictions), 30, "the silenced table restricted")
        assert not {int(u) for u in others} & set(group.restrictions)  # the other table is not
        with pytest.raises(CannotSend):
            api.say(by_id[quiet[0]], group.id, "psst", thread_id=int(quiet_chat.split("/")[1]))
        api.say(by_id[others[0]], group.id, "our table talks on", thread_id=int(other_chat.split("/")[1]))
        _round_over(api, group, tid, 1)
        api.wait(lambda: not {int(u) for u in quiet} & set(group.restrictions), 60, "the silence lifted at its end")
        api.wait(lambda: _opened(group, tid, 2, 2), 60, "round 2's topics")
        _round_over(api, group, tid, 2)
    finally:
        transcripts(phones(api, [organiser, people[0]]))
