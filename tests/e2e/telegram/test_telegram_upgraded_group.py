"""A card game whose basic group is upgraded to a supergroup mid-game (Telegram does that, e.g. when an admin gives
the bot some rights): the group gets a new chat id and the old one refuses everything. The whole stack follows,
and the game goes on to its end in the supergroup with nothing lost."""

from __future__ import annotations

import time

import pytest
from fake_bot_api import FakeBotApi
from fake_bot_api.server import DEFAULT_BOT_RIGHTS
from sqlalchemy import func, select
from telegram_audit import rating_settled, rendered
from telegram_players import Table
from telegram_stack import Stack
from test_telegram_games import CARDS_SEED, game_row, open_table, outbox_drained

from service.store import session_scope
from service.store.models import Chat, GameRow, OutboxRow
from service.store.outbox import shard_of

pytestmark = pytest.mark.e2e


def test_card_game_goes_on_in_the_supergroup_its_group_became(stack: Stack, fake_api: FakeBotApi) -> None:
    api = fake_api
    users = [api.add_user(name) for name in ("Arthur", "Kay", "Guinevere", "Lancelot")]
    api.add_group("Another table", [], basic=True)  # so that the game's old and new ids have different shards
    group, game_id, lobby_id = open_table(api, "cards", users, CARDS_SEED, DEFAULT_BOT_RIGHTS, basic=True)
    table = Table(api, users, CARDS_SEED)
    table.play_until(lambda: game_row(game_id)[1] >= 3, timeout=120)
    upgraded_at = game_row(game_id)[1]
    new = api.migrate(group.id, users[0])  # mid-flight: taps in play, their messages on the way
    assert shard_of(str(group.id)) != shard_of(str(new.id))  # the moved rows change senders
    old_records = len(api.records(group.id))
    try:
        table.play_until(lambda: game_row(game_id)[0] == "finished", timeout=420)
    except TimeoutError as exc:
        raise TimeoutError(f"{exc}\n{stack.log_tail()}") from None
    try:
        api.wait(lambda: rating_settled(game_id), 180, "the game's rating")  # a notice, if rated, is the game's last
    except TimeoutError as exc:
        raise TimeoutError(f"{exc}\n{stack.log_tail()}") from None
    api.wait(outbox_drained, 60, "the outbox to drain")
    time.sleep(0.5)

    audit = rendered(game_id)
    assert audit.moves > upgraded_at
    with session_scope() as s:
        chat = s.get(Chat, s.get(GameRow, game_id).chat_id)
        assert chat.platform_id == str(new.id)
        statuses = dict(s.execute(select(OutboxRow.status, func.count()).group_by(OutboxRow.status)).all())
    assert set(statuses) <= {"sent", "superseded"}, statuses  # nothing failed, nothing left behind
    assert len(api.records(group.id)) == old_records  # the old id took nothing since
    lobby = (group.messages[lobby_id].text or "").split("\n")[0]  # "New game of …"
    in_new = [r for r in api.records(new.id) if r.action in ("send", "edit")]
    assert in_new and all(
        audit.public_text(r.text) for r in in_new if not r.text.startswith(lobby)
    )  # (an edit of the lobby
    # still on its way moves too, and is sent anew: its message stays with the old id)
    assert new.pinned is not None and new.messages[new.pinned].text == audit.last_board  # the final board, pinned
    assert api.rejected == [] and api.throttled == []
    unexpected = [
        e
        for e in api.errors
        if "upgraded to a supergroup" not in e[2] and not (e[0].startswith("edit") and "is not modified" in e[2])
    ]
    assert unexpected == [], unexpected
    print(
        "upgraded at move",
        upgraded_at,
        "of",
        audit.moves,
        "; refused by the old id:",
        len(api.errors) - len(unexpected),
    )
