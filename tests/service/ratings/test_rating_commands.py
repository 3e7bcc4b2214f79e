"""`/ratings top` (the global leaderboard), `/ratings help` and `/me` (one's ratings and history) through the
command job, answered in the chat they were asked in; `/ratings` keeps its per-community standings."""

from __future__ import annotations

from sqlalchemy import update

from service.play import lobby
from service.play import rating as rating_task
from service.play.dispatch import submit
from service.ratings import PROVISIONAL_GAMES
from service.store import session_scope
from service.store.models import GameRow
from tests.service.backbone.test_pipeline_local import command


def _rated_game(chat: str, people: list[str], loyalty: list[str], winner: str, seed: int) -> None:
    game_id = lobby.create_and_start("rec", chat, "cards", {}, people, 0, seed=seed)
    with session_scope() as s:
        result = {"winner": winner, "reason": "swords", "loyalty": loyalty}
        s.execute(update(GameRow).where(GameRow.id == game_id).values(status="finished", result=result))
    assert rating_task.rate(game_id) == "rated"


def test_the_leaderboard_lists_people_past_their_provisional_games_across_communities(backbone_local, recording):
    submit(command("dave", "ratings", "top", "cards"))
    assert recording.sent("group")[-1].text == (
        f"Shadows over Camelot: The Card Game: no one is on the leaderboard yet; it lists people with at least "
        f"{PROVISIONAL_GAMES} rated games."
    )
    for n in range(PROVISIONAL_GAMES):  # alice, the Traitor each time, wins every game, in two communities
        _rated_game("group" if n % 2 else "elsewhere", ["alice", "bob", "carol"], ["traitor", "loyal", "loyal"],
                    "evil", seed=n)
    _rated_game("group", ["erin", "bob", "carol"], ["traitor", "loyal", "loyal"], "evil", seed=9)  # one game only
    submit(command("dave", "ratings", "top"))
    sections = recording.sent("group")[-1].text.split("\n\n")
    assert sections[0].startswith("Shadows over Camelot (board game): no one is on the leaderboard yet")
    lines = sections[1].splitlines()
    assert lines[0] == "🏆 Leaderboard · Shadows over Camelot: The Card Game"
    names = [line.split(":")[0].split(". ")[1] for line in lines[1:]]
    assert names[0] == "alice" and sorted(names[1:]) == ["bob", "carol"]  # erin is provisional: not listed
    assert lines[1].endswith(f"{PROVISIONAL_GAMES} won of {PROVISIONAL_GAMES}")


def test_the_help_and_ones_own_history(backbone_local, recording):
    submit(command("dave", "ratings", "help", chat="dm-dave"))
    assert recording.sent("dm-dave")[-1].text.startswith("How ratings work.")
    submit(command("alice", "me", chat="dm-alice"))
    assert recording.sent("dm-alice")[-1].text == "You have no rated games yet."
    _rated_game("group", ["alice", "bob", "carol"], ["traitor", "loyal", "loyal"], "evil", seed=3)
    _rated_game("group", ["alice", "bob", "carol"], ["loyal", "traitor", "loyal"], "evil", seed=4)
    submit(command("alice", "me"))  # asked in the group: answered there
    own, history = recording.sent("group")[-1].text.split("\n\n")
    assert own.splitlines()[0] == "🏅 Your ratings" and own.splitlines()[1].startswith(
        "Shadows over Camelot: The Card Game: 2")
    rows = history.splitlines()
    assert rows[0] == "🏅 Your last rated games" and len(rows) == 3
    assert "card game · Loyal, lost: " in rows[1] and "card game · Traitor, won: " in rows[2]  # the latest first
