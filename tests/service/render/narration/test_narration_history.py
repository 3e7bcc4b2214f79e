"""The story from the log: replay, "since your last turn", /log pages, the after-game reveal."""

from __future__ import annotations

from service.render.narration import (
    log_file,
    log_lines,
    log_page,
    moves,
    narrate,
    reveal_lines,
    since_last_turn,
    since_seat,
)
from service.render.narration.messages import size
from tests.service.render.narration.games import NAMES, logs, record, seats_of


def test_the_log_replays_into_the_moves_the_game_was_played_with():
    for game in ("board", "cards"):
        played, codes, config = record(game, 3)
        assert len(played) > 20
        assert moves(game, config, 3, codes) == played


def test_since_last_turn_tells_what_came_after_the_seats_own_decision_in_its_own_view():
    log = list(logs("board")[1])
    seat = 1
    cut = next(i for i in range(len(log) - 1, 0, -1) if log[i][1] == seat and i < len(log) - 5)
    upto = log[: cut + 5]  # four moves of others after his decision (the fifth is his own again, or not)
    after = since_seat(upto, seat)
    assert all(who != seat for _, who, _ in after) and after == upto[-len(after):]
    text = since_last_turn("board", upto, seat, "en", NAMES)
    wanted = [line for _, _, ev in after for line in narrate("board", ev, "en", NAMES, seat)]
    if wanted:
        assert text.split("\n") == ["📜 Since your last turn:", *wanted]
    else:
        assert text == "📜 Nothing new since your last turn."


def test_since_last_turn_never_shows_another_seats_secret():
    log = list(logs("board")[2])
    for seat in seats_of(log):
        text = since_last_turn("board", log[:80], seat, "en", NAMES)
        for _, _, events in since_seat(log[:80], seat):
            for e in events:
                if not e.public and not e.visible_to(seat):
                    for line in narrate("board", [e], "en", NAMES, viewer=min(e.to)):
                        assert line not in text


def test_a_long_absence_keeps_the_newest_lines_within_one_message():
    log = list(logs("cards")[0])
    text = since_last_turn("cards", log, viewer=99, lang="cs", seat_names=NAMES, limit=600)
    lines = text.split("\n")
    assert size(text) <= 600
    assert lines[0] == "📜 Od tvého posledního tahu:" and lines[1].startswith("… ")
    assert lines[1].endswith(("řádek", "řádky", "řádků"))
    full = [line for _, _, ev in log for line in narrate("cards", ev, "cs", NAMES, 99)]
    assert lines[2:] == full[-len(lines[2:]):]


def test_log_pages_run_oldest_to_newest_and_the_newest_is_shown_first():
    lines = [f"line {i}" for i in range(45)]
    newest = log_page(lines, "en")
    assert (newest.page, newest.pages) == (3, 3)
    assert newest.messages == ["📜 Game log, page 3/3\n" + "\n".join(lines[25:])]
    assert log_page(lines, "en", 1).messages[0].split("\n")[1:] == lines[:5]
    assert log_page(lines, "en", 2).messages[0].split("\n")[1:] == lines[5:25]
    assert log_page(lines, "en", 99).page == 3
    assert log_page([], "it").messages == ["📜 Non è ancora successo nulla."]


def test_after_the_end_every_seats_secrets_are_shown_with_its_name():
    log = list(logs("board")[4])[:30]
    lines = reveal_lines("board", log, "en", NAMES)
    public = log_lines("board", log, "en", NAMES)
    secret = [line for line in lines if line.startswith("🔒 ")]
    assert [line for line in lines if not line.startswith("🔒 ")] == public
    hands = [line for line in secret if ": 🃏 Your hand: " in line]
    assert len(hands) == len(seats_of(log)) and hands[0].startswith("🔒 Anna: 🃏 Your hand: ")
    assert log_file(lines).decode("utf-8").splitlines() == lines
