"""Rating finished games in the database (`service.ratings`), on SQLite and PostgreSQL: the side advantage learned
from the games before, each change kept with its side and expected chance, recomputing reproduces what the games
gave, and the reads the commands show (a community's standings, the leaderboard, a person's history)."""

from __future__ import annotations

import threading
from dataclasses import astuple

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from service import ratings
from service.ratings.model import MU, PROVISIONAL_GAMES, SIGMA, Belief
from service.ratings.shown import population, shown
from service.store import session_scope
from service.store.models import Rating, RatingChange
from service.store.users import chat_for
from tests.service.ratings.rating_games import finished, rate, snapshot, user_id

FOUR = ["loyal", "loyal", "traitor", "loyal"]  # the third seat is the Traitor
PEOPLE = ["alice", "bob", "carol", "dave"]

both = pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])


def ratings_chat(s: Session, platform_id: str) -> int:
    return chat_for(s, "rec", platform_id, True).id


def _expected(game_id: int) -> dict[str, float]:
    """The chance the model gave each side of a rated game."""
    with session_scope() as s:
        return {c.side: c.expected for c in s.scalars(select(RatingChange).where(RatingChange.game_id == game_id))}


@both
def test_the_loyal_sides_record_in_a_setting_moves_its_next_prediction(fixture, request):
    request.getfixturevalue(fixture)
    games = [finished("group", PEOPLE, FOUR, "loyal") for _ in range(6)]
    for game_id in games:
        assert rate(game_id)
    first, last = _expected(games[0]), _expected(games[-1])
    assert first["loyal"] == pytest.approx(0.5) and first["evil"] == pytest.approx(0.5)  # nothing learned yet
    assert last["loyal"] > 0.6 and last["loyal"] + last["evil"] == pytest.approx(1)  # five loyal wins before it
    # newcomers (equal beliefs: the side rate alone) at this setting, then at another variant set of the same size,
    # which borrows the rate this size taught: 6 loyal wins of 6, then 6 of 7, against 20 even pseudo-games
    fresh = ["erin", "frank", "gwen", "hal"]
    default = finished("group", fresh, FOUR, "evil", variants={"squires": False, "first": 2})  # the default set
    assert rate(default) and _expected(default)["loyal"] == pytest.approx(16 / 26)
    squires = finished("group", ["ivy", "jon", "kay", "lea"], FOUR, "evil", variants={"squires": True})
    assert rate(squires) and _expected(squires)["loyal"] == pytest.approx(16 / 27)
    _, changes, sides = snapshot()
    assert sides == {("board", 4, ""): (7, 6), ("board", 4, "squires=true"): (1, 0)}  # a default is no variant
    carol = user_id("carol")  # in the Traitor's seat of the first six
    assert {(u == carol, side) for (g, u), (side, *_) in changes.items() if g in games} == {(True, "evil"),
                                                                                            (False, "loyal")}


@both
def test_recomputing_gives_what_the_games_gave_in_order(fixture, request):
    request.getfixturevalue(fixture)
    results = ["loyal", "evil", "loyal", "loyal", "evil", "loyal"]
    for i, winner in enumerate(results):
        table = PEOPLE[i % 4 :] + PEOPLE[: i % 4]  # each sits in turn in the Traitor's seat
        assert rate(finished("group", table, FOUR, winner))
    assert not rate(finished("group", ["alice", None, None], ["loyal", "traitor", "loyal"], "evil"))  # a bot Traitor
    rate(finished("other", ["erin", "alice", None], ["traitor", "loyal", "loyal"], "evil", kind="cards"))
    live = snapshot()
    with session_scope() as s:
        assert ratings.recompute(s) == 7
    assert snapshot() == live  # the same numbers, to the last bit


