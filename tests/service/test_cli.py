"""`camelot play` with every seat a bot runs a whole game through the pipeline and prints the result and the moves.

Each run is a subprocess with its own SQLite file, so it uses exactly the embedded defaults a newcomer gets
(SQLite, in-process tasks, in-memory sessions) and nothing leaks between tests.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from service.cli import app

RESULT = re.compile(
    r"^(Shadows over Camelot \(board game\)|Shadows over Camelot: The Card Game): "
    r"(🏆 The Loyal knights win!|💀 Evil wins\.|The game ended without a winner\.).*?^moves: (\d+)$",
    re.M | re.S,
)
TITLES = {"board": "Shadows over Camelot (board game)", "cards": "Shadows over Camelot: The Card Game"}


def _camelot(
    tmp_path, *args: str, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "REDIS_URL", "CELERY_"))} | (
        env or {}
    )
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'camelot.sqlite3'}"
    code = "from service.cli import app; app()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=tmp_path,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=240,
    )


@pytest.mark.parametrize(("game", "players"), [("cards", 4), ("board", 5)])
def test_play_all_bots_finishes_and_prints_result_and_moves(tmp_path, game, players):
    run = _camelot(tmp_path, "play", "--game", game, "--players", str(players), "--bots", str(players), "--seed", "7")
    assert run.returncode == 0, run.stderr[-3000:]
    found = RESULT.search(run.stdout)
    assert found, run.stdout[-2000:]
    assert found.group(1) == TITLES[game]
    assert int(found.group(3)) > 10
    # the group saw the board, edited as the game went, and the final board names the winner's side
    assert "── table ──" in run.stdout and "── table (updated) ──" in run.stdout
    # no bot's direct chat is ever printed: only the table
    headers = set(re.findall(r"^── (.+?) ──$", run.stdout, re.M))
    assert all(h.startswith("table") for h in headers), headers


def test_the_terminal_game_shows_the_table_and_your_hand_without_service_log_lines(tmp_path):
    """A person's first game learns their direct chat (an info log line of the deliveries): the terminal is the
    game's table, so only warnings may join its messages."""
    run = _camelot(tmp_path, "play", "--game", "cards", "--players", "3", "--bots", "2", "--seed", "5", stdin="q\n")
    assert "── to you ──" in run.stdout and "Loyalty" in run.stdout, run.stdout[-2000:] + run.stderr[-2000:]
    assert "[info" not in run.stdout + run.stderr


def test_play_is_deterministic_in_the_seed(tmp_path):
    args = ("play", "--game", "cards", "--players", "3", "--bots", "3", "--seed", "11", "--quiet", "--lang", "it")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = _camelot(tmp_path / "a", *args)
    second = _camelot(tmp_path / "b", *args)
    assert first.returncode == second.returncode == 0, first.stderr[-2000:] + second.stderr[-2000:]
    assert first.stdout.strip() == second.stdout.strip()
    assert first.stdout.startswith("Ombre su Camelot: il gioco di carte: ") and "\nmosse: " in first.stdout
    assert "──" not in first.stdout  # --quiet: only the summary


def test_play_runs_its_tasks_in_process_even_with_a_broker_configured(tmp_path, redis_url):
    """A production environment (CELERY_BROKER_URL set, e.g. from a .env) must not send the local game's moves to
    workers that are not running, nor its messages to a queue no gateway consumes: it stopped after 0 moves."""
    import redis

    env = {"CELERY_BROKER_URL": redis_url}
    run = _camelot(tmp_path, "play", "--game", "cards", "--players", "3", "--bots", "3", "--quiet", env=env)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert RESULT.search(run.stdout), run.stdout[-2000:]
    assert not redis.Redis.from_url(redis_url).keys("*celery*"), "a task was published to the broker"


def test_help_lists_every_command():
    out = CliRunner().invoke(app, ["--help"]).output
    for command in ("play", "serve", "worker", "beat", "migrate", "bench"):
        assert command in out
    bench = CliRunner().invoke(app, ["bench", "--help"]).output
    assert "engine" in bench and "pipeline" in bench


def test_serve_needs_exactly_one_platform():
    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code != 0
    assert "exactly one" in result.output


def test_bench_engine_passes_its_options_through():
    result = CliRunner().invoke(app, ["bench", "engine", "--game", "cards", "--players", "3", "--seconds", "0.3"])
    assert result.exit_code == 0, result.output
    assert "game=cards players=3" in result.output
    assert "actions/s" in result.output


def test_worker_without_a_broker_says_why_it_does_not_start(tmp_path):
    run = _camelot(tmp_path, "worker")
    assert run.returncode != 0
    assert "CELERY_BROKER_URL is not set" in run.stderr + run.stdout


def test_migrate_creates_the_schema(tmp_path):
    run = _camelot(tmp_path, "migrate")
    assert run.returncode == 0, run.stderr[-2000:]
    assert "database is up to date" in run.stdout
    assert (tmp_path / "camelot.sqlite3").stat().st_size > 0


def test_play_refuses_a_table_the_game_does_not_allow():
    result = CliRunner().invoke(app, ["play", "--game", "board", "--players", "2", "--bots", "2"])
    assert result.exit_code != 0
    assert "3 to 7 players" in result.output


def test_worker_runs_the_settings_pool_on_the_default_queue_unless_told_otherwise(monkeypatch):
    """One solo-pool worker by default (run one per core, plus one); a pool, size or queue given on the command line
    wins."""
    from service.settings import get_settings
    from workers.run import worker_args

    for var in ("WORKER_POOL", "WORKER_CONCURRENCY"):
        monkeypatch.delenv(var, raising=False)
    get_settings.cache_clear()
    try:
        quiet = ["worker", "--loglevel", "INFO", "--without-gossip", "--without-mingle"]
        node = ["--hostname", f"worker{os.getpid()}@%h"]  # one per process: on RabbitMQ two alike do not start
        assert worker_args([], "moves") == [*quiet, "--pool", "solo", "--concurrency", "1", "--queues", "moves", *node]
        given = ["-P", "prefork", "--concurrency=4", "-Q", "other", "-n", "w1@%h"]
        assert worker_args(given, "moves") == [*quiet, *given]
        quieter = worker_args(["-l", "WARNING"], "moves")  # the benchmark's log level, not a second one
        assert quieter[:4] == ["worker", "--without-gossip", "--without-mingle", "--pool"]
        assert quieter[-2:] == ["-l", "WARNING"]
        monkeypatch.setenv("WORKER_POOL", "prefork")
        monkeypatch.setenv("WORKER_CONCURRENCY", "3")
        get_settings.cache_clear()
        assert worker_args([], "moves")[5:9] == ["--pool", "prefork", "--concurrency", "3"]
    finally:
        get_settings.cache_clear()


def test_the_example_environment_lists_every_setting_and_nothing_else():
    from pathlib import Path

    from service.settings import Settings

    example = (Path(__file__).resolve().parents[2] / "infra" / ".env.example").read_text()
    listed = {m.group(1).lower() for m in re.finditer(r"^([A-Z_0-9]+)=", example, re.M)}
    assert listed == set(Settings.model_fields)
