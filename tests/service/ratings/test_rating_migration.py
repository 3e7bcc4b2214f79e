"""Migration 0005 on PostgreSQL and SQLite: from the schema and numbers the 0004 code left, every rating is
recomputed from the finished games in order, exactly as the new code rates them one by one; and it goes down
again."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import inspect, text

from service.store import get_engine
from service.store.migrate import alembic_config
from tests.service.ratings.rating_games import finished, rate, snapshot, user_id

LOYALTY = ["loyal", "traitor", "loyal", "loyal"]


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_the_migration_recomputes_the_ratings_0004_left(fixture, request):
    request.getfixturevalue(fixture)
    cfg = alembic_config()
    for i, winner in enumerate(["loyal", "evil", "evil", "loyal", "loyal"]):
        people = ["alice", "bob", "carol", "dave"][i % 2 :] + ["alice", "bob"][: i % 2]
        assert rate(finished("group", people, LOYALTY, winner))
    bot_traitor = finished("group", ["alice", None, "bob", "carol"], LOYALTY, "evil")  # rated by the 0004 rule only
    assert rate(finished("elsewhere", ["erin", "alice", None], ["loyal", "traitor", "loyal"], "evil", kind="cards"))
    wanted, alice = snapshot(), user_id("alice")

    command.downgrade(cfg, "0004")
    try:
        assert "rating_sides" not in inspect(get_engine()).get_table_names()
        with get_engine().begin() as conn:  # what the 0004 code left: other numbers, and the bot Traitor's game rated
            conn.execute(text("UPDATE ratings SET mu = mu - 7, sigma = 1, games = games + 1"))
            conn.execute(
                text("INSERT INTO rating_changes (game_id, user_id, kind, won, before, after, created) "
                     "VALUES (:game, :user, 'board', false, 0, -3.4, CURRENT_TIMESTAMP)"),
                {"game": bot_traitor, "user": alice},
            )
        command.upgrade(cfg, "head")
    finally:
        command.upgrade(cfg, "head")  # nothing to do when the upgrade above ran: the next tests need the head
    assert snapshot() == wanted

    command.downgrade(cfg, "0004")  # down keeps the recomputed numbers in the old tables
    with get_engine().connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM rating_changes")).scalar() == len(wanted[1])
        mus = dict(conn.execute(text("SELECT user_id, mu FROM ratings WHERE kind = 'board'")).all())
    command.upgrade(cfg, "head")
    assert mus == {user: rating[0] for (user, kind), rating in wanted[0].items() if kind == "board"}
    assert snapshot() == wanted


@pytest.mark.parametrize(
    ("below", "left"),
    [
        ("0009", "UPDATE ratings SET mu = mu + 2, sigma = sigma + 0.8"),  # 0010: what the damped update left
        ("0011", "UPDATE rating_changes SET before = before + 3, after = after - 3"),  # 0012: the model's means
    ],
)
@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_a_recomputing_migration_gives_what_the_games_give_now(fixture, request, below, left):
    """Migrations 0010 (the full-information update) and 0012 (the changes in ratings as shown) recompute what
    the code before them left: other numbers, in the same schema."""
    request.getfixturevalue(fixture)
    cfg = alembic_config()
    for i, winner in enumerate(["loyal", "evil", "loyal"]):
        people = ["alice", "bob", "carol", "dave"][i % 2 :] + ["alice", "bob"][: i % 2]
        assert rate(finished("group", people, LOYALTY, winner))
    wanted = snapshot()

    command.downgrade(cfg, below)
    try:
        with get_engine().begin() as conn:
            conn.execute(text(left))
        assert snapshot() != wanted
    finally:
        command.upgrade(cfg, "head")
    assert snapshot() == wanted
