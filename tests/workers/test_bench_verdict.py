"""The pipeline benchmark's verdict on the issue's first target, and its note on a noisy host (pure functions)."""

from __future__ import annotations

from bench.pipeline import noisy_host, target_verdict

MET = {"games": 1000, "offered_per_s": 300.0, "moves_per_s": 299.0, "p50_ratio": 2.8, "move_p99_ms": 22.0}


def test_the_target_is_met_only_when_every_part_is():
    assert target_verdict(MET) == "first target: met"
    assert target_verdict({**MET, "moves_per_s": 250.0}) == "first target: not met (250 moves/s)"
    assert target_verdict({**MET, "p50_ratio": 3.2}) == "first target: not met (p50 3.2x the no-op's)"
    assert target_verdict({**MET, "move_p99_ms": 25.0}) == "first target: not met (p99 25 ms)"
    both = target_verdict({**MET, "moves_per_s": 228.0, "move_p99_ms": 1620.0, "p50_ratio": float("nan")})
    assert both == "first target: not met (228 moves/s, p50 nanx the no-op's, p99 1620 ms)"


def test_the_target_is_not_judged_on_a_smaller_load():
    assert "not judged" in target_verdict({**MET, "games": 8})
    assert "not judged" in target_verdict({**MET, "offered_per_s": 150.0})


def test_a_noisy_host_is_named():
    quiet = {"move_machine_steal": 0.0, "noop_machine_steal": 0.01, "reference_start_ms": 350.0, "reference_ms": 370.0}
    assert noisy_host(quiet) == ""
    stolen = {**quiet, "noop_machine_steal": 0.17}
    assert noisy_host(stolen) == "steal 17% in the no-op's phase"
    drifted = {**quiet, "reference_start_ms": 600.0, "reference_ms": 353.0}
    assert noisy_host(drifted) == "reference workload 600 then 353 ms"


def test_the_benchmark_runs_the_workers_as_the_service_does_unless_told_otherwise(monkeypatch):
    """`camelot worker`'s pool from the settings, solo workers one per core plus one; options win."""
    import os

    from bench.pipeline import _parse
    from service.settings import get_settings

    for var in ("WORKER_POOL", "WORKER_CONCURRENCY"):
        monkeypatch.delenv(var, raising=False)
    get_settings.cache_clear()
    try:
        default = _parse([])
        assert (default.pool, default.concurrency, default.processes) == ("solo", 1, os.cpu_count() + 1)
        prefork = _parse(["--pool", "prefork", "--concurrency", "2"])
        assert (prefork.pool, prefork.concurrency, prefork.processes) == ("prefork", 2, 1)
        assert _parse(["--processes", "2"]).processes == 2
        monkeypatch.setenv("WORKER_POOL", "threads")
        monkeypatch.setenv("WORKER_CONCURRENCY", "8")
        get_settings.cache_clear()
        threads = _parse([])
        assert (threads.pool, threads.concurrency, threads.processes) == ("threads", 8, 1)
    finally:
        get_settings.cache_clear()
