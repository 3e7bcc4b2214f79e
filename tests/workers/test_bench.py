"""The pipeline benchmark runs end to end on a tiny load and reports every figure."""

from __future__ import annotations

import math

import pytest

from bench.moves import moves
from bench.pipeline import pipeline

pytestmark = pytest.mark.e2e


def test_bench_pipeline_smoke(backbone_pg, monkeypatch, capsys):
    for var in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        monkeypatch.setenv(var, backbone_pg.redis_url if var != "DATABASE_URL" else backbone_pg.database_url)
    # capacity: enough games back to back that the fastest workers are still playing them in the window
    figures = pipeline(
        [
            "--games",
            "8",
            "--rate",
            "16",
            "--seconds",
            "2",
            "--warmup",
            "1",
            "--capacity-games",
            "128",
            "--database-url",
            backbone_pg.database_url,
            "--redis-url",
            backbone_pg.redis_url,
        ]
    )
    out = capsys.readouterr().out
    assert "moves/s" in out and "no-op" in out and "ratios" in out
    assert "reference workload" in out and figures["reference_ms"] > 0  # how fast the host's CPU was
    assert figures["reference_start_ms"] > 0 and "at the start" in out
    assert "first target: not judged" in out  # a tiny load
    assert figures["moves_per_s"] > 0 and figures["max_moves_per_s"] > 0 and figures["max_noop_per_s"] > 0
    assert not math.isnan(figures["move_p50_ms"]) and figures["move_p50_ms"] <= figures["move_p99_ms"]
    assert "CPU per move" in out and figures["move_cpu_worker_ms"] > 0 and figures["noop_cpu_worker_ms"] > 0
    # the worker's own CPU shows in the whole machine's, which the figures report beside the rates
    assert "machine busy" in out and 0 < figures["move_machine_busy"] <= 1 and 0 < figures["noop_machine_busy"] <= 1
    # the games' messages are sent by a deliveries process of their own, as a gateway's
    assert "messages sent/s" in out and figures["sends_per_s"] > 0 and figures["outbox_pending"] >= 0
    assert figures["move_cpu_ms"] == pytest.approx(
        sum(figures[f"move_cpu_{k}_ms"] for k in ("worker", "postgres", "redis"))
    )


def test_bench_moves_smoke(backbone_pg, monkeypatch, capsys):
    """The move-alone benchmark plays its rounds, reports every figure, and leaves nothing behind."""
    from service.sessions import get_sessions
    from service.store import session_scope
    from service.store.models import Chat, GameRow, OutboxRow

    for var in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):  # the benchmark sets them; restored after
        monkeypatch.setenv(var, backbone_pg.redis_url if var != "DATABASE_URL" else backbone_pg.database_url)
    figures = moves(
        [
            "--games",
            "3",
            "--rounds",
            "2",
            "--database-url",
            backbone_pg.database_url,
            "--redis-url",
            backbone_pg.redis_url,
        ]
    )
    out = capsys.readouterr().out
    assert "CPU per move" in out and "reference workload" in out
    assert figures["moves"] == 6  # three games, a move each in each of two measured rounds
    assert figures["move_cpu_process_ms"] > 0 and figures["move_wall_ms"] > 0 and figures["reference_ms"] > 0
    assert figures["move_cpu_ms"] == pytest.approx(
        sum(figures[f"move_cpu_{k}_ms"] for k in ("process", "postgres", "redis"))
    )
    with session_scope() as s:
        assert s.query(GameRow).count() == s.query(Chat).count() == s.query(OutboxRow).count() == 0
    assert get_sessions().scheduler.members() == []  # neither the games' next moves nor their deliveries


def test_the_benchmark_gives_the_planner_statistics_of_the_tables_with_their_games(backbone_pg):
    """Statistics of empty tables (this PostgreSQL has no autovacuum) made the lock's join scan whole tables."""
    from sqlalchemy import text

    from bench.harness import analyze
    from service.play import lobby
    from service.store import session_scope

    for n in range(6):  # people's games: in-process, a bot's pace would be waited out here
        lobby.create_and_start("rec", f"group-{n}", "cards", {}, [f"u{n}-{seat}" for seat in range(4)], 0, seed=n)
    analyze()
    with session_scope() as s:
        rows = s.execute(text("SELECT relname, reltuples FROM pg_class WHERE relname IN ('games', 'seats')"))
        counted = {name: tuples for name, tuples in rows}
    assert counted == {"games": 6, "seats": 24}


def test_bench_pipeline_groups_smoke(backbone_pg, monkeypatch, capsys):
    """Worker groups as separate process trees: capacity measured with one group, then two, in the same run."""
    for var in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        monkeypatch.setenv(var, backbone_pg.redis_url if var != "DATABASE_URL" else backbone_pg.database_url)
    figures = pipeline(
        ["--groups", "1,2", "--processes", "1", "--capacity-games", "64", "--seconds", "2", "--warmup", "1",
         "--database-url", backbone_pg.database_url, "--redis-url", backbone_pg.redis_url]
    )
    out = capsys.readouterr().out
    assert "1 group(s):" in out and "2 group(s):" in out and "capacity with 2 groups" in out
    assert figures["groups1_moves_per_s"] > 0 and figures["groups2_moves_per_s"] > 0
    assert figures["groups2_ratio"] == pytest.approx(figures["groups2_moves_per_s"] / figures["groups1_moves_per_s"])
    assert figures["groups1_cpu_worker_ms"] > 0 and figures["groups2_noop_per_s"] > 0
