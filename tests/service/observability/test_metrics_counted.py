"""The Prometheus counters count what happened, where it happened (in-process here, with the toy game): moves applied
and refused by reason with their round trips, games started and ended, reminders and timeouts, and every call to
the platform by kind, with its 429s and failures."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from prometheus_client.metrics import MetricWrapperBase

from service import jobs
from service.callback import pack
from service.chat.base import Inbound, PermanentError, RateLimited
from service.observability import metrics
from service.play import lobby
from service.play.dispatch import submit
from service.store import session_scope
from service.store.models import ActionRow, Deadline, GameRow, Seat

COUNTED = [m for m in vars(metrics).values() if isinstance(m, MetricWrapperBase)]


class Delta:
    """The change of the counted samples across a block: `with Delta() as d: …; d("camelot_…_total", by="bot")`."""

    def __enter__(self) -> Delta:
        self.before = self._read()
        return self

    def __exit__(self, *exc: object) -> None:
        self.after = self._read()

    def _read(self) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        return {self._key(s): s.value for metric in COUNTED for family in metric.collect() for s in family.samples}

    def __call__(self, name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return self.after.get(key, 0.0) - self.before.get(key, 0.0)

    @staticmethod
    def _key(s) -> tuple[str, tuple[tuple[str, str], ...]]:
        return s.name, tuple(sorted(s.labels.items()))


def tap(user: str, game_id: int, seq: int, code: str, n: list[int] = [0]) -> None:  # noqa: B006 - a counter
    n[0] += 1
    submit(Inbound("rec", f"dm-{user}", user, f"m{n[0]}", "tap", text=pack(game_id, seq, code)))


def prompt_seq(game_id: int, seat: int) -> int | None:
    with session_scope() as s:
        return s.query(Seat).filter_by(game_id=game_id, seat=seat).one().prompt_seq


def test_an_all_bot_game_counts_its_moves_round_trips_start_end_and_every_send(backbone_local, toy_game, recording):
    with Delta() as d:
        game_id = lobby.create_and_start("rec", "table", "toy", {"target": 15}, [], 3, seed=5)
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        assert game.status == "finished"
        moves = game.seq
    assert moves > 5
    assert d("camelot_moves_applied_total", by="bot") == moves
    assert d("camelot_move_round_trip_seconds_count", by="bot") == moves
    assert d("camelot_move_round_trip_seconds_sum", by="bot") > 0
    assert d("camelot_moves_applied_total", by="person") == 0
    assert d("camelot_games_started_total", kind="toy") == 1
    assert d("camelot_games_ended_total", kind="toy", how="finished") == 1
    calls = Counter(c.method for c in recording.calls)
    sends = sum(d("camelot_messages_sent_total", platform="rec", kind="send", chat=c) for c in ("group", "direct"))
    edits = sum(d("camelot_messages_sent_total", platform="rec", kind="edit", chat=c) for c in ("group", "direct"))
    assert sends == calls["send_text"] + calls["send_photo"] > 0
    assert edits == calls["edit_text"] + calls["edit_photo"] > 0


def test_a_persons_moves_applied_and_refused_by_reason(backbone_local, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    seq = prompt_seq(game_id, 0)
    with Delta() as d:
        tap("bob", game_id, seq, "add:1")  # alice's turn
        tap("dave", game_id, seq, "add:1")  # not at the table
        tap("alice", game_id, seq, "add:9")  # no such move
        tap("alice", game_id, seq, "add:1")
        tap("alice", game_id, seq, "add:1")  # the same button again: it has gone
    with session_scope() as s:
        assert s.query(ActionRow).filter_by(game_id=game_id).count() == 1
    assert d("camelot_moves_applied_total", by="person") == 1
    assert d("camelot_move_round_trip_seconds_count", by="person") == 1
    for reason in ("not_your_turn", "not_seated", "illegal", "expired"):
        assert d("camelot_moves_refused_total", by="person", reason=reason) == 1, reason


def test_a_started_game_aborted_ends_a_lobby_aborted_does_not(backbone_local, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    with Delta() as d:
        assert lobby.abort(game_id, "rec", "alice", is_admin=True) == "ok"
    assert d("camelot_games_ended_total", kind="toy", how="aborted") == 1
    status, lobby_id = lobby.create("rec", "grp2", "alice", kind="toy")
    assert status == "ok"
    with Delta() as d:
        assert lobby.abort(lobby_id, "rec", "alice") == "ok"
    assert d("camelot_games_ended_total", kind="toy", how="aborted") == 0
    assert d("camelot_games_started_total", kind="toy") == 0


def test_the_scan_counts_reminders_and_timeouts_and_the_timeout_move(backbone_local, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    with session_scope() as s:
        row = s.query(Deadline).filter_by(game_id=game_id, seat=0).one()
        # half the time gone: the first reminder is due
        half = (row.due_at - row.started_at) / 2 + timedelta(seconds=1)
        row.started_at, row.due_at, row.next_at = row.started_at - half, row.due_at - half, row.started_at - half
    with Delta() as d:
        assert jobs.scan()["reminders"] == 1
    assert d("camelot_deadline_reminders_total") == 1 and d("camelot_deadline_timeouts_total") == 0
    with session_scope() as s:
        row = s.query(Deadline).filter_by(game_id=game_id, seat=0).one()
        row.due_at = row.next_at = row.started_at  # and now the deadline
    with Delta() as d:
        assert jobs.scan()["timeouts"] == 1
    assert d("camelot_deadline_timeouts_total") == 1
    assert d("camelot_moves_applied_total", by="timeout") == 1


@pytest.mark.parametrize(
    ("failure", "name", "labels"),
    [
        (RateLimited(0.01), "camelot_rate_limited_total", {}),
        (PermanentError("blocked by the user"), "camelot_send_failures_total", {"error": "permanent"}),
    ],
)
def test_a_429_and_a_failed_send_are_counted_per_platform(backbone_local, toy_game, recording, failure, name, labels):
    recording.fail_next(failure)
    with Delta() as d:
        lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    assert d(name, platform="rec", **labels) == 1