@both
def test_standings_of_a_community_the_leaderboard_and_a_persons_history(fixture, request):
    request.getfixturevalue(fixture)
    for i in range(PROVISIONAL_GAMES):  # alice, bob and carol play here; alice and bob win every game
        winner = "evil" if i % 2 else "loyal"
        traitor = "alice" if i % 2 else "carol"
        others = [p for p in ("alice", "bob", "carol") if p != traitor]
        assert rate(finished("group", [others[0], traitor, others[1]], ["loyal", "traitor", "loyal"], winner))
    assert rate(finished("group", ["dave", "carol", "bob"], ["loyal", "traitor", "loyal"], "loyal"))  # dave's first
    assert rate(finished("tavern", ["erin", "frank", None], ["loyal", "traitor", "loyal"], "evil"))

    bob, carol = user_id("bob"), user_id("carol")
    with session_scope() as s:
        here = ratings.standings(s, ratings_chat(s, "group"), "board")
        community = ratings.standings(s, [ratings_chat(s, "group"), ratings_chat(s, "tavern")], "board")
        cut = ratings.standings(s, [ratings_chat(s, "group"), ratings_chat(s, "tavern")], "board", limit=4)
        board = ratings.leaderboard(s, "board")
        cards = ratings.leaderboard(s, "cards")
        mine = ratings.of_user(s, bob)
        history = ratings.history(s, bob, limit=3)
        carols = ratings.history(s, carol)
    names = [row.name for row in here]
    assert set(names) == {"Alice", "Bob", "Carol", "Dave"} and names[-1] == "Dave"  # provisional ones last
    assert [row.provisional for row in here] == [False, False, False, True]
    assert here[0].rating > MU and here[2].name == "Carol" and here[2].rating < MU  # she lost every game
    assert {row.name for row in community} == set(names) | {"Erin", "Frank"} and cut == community[:4]
    assert [row.name for row in board] == names[:3] and cards == []  # provisional players are left off
    assert mine["board"].games == PROVISIONAL_GAMES + 1 and mine["board"].spread < SIGMA

    assert len(history) == 3 and history[0].before == pytest.approx(history[1].after)  # the latest first
    assert [(h.side, h.won) for h in history[:1]] == [("loyal", True)]
    assert len(carols) == PROVISIONAL_GAMES + 1 and not any(h.won for h in carols)
    assert all(h.after < h.before for h in carols) and carols[0].ended > carols[-1].ended


@both
def test_what_is_shown_is_each_person_among_everyone_and_the_notice_says_what_ratings_then_shows(fixture, request):
    """Standings, leaderboard and a person's own rating are the model's beliefs shown among everyone at the kind
    (`service.ratings.shown`); the change a game records ends at what /ratings shows right after it."""
    request.getfixturevalue(fixture)
    for i in range(8):
        table = PEOPLE[i % 4 :] + PEOPLE[: i % 4]
        assert rate(finished("group", table, FOUR, "loyal" if i % 3 else "evil"))
    ids = {p: user_id(p) for p in PEOPLE}
    with session_scope() as s:
        everyone = {r.user_id: Belief(r.mu, r.sigma) for r in s.scalars(select(Rating).where(Rating.kind == "board"))}
        people = population(everyone.values())
        here = ratings.standings(s, ratings_chat(s, "group"), "board")
        board = ratings.leaderboard(s, "board")
        last = {p: ratings.history(s, ids[p], limit=1)[0] for p in PEOPLE}
        own = {p: ratings.of_user(s, ids[p])["board"] for p in PEOPLE}
    for row in here:
        assert (row.rating, row.spread) == astuple(shown(everyone[row.user_id], people))
        assert abs(row.rating - MU) < abs(everyone[row.user_id].mu - MU)  # held towards 25
    assert [row.rating for row in board] == sorted((row.rating for row in here), reverse=True)
    assert {p: own[p].rating for p in PEOPLE} == {p: last[p].after for p in PEOPLE}  # the notice's numbers


def test_two_workers_rating_games_of_the_same_people_at_once_count_every_game(backbone_pg):
    """Games of the same people in two settings, rated by two workers at once, each taking games of both: no
    game is lost or counted twice (the setting's row and the people's rows are locked while a game is rated), and
    the total stays."""
    games = [
        finished("group", PEOPLE[i % 4 :] + PEOPLE[: i % 4], FOUR, "loyal" if i % 3 else "evil",
                 variants={"squires": i % 4 < 2})
        for i in range(24)
    ]
    errors: list[BaseException] = []

    def worker(mine: list[int]) -> None:
        try:
            for game_id in mine:
                assert rate(game_id)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(games[i::2],)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    rows, changes, sides = snapshot()
    assert sides == {("board", 4, ""): (12, 8), ("board", 4, "squires=true"): (12, 8)} and len(changes) == 96
    assert {games for (_, kind), (_, _, games, _) in rows.items()} == {24}
    assert sum(mu for mu, *_ in rows.values()) == pytest.approx(4 * MU)  # zero-sum, whatever the order
