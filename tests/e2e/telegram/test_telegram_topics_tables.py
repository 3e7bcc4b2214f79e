"""Several tables in one forum supergroup: each /newgame opens a topic of its own, and two games in two topics never
cross (issue 25 item 1). Through the real gateway and worker against the fake Bot API."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fake_bot_api import FORUM_BOT_RIGHTS, FakeBotApi
from sqlalchemy import select
from telegram_audit import rated, rating_settled
from telegram_players import Table
from telegram_stack import Stack
from telegram_transcript import transcripts as phones
from test_telegram_games import game_row, outbox_drained

from service.callback import Choice, LobbyTap, linked_lobby, unpack
from service.render.i18n import t
from service.store import session_scope
from service.store.models import Chat, GameRow, SentMessage

pytestmark = pytest.mark.e2e
RATED_DEAL = 1  # a 2-seat card deal with a Traitor among the seats


def lobby_in(api: FakeBotApi, group: Any, thread: int) -> Any:
    """The lobby message in a topic: the one with the join link."""
    return api.wait(
        lambda: next(
            (
                m
                for m in api.messages(group.id, thread)
                for b in api.buttons(group.id, m.message_id)
                if "start=join" in b.get("url", "")
            ),
            None,
        ),
        30,
        f"the lobby in topic {thread}",
    )


def lobby_button(api: FakeBotApi, group: Any, message_id: int, verb: str) -> str:
    return next(
        b["callback_data"]
        for b in api.buttons(group.id, message_id)
        if isinstance(tap := unpack(b.get("callback_data", "")), LobbyTap) and tap.verb == verb
    )


def bot_topics(api: FakeBotApi, group: Any) -> list[int]:
    with api.world.lock:
        return sorted(tid for tid, topic in group.topics.items() if topic.creator == api.world.bot_id)


def open_two_tables(api: FakeBotApi, group: Any, tables: list[list[Any]]) -> list[tuple[int, int, int]]:
    """Each table's creator types /newgame in the General topic; each gets a topic with its lobby. Returns
    (thread, game id, lobby message id) per table, in the order the topics were made."""
    for users in tables:
        api.say(users[0], group.id, f"/newgame cards {len(users)}")
    api.wait(lambda: len(bot_topics(api, group)) == len(tables), 30, "a topic per table")
    found = []
    for thread in bot_topics(api, group):
        lobby = lobby_in(api, group, thread)
        link = next(b["url"] for b in api.buttons(group.id, lobby.message_id) if "url" in b)
        found.append((thread, linked_lobby(link.rsplit("join", 1)[1]), lobby.message_id))
    return found


def test_two_games_in_two_topics_never_cross(fake_api: FakeBotApi, stack: Stack, transcripts: Any) -> None:
    api = fake_api
    ann, ben, cid, dee, eve = (api.add_user(n) for n in ("Ann", "Ben", "Cid", "Dee", "Eve"))
    group = api.add_group("Camelot Club", [ann, ben, cid, dee], bot_rights=FORUM_BOT_RIGHTS, forum=True)
    try:
        _two_tables(api, group, [[ann, ben], [cid, dee]], eve)
    except TimeoutError as exc:
        raise TimeoutError(f"{exc}\n{stack.log_tail()}") from None
    finally:
        transcripts(phones(api, [ann, cid, eve]))


def _answers(api: FakeBotApi, queries: list[str]) -> list[str]:
    """What each tap was answered, or why not."""
    found = []
    for query in queries:
        try:
            found.append(api.answer(query, timeout=1))
        except (LookupError, TimeoutError) as exc:
            found.append(repr(exc))
    return found


def _two_tables(api: FakeBotApi, group: Any, seated: list[list[Any]], spectator: Any) -> None:
    """`spectator`, no member of the group, follows the first table from the bot's direct chat."""
    opened = open_two_tables(api, group, seated)
    with session_scope() as s:  # which creator's table got which topic
        creators = {gid: s.get(GameRow, gid).creator_id for _, gid, _ in opened}
    order = sorted(opened, key=lambda o: creators[o[1]])
    (thread_a, game_a, lobby_a), (thread_b, game_b, lobby_b) = order
    with session_scope() as s:  # a deal with a Traitor at table A: a person on each side, so it is likely rated
        s.get(GameRow, game_a).seed = RATED_DEAL
    with session_scope() as s:
        for thread, game_id in ((thread_a, game_a), (thread_b, game_b)):
            chat = s.get(Chat, s.get(GameRow, game_id).chat_id)
            assert chat.platform_id == f"{group.id}/{thread}"  # the game's chat is its topic

    for (thread, _, _), users in zip(order, seated, strict=True):
        link = next(b["url"] for b in api.buttons(group.id, lobby_in(api, group, thread).message_id) if "url" in b)
        for user in users:  # the creator too: it opens the bot's direct chat
            api.open_link(user, link)
    for (thread, _, _), users in zip(order, seated, strict=True):
        names = [p.first_name for p in users]
        api.wait(lambda t=thread, n=names: all(x in (lobby_in(api, group, t).text or "") for x in n), 30, "names")

    # a tap in one topic naming the other topic's game: refused to the tapper, neither game moves
    start_b = lobby_button(api, group, lobby_b, "start")
    start_a = lobby_button(api, group, lobby_a, "start")
    before = (game_row(game_a), game_row(game_b))
    crossed = [
        api.tap(seated[1][0], group.id, lobby_a, start_b, forge=True),  # B's creator, on A's lobby, B's start
        api.tap(seated[0][0], group.id, lobby_b, start_a, forge=True),  # A's creator, on B's lobby, A's start
    ]
    answers = [api.answer(q) for q in crossed]
    time.sleep(1.0)
    assert (game_row(game_a), game_row(game_b)) == before, answers
    assert all(a for a in answers), answers  # each told privately why (a toast), nothing said in a topic

    starts = [api.tap(seated[0][0], group.id, lobby_a, start_a), api.tap(seated[1][0], group.id, lobby_b, start_b)]
    try:  # a loaded machine (the suite's end on 2 cores) is slow here: wait longer, and say what the taps got
        api.wait(lambda: game_row(game_a)[0] == game_row(game_b)[0] == "active", 90, "both games to start")
    except TimeoutError as exc:
        rows = (game_row(game_a), game_row(game_b))
        raise TimeoutError(f"{exc}: games {rows}, taps answered {_answers(api, starts)}") from None
    api.open_bot(spectator)
    hello = t(spectator.language_code, "lobby.welcome")  # a bare /start's answer: before /follow's, not among its
    api.wait(lambda: any((m.text or "").startswith(hello) for m in api.messages(spectator.id)), 30, "the welcome")
    api.say(spectator, spectator.id, f"/follow {game_a}")
    welcome = t(spectator.language_code, "lobby.reply.followed", id=game_a)
    api.wait(lambda: any((m.text or "").startswith(welcome) for m in api.messages(spectator.id)), 30, "the welcome")
    followed_from = len(api.messages(spectator.id))

    tables = [Table(api, users, seed) for users, seed in zip(seated, (3, 4), strict=True)]
    deadline = time.monotonic() + 300
    while not all(game_row(g)[0] == "finished" for g in (game_a, game_b)):
        assert time.monotonic() < deadline, [t.describe() for t in tables]
        if not any([t.step() for t in tables]):
            time.sleep(0.05)
    api.wait(outbox_drained, 60, "the outbox to drain")
    # a loaded host took over three minutes to rate a game; the deal has a Traitor at the table, but Vivien may swap
    # it into the middle, and a game of one side is not rated (`rating_settled`)
    api.wait(lambda: rating_settled(game_a), 300, "table A's rating")
    if rated(game_a):
        title = t("en", "ratings.title", game=t("en", "lobby.game.cards"))  # table A's rating changes, in its topic
        post = api.wait(
            lambda: next((m for m in api.messages(group.id, thread_a) if (m.text or "").startswith(title)), None),
            120,
            "table A's rating post",
        )
        api.wait(lambda: (api.messages(spectator.id)[-1].text or "") == post.text, 120, "the spectator's copy of it")
    api.wait(outbox_drained, 60, "the outbox to drain")

    # every message the bot wrote in the group is in one of the two topics, and names only that topic's game
    own = {thread_a: game_a, thread_b: game_b}
    with api.world.lock:
        written = [m for m in group.messages.values() if m.from_id == api.world.bot_id and m.service is None]
    assert written and {m.thread_id for m in written} == {thread_a, thread_b}
    for msg in written:
        for button in (msg.reply_markup or {}).get("inline_keyboard", []):
            for b in button:
                tap = unpack(b.get("callback_data", "")) if "callback_data" in b else None
                named = tap.lobby_id if isinstance(tap, LobbyTap) else tap.game_id if isinstance(tap, Choice) else None
                assert named in (None, own[msg.thread_id]), (msg.thread_id, b)
    # the spectator got table A's public messages (its board, story, reveal and rating), nothing of table B, nothing
    # private
    got = [m for m in api.messages(spectator.id)[followed_from:]]
    topic_a = {m.text or m.caption for m in written if m.thread_id == thread_a}
    topic_b = {m.text or m.caption for m in written if m.thread_id == thread_b}
    # (a seat's turn is one message in the topic, each of its moves a message of the spectator's: lines of topic A)
    lines_a = {line for text in topic_a if text for line in text.split("\n")}
    unseen = [
        (m.text or m.caption or "")[:80]
        for m in got
        if (m.text or m.caption) not in topic_a and not set((m.text or m.caption or "").split("\n")) <= lines_a
    ]
    assert got and not unseen, unseen
    assert not {m.text or m.caption for m in got} & (topic_b - topic_a)
    assert not any(m.reply_markup for m in got)
    with session_scope() as s:  # each board message was sent to its own game's topic
        boards = s.execute(select(SentMessage.chat, SentMessage.ref).where(SentMessage.ref.like("board:%"))).all()
    placed = {ref.split(":")[1]: chat for chat, ref in boards}
    assert placed == {str(game_a): f"{group.id}/{thread_a}", str(game_b): f"{group.id}/{thread_b}"}
    with api.world.lock:
        board_ids = {m.message_id: m.thread_id for m in written}
    with session_scope() as s:
        found = select(SentMessage.ref, SentMessage.message_id).where(SentMessage.ref.like("board:%"))
        ids = dict(s.execute(found).all())
    assert board_ids[int(ids[f"board:{game_a}"])] == thread_a
    assert board_ids[int(ids[f"board:{game_b}"])] == thread_b
    _ratings_asked(api, group, thread_a, seated[0][0], rated(game_a))


