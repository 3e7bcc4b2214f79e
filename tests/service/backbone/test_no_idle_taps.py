"""No idle taps (issue 23 item 5): a window asked of everyone to keep a secret (who holds a Merlin) is answered with
the default after a short time, the same for everyone asked; who is asked and for how long never depends on a
hidden card. The share of decisions that offer one choice only and wait for a tap is measured and printed."""

from __future__ import annotations

import random
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import get_game
from engine.bots import heuristic_bot
from service.callback import pack
from service.chat.base import Inbound
from service.play import lobby, no_idle
from service.play.dispatch import submit
from service.play.scans import scan
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import Deadline, GameRow

BOARD = get_game("board")


def _played(seed: int, moves: int) -> object:
    """A 4-player board game after `moves` heuristic moves (or its end)."""
    state, rng, bot = BOARD.new_game({"players": 4}, seed), random.Random(seed), heuristic_bot("board")
    for _ in range(moves):
        if BOARD.result(state) is not None:
            break
        seat = BOARD.pending(state)[0].seat
        state, _ = BOARD.apply(state, seat, bot.choose(BOARD, state, seat, rng))
    return state


def _asked(state: object) -> set[tuple[int, str]]:
    return {(p.seat, no_idle.timing("board", p)) for p in BOARD.pending(state)}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 400), redeal=st.integers(0, 10_000))
def test_who_is_asked_and_for_how_long_never_depends_on_hidden_cards(seed: int, moves: int, redeal: int) -> None:
    state = _played(seed, moves)
    other = BOARD.resample_hidden(state, None, random.Random(redeal))  # the same table, other hands and decks
    assert BOARD.view(other, None) == BOARD.view(state, None)
    assert _asked(other) == _asked(state)


def test_one_choice_decisions_that_wait_for_a_tap_fall_under_five_percent() -> None:
    """Each question a person would get in 4-player board games of heuristic players: before, every one-choice
    question waited for a tap; now a secret-keeping window's pass is played after the short window time."""
    questions = one_choice = idle = 0
    for seed in range(12):
        state, rng, bot = BOARD.new_game({"players": 4}, seed), random.Random(seed), heuristic_bot("board")
        before: set[int] = set()
        actor = None
        while BOARD.result(state) is None:
            pending = BOARD.pending(state)
            for p in pending:
                if p.seat in before and p.seat != actor:
                    continue  # the same question, still open
                questions += 1
                if len(BOARD.legal_actions(state, p.seat)) == 1:
                    one_choice += 1
                    idle += no_idle.timing("board", p) != no_idle.WINDOW
            actor = pending[0].seat
            before = {p.seat for p in pending}
            state, _ = BOARD.apply(state, actor, bot.choose(BOARD, state, actor, rng))
    was, now = 100 * one_choice / questions, 100 * idle / questions
    print(f"one-choice questions in {questions}: {was:.1f} % before, {now:.1f} % waiting for a tap now")
    assert now < 5 <= was


STACK = {
    "skip_gesture": True,
    "knights": ["gawain", "palamedes", "percival"],
    "first": 0,
    "loyalty": ["loyal", "loyal", "loyal"],
    "black": ["morgan_two_engines"],
    "hands": [["fight_1"], ["merlin", "fight_2"], ["fight_3"]],
}


def test_a_merlin_window_asks_everyone_and_passes_for_them_after_the_short_time(backbone_local, recording):
    game_id = lobby.create_and_start("rec", "group", "board", {"stack": STACK}, ["ann", "bob", "cat"], 0, seed=3)
    with session_scope() as s:
        seq = s.get(GameRow, game_id).seq
    submit(Inbound("rec", "dm-ann", "ann", "w1", "tap", text=pack(game_id, seq, "evil:black")))
    with session_scope() as s:
        rows = s.query(Deadline).filter_by(game_id=game_id).all()
        windows = {r.seat: r for r in rows}
        assert {r.timing for r in rows} == {no_idle.WINDOW} and len(rows) >= 2  # bob (a Merlin) and the others alike
        assert all(abs((r.due_at - r.started_at).total_seconds() - backbone_local.window_deadline) < 1 for r in rows)
        due = max(r.due_at for r in rows)
        logged = len(game_rows.action_log(s, game_id))
    assert scan(due + timedelta(seconds=1))["timeouts"] == len(windows)
    with session_scope() as s:
        passes = game_rows.action_log(s, game_id)[logged:]
    assert sorted(seat for seat, _ in passes) == sorted(windows) and {code for _, code in passes} == {"pass"}
    said = [c.text for chat in ("group", "dm-ann", "dm-bob", "dm-cat") for c in recording.sent(chat)]
    assert not any("ran out of time" in text or text.startswith("⌛") for text in said)  # a pass, not a lapse
