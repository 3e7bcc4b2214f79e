"""Ratings: a finished game with a person on each side moves its people's ratings, the winning side up, once; the
group is told, and `/ratings` shows a chat's standings (a person's own in their direct chat)."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from service.play import bot_move, lobby
from service.play import rating as rating_task
from service.play.dispatch import submit
from service.store import session_scope
from service.store.games import seats_of
from service.store.models import GameRow, Rating, RatingChange, User
from tests.service.backbone.test_pipeline_local import command


def _finish(game_id: int, winner: str | None, loyalty: list[str]) -> None:
    """End the game as the engine would have, with this result."""
    with session_scope() as s:
        result = {"winner": winner, "reason": "swords", "loyalty": loyalty}
        s.execute(update(GameRow).where(GameRow.id == game_id).values(status="finished", result=result))


def _ratings(kind: str) -> dict[str, tuple[float, float, int, int]]:
    with session_scope() as s:
        rows = s.execute(
            select(User.platform_id, Rating).join(Rating, Rating.user_id == User.id).where(Rating.kind == kind)
        )
        return {uid: (r.mu, r.sigma, r.games, r.wins) for uid, r in rows}


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_a_finished_game_moves_its_peoples_ratings_once_winners_up(fixture, request, recording):
    request.getfixturevalue(fixture)
    game_id = lobby.create_and_start("rec", "group", "cards", {}, ["alice", "bob", "carol"], 1, seed=4)
    _finish(game_id, "evil", ["loyal", "traitor", "loyal", "loyal"])  # bob was the Traitor, and won

    assert rating_task.rate(game_id) == "rated"
    first = _ratings("cards")
    assert set(first) == {"alice", "bob", "carol"}  # the bot keeps no rating
    bob_mu, _, bob_games, bob_wins = first["bob"]
    assert bob_games == 1 and bob_wins == 1 and bob_mu > 25.0
    assert all(mu < 25.0 and games == 1 and wins == 0 for uid, (mu, _, games, wins) in first.items() if uid != "bob")
    with session_scope() as s:
        changes = {c.user_id: c for c in s.scalars(select(RatingChange).where(RatingChange.game_id == game_id))}
        assert len(changes) == 3 and sum(c.won for c in changes.values()) == 1
        assert all((c.after > c.before) == c.won for c in changes.values())

    notice = recording.sent("group")[-1].text
    assert notice.startswith("🏅 Ratings · Shadows over Camelot: The Card Game")
    assert notice.splitlines()[1].startswith("bob: ") and "(+" in notice.splitlines()[1]  # the winner first
    assert "(−" in notice.splitlines()[2]

    sent = len(recording.calls)
    assert rating_task.rate(game_id) == "not_rated"  # a redelivered request: nothing twice
    assert _ratings("cards") == first and len(recording.calls) == sent


@pytest.mark.parametrize(
    ("winner", "loyalty", "humans"),
    [
        ("loyal", ["loyal", "loyal", "loyal"], ["alice", "bob", "carol"]),  # no Traitor: one side only
        (None, ["loyal", "traitor", "loyal"], ["alice", "bob", "carol"]),  # stopped at the turn cap: no winner
        ("loyal", ["loyal", "traitor", "loyal"], []),  # bots only
        ("loyal", ["loyal", "loyal", "traitor"], ["alice", "bob"]),  # people on one side only: the Traitor a bot
        ("evil", ["traitor", "loyal", "loyal"], ["alice"]),  # one person against bots
        ("loyal", ["loyal", "traitor", "loyal"], ["alice", "alice"]),  # one account in two seats: on either side
    ],
)
def test_games_without_two_sides_a_winner_or_a_person_on_each_side_are_not_rated(
    backbone_local, recording, winner, loyalty, humans
):
    game_id = lobby.create_and_start("rec", "group", "cards", {}, humans, 3 - len(humans), seed=4)
    _finish(game_id, winner, loyalty)
    assert rating_task.rate(game_id) == "not_rated"
    with session_scope() as s:
        assert s.scalars(select(RatingChange)).all() == [] and s.scalars(select(Rating)).all() == []


def test_a_game_played_to_its_end_is_rated_by_the_move_that_ends_it(backbone_local, recording):
    """Through the pipeline: alice's and bob's moves by timeout (bob dealt the Traitor), the bots' in turn; the last
    move hands on the rating."""
    deal = {"stack": {"loyalty": ["loyal", "traitor", "loyal", "loyal", "loyal", "loyal"]}}
    game_id = lobby.create_and_start("rec", "group", "cards", deal, ["alice", "bob"], 2, seed=11)
    for _ in range(500):
        with session_scope() as s:
            rows = seats_of(s, game_id)
            open_prompts = [(r.seat, r.prompt_seq) for r in rows if r.user_id and r.prompt_seq is not None]
        if not open_prompts:
            break
        for seat, prompt in open_prompts:
            bot_move.play_bot(game_id, seat, prompt, by="timeout")
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        assert game.status == "finished" and game.result["winner"] in ("loyal", "evil")
        changes = {c.side: c for c in s.scalars(select(RatingChange).where(RatingChange.game_id == game_id))}
        assert set(changes) == {"loyal", "evil"} and changes["evil"].won == (game.result["winner"] == "evil")
    assert any(call.text.startswith("🏅 Ratings") for call in recording.sent("group"))


def test_the_ratings_command_shows_the_chats_standings_and_ones_own_in_private(backbone_local, recording):
    submit(command("dave", "ratings"))
    assert recording.sent("group")[-1].text.startswith("No rated games yet.")
    # alice wins both (as the Traitor, then beside bob against carol); carol loses both
    results = ((4, "evil", ["traitor", "loyal", "loyal"]), (5, "loyal", ["loyal", "loyal", "traitor"]))
    for seed, winner, loyalty in results:
        game_id = lobby.create_and_start("rec", "group", "cards", {}, ["alice", "bob", "carol"], 0, seed=seed)
        _finish(game_id, winner, loyalty)
        assert rating_task.rate(game_id) == "rated"
    elsewhere = lobby.create_and_start("rec", "other-group", "board", {}, ["erin", "alice"], 1, seed=6)
    _finish(elsewhere, "evil", ["loyal", "traitor", "loyal"])  # alice the Traitor, and won
    assert rating_task.rate(elsewhere) == "rated"

    asked = command("dave", "ratings", "chess")  # an unknown kind is ignored: both kinds
    replies = len(recording.sent("group"))
    submit(asked)
    submit(asked)  # the same update again: answered once
    assert len(recording.sent("group")) == replies + 1
    lines = recording.sent("group")[-1].text.splitlines()
    assert lines[0] == "🏅 Ratings · Shadows over Camelot: The Card Game"  # no board game was played here
    assert [line.split(":")[0] for line in lines[1:]] == ["1. alice", "2. bob", "3. carol"]
    assert lines[3].endswith("0 won of 2 · provisional")

    submit(command("alice", "ratings", chat="dm-alice"))
    mine = recording.sent("dm-alice")[-1].text.splitlines()
    assert mine[0] == "🏅 Your ratings" and len(mine) == 3  # both kinds: she played a board game elsewhere
    assert mine[1].startswith("Shadows over Camelot (board game): 2")  # headed by the game, not her own name
    assert mine[1].endswith("1 won of 1 · provisional")


def test_the_scan_hands_on_a_rating_a_crash_lost_once(backbone_local, recording):
    """The final move committed but its `rate_game` never ran (a worker killed in between): the beat's scan hands it
    on once the game has been over for the recovery grace, once; a game that is not rated is not handed on."""
    from datetime import timedelta

    from service.store.models import utcnow

    lost = lobby.create_and_start("rec", "group", "cards", {}, ["alice", "bob"], 1, seed=4)
    _finish(lost, "loyal", ["loyal", "traitor", "loyal"])
    solo = lobby.create_and_start("rec", "solo", "cards", {}, ["carol"], 0, seed=5)
    _finish(solo, "evil", ["loyal"])  # no Traitor: never rated, never handed on
    hot = lobby.create_and_start("rec", "hot", "cards", {}, ["dave", "dave"], 1, seed=6)
    _finish(hot, "loyal", ["loyal", "traitor", "loyal"])  # handed on, and then found not to be rated
    assert rating_task.rate_missed() == 0  # just over: its own task may still be on its way
    later = utcnow() + timedelta(seconds=backbone_local.recovery_grace + 1)
    assert rating_task.rate_missed(later) == 2  # in-process: rated (or not) at once
    with session_scope() as s:
        assert {c.user_id for c in s.scalars(select(RatingChange))} == {
            u.id for u in s.scalars(select(User).where(User.platform_id.in_(["alice", "bob"])))
        }
    assert recording.sent("group")[-1].text.startswith("🏅 Ratings")
    assert rating_task.rate_missed(later) == 0  # the rated one is found rated, the other was asked once
    much_later = utcnow() + timedelta(seconds=rating_task.MISSED_WITHIN + 1)
    assert rating_task.rate_missed(much_later) == 0
