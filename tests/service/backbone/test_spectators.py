"""Spectators (issue 25 item 4): `/follow <table>` from the bot's direct chat brings a table's public board and story
there, and the full reveal at the end; never anything private. The leak test plays a whole card game by timeouts
with a follower and checks that everything the follower got is something the table's own chat got, and nothing a
seat's direct chat got alone."""

from __future__ import annotations

import itertools

from sqlalchemy import select

from service.chat.base import Inbound
from service.play import bot_move, lobby
from service.play.dispatch import submit
from service.render.i18n import t
from service.store import session_scope
from service.store.games import seats_of
from service.store.models import Follower, GameRow, RatingChange

GROUP = "club"
PEOPLE = ["ann", "ben", "cat"]
_ids = itertools.count(1)


def _say(user: str, command: str, *args: str, chat: str | None = None) -> None:
    where = chat or f"dm-{user}"
    submit(Inbound("rec", where, user, f"sp{next(_ids)}", "command", command=command, args=args,
                   user_name=user.title(), is_group=where == GROUP))


def _texts(recording, chat: str) -> list[str]:
    return [c.text for c in recording.calls if c.chat == chat and c.text]


def _play_by_timeouts(game_id: int, until_seq: int | None = None) -> None:
    for _ in range(3000):
        with session_scope() as s:
            game = s.get(GameRow, game_id)
            over = game.status != "active" or (until_seq is not None and game.seq >= until_seq)
            prompts = [(r.seat, r.prompt_seq) for r in seats_of(s, game_id) if r.user_id and r.prompt_seq is not None]
        if over:
            return
        for seat, prompt in prompts:
            bot_move.play_bot(game_id, seat, prompt, by="timeout")
    raise AssertionError("the game did not end")


def test_a_follower_gets_the_public_board_and_story_and_the_reveal_and_nothing_private(backbone_local, recording):
    for person in [*PEOPLE, "olga", "pete"]:  # everyone has written to the bot privately
        _say(person, "help")
    game_id = lobby.create_and_start("rec", GROUP, "cards", {}, PEOPLE, 1, seed=45)
    _say("olga", "follow", str(game_id))
    _say("pete", "follow", f"#{game_id}")
    welcome = t("en", "lobby.reply.followed", id=game_id)
    assert _texts(recording, "dm-olga")[-1].startswith(welcome)  # with the board as it stands
    _say("olga", "follow", str(game_id))
    assert _texts(recording, "dm-olga")[-1] == t("en", "lobby.reply.already_following")
    _say("olga", "follow", "99999")
    assert _texts(recording, "dm-olga")[-1] == t("en", "lobby.reply.no_table")
    before = len(_texts(recording, GROUP))
    _say("olga", "follow", str(game_id), chat=GROUP)  # from the group: told privately, the group hears nothing
    assert _texts(recording, "dm-olga")[-1] == t("en", "lobby.reply.direct_only")
    assert len(_texts(recording, GROUP)) == before

    _play_by_timeouts(game_id, until_seq=12)
    _say("pete", "unfollow", str(game_id))
    assert _texts(recording, "dm-pete")[-1] == t("en", "lobby.reply.unfollowed", id=game_id)
    pete_had = len(recording.sent("dm-pete"))
    _play_by_timeouts(game_id)
    with session_scope() as s:
        assert s.get(GameRow, game_id).status == "finished"
        assert s.scalars(select(Follower.user_id).where(Follower.game_id == game_id)).all()

    followed = [c for c in recording.sent("dm-olga") if c.text][5:]  # after the replies above
    group = set(_texts(recording, GROUP))
    assert len(followed) > 10  # the story of the game came
    group_lines = {line for text in group for line in text.split("\n")}  # (a seat's turn is one message there)
    assert all(c.text in group or set(c.text.split("\n")) <= group_lines for c in followed)
    private = {text for person in PEOPLE for text in _texts(recording, f"dm-{person}")} - group
    assert private and not private & {c.text for c in followed}  # no hand, loyalty or prompt of a seat
    assert all(c.buttons is None for c in recording.sent("dm-olga"))
    assert any(c.method == "edit_text" for c in recording.sent("dm-olga"))  # the board, edited in place
    closing = [text for text in _texts(recording, GROUP) if text.startswith("🏁")]  # every seat's loyalty shown
    assert len(closing) == 1 and closing[0] in {c.text for c in followed}  # the full reveal at the end
    assert len(recording.sent("dm-pete")) == pete_had  # nothing after the unfollow


def test_a_follower_gets_the_tables_timeout_notices_and_its_rating(backbone_local, recording):
    """What the table's chat is told outside a move's own messages is public too: each timeout, and the rating
    changes after the end (`spectators.tell`)."""
    people = [*PEOPLE, "dan"]
    for person in [*people, "olga"]:
        _say(person, "help")
    game_id = lobby.create_and_start("rec", GROUP, "cards", {}, people, 0, seed=45)
    _say("olga", "follow", str(game_id))
    _play_by_timeouts(game_id)
    with session_scope() as s:  # rated as the game ended (its `rate_game`, run in-process here)
        assert s.scalars(select(RatingChange.user_id).where(RatingChange.game_id == game_id)).all()

    followed = [c.text for c in recording.sent("dm-olga") if c.text]
    group = _texts(recording, GROUP)
    timeout = t("en", "notice.timeout", name="{name}").split("{name}")[1]
    told = [text for text in group if timeout in text]
    assert told and [text for text in followed if timeout in text] == told  # every timeout, in order
    title = t("en", "ratings.title", game=t("en", "lobby.game.cards"))
    rated = [text for text in group if text.startswith(title)]
    assert len(rated) == 1 and followed[-1] == rated[0]  # the rating post, last
    shown = followed[2:]  # after the replies to /help and /follow
    group_lines = {line for text in group for line in text.split("\n")}  # (a seat's turn is one message there)
    unseen = [text[:80] for text in shown if text not in group and not set(text.split("\n")) <= group_lines]
    assert not unseen, unseen