def _ratings_asked(api: FakeBotApi, group: Any, thread: int, person: Any, rated_here: bool) -> None:
    """What `/ratings` answers in a table's topic (the standings of the people who played rated games there), and
    `/me` in the person's direct chat (their ratings and last rated games), as shown among everyone."""
    before, asked = len(api.messages(group.id, thread)), len(api.messages(person.id))
    api.say(person, group.id, "/ratings", thread_id=thread)
    title = t("en", "ratings.title", game=t("en", "lobby.game.cards"))
    wanted = title if rated_here else t("en", "ratings.none")
    answer = api.wait(
        lambda: next((m for m in api.messages(group.id, thread)[before:] if (m.text or "").startswith(wanted)), None),
        60,
        "the standings",
    )
    if rated_here:  # a first game: both players provisional, near 25, with the spread's uncertainty
        rows = answer.text.split("\n")[1:]
        assert len(rows) == 2 and all("±" in row and t("en", "ratings.provisional") in row for row in rows), rows
    api.say(person, person.id, "/me")
    mine = t("en", "ratings.yours") if rated_here else t("en", "ratings.history.none")
    own = api.wait(lambda: next((m for m in api.messages(person.id)[asked:] if mine in (m.text or "")), None), 60, "me")
    if rated_here:
        assert t("en", "ratings.history.title") in own.text and "→" in own.text
