"""The `camelot` command: play a local game, run the gateways, the worker and beat, migrate, benchmark.

Every subcommand imports what it needs when it runs, so `camelot play` starts without Telegram, Matrix or
Celery being configured, and a gateway's dependencies are loaded only by the gateway that needs them.
"""

from __future__ import annotations

import importlib
import logging
import os
from typing import Annotated

import typer

app = typer.Typer(help="Shadows over Camelot by message: Telegram, Matrix and the terminal.", no_args_is_help=True)
bench = typer.Typer(help="Benchmarks.", no_args_is_help=True)
app.add_typer(bench, name="bench")
ratings = typer.Typer(help="Ratings.", no_args_is_help=True)
app.add_typer(ratings, name="ratings")

PASS_THROUGH = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.command()
def play(
    game: Annotated[str, typer.Option(help="board or cards")] = "board",
    players: Annotated[int, typer.Option(help="number of seats")] = 0,
    bots: Annotated[int, typer.Option(help="seats played by bots (the others are you, in turn)")] = -1,
    seed: Annotated[int, typer.Option(help="random seed of the game")] = 1,
    lang: Annotated[str, typer.Option(help="language: en, cs, pl, nl, ro, it")] = "en",
    quiet: Annotated[bool, typer.Option(help="all-bot games: print only the result")] = False,
) -> None:
    """Play in the terminal through the full pipeline (embedded defaults: SQLite, in-process tasks, in-memory sessions).

    With every seat a bot the game runs to its end without input and prints the result and the number of moves.
    """
    # The local game's tasks run here, whatever the environment says: with a broker its moves would wait for
    # workers and its messages for a console gateway, neither of which runs.
    os.environ["CELERY_BROKER_URL"] = ""
    from engine import get_game
    from service import logs
    from service.chat import console
    from service.settings import get_settings

    get_settings.cache_clear()
    _wire()
    if game not in ("board", "cards"):
        raise typer.BadParameter("game must be board or cards")
    players = players or (4 if game == "board" else 3)
    rules = get_game(game)
    if not rules.min_players <= players <= rules.max_players:
        raise typer.BadParameter(f"{game}: {rules.min_players} to {rules.max_players} players")
    bots = players - 1 if bots < 0 else min(bots, players)
    logs.configure(logging.WARNING)  # the terminal is the game's table: no service chatter between its messages
    outcome = console.play(game, players=players, bots=bots, seed=seed, lang=lang, quiet=quiet)
    typer.echo(outcome.summary)
    if not outcome.finished:
        raise typer.Exit(1)


@app.command()
def serve(
    telegram: Annotated[bool, typer.Option("--telegram", help="run the Telegram gateway")] = False,
    matrix: Annotated[bool, typer.Option("--matrix", help="run the Matrix gateway")] = False,
) -> None:
    """Run a chat gateway (the Procfile's `gateway` process)."""
    if telegram == matrix:
        raise typer.BadParameter("choose exactly one of --telegram or --matrix")
    _wire()
    module = importlib.import_module("service.telegram" if telegram else "service.matrix")
    module.run()


@app.command(context_settings=PASS_THROUGH)
def worker(ctx: typer.Context) -> None:
    """Run a Celery worker (a solo pool by default: run one per core, plus one); extra arguments go to Celery (e.g.
    `--pool prefork --concurrency 4`)."""
    from workers import run

    _wire()
    run.worker(list(ctx.args))


@app.command(context_settings=PASS_THROUGH)
def beat(ctx: typer.Context) -> None:
    """Run Celery beat (deadline and outbox scans); extra arguments go to Celery."""
    from workers import run

    _wire()
    run.beat(list(ctx.args))


@app.command()
def migrate() -> None:
    """Bring the database schema up to date (Alembic `upgrade head`)."""
    from service.store import migrate as upgrade

    upgrade()
    typer.echo("database is up to date")


@app.command()
def doctor() -> None:
    """Check the settings, the database and its schema, Redis, the broker and each configured platform's account;
    print what is wrong in words (exit code 1 if anything is)."""
    from service import doctor as checkup

    _wire()
    text, code = checkup.report(checkup.diagnose())
    typer.echo(text)
    raise typer.Exit(code)


@bench.command("engine", context_settings=PASS_THROUGH)
def bench_engine(ctx: typer.Context) -> None:
    """Random complete games in one process: `camelot bench engine --game board --seconds 10`."""
    from bench import engine

    engine.main(list(ctx.args))


@bench.command("pipeline", context_settings=PASS_THROUGH)
def bench_pipeline(ctx: typer.Context) -> None:
    """Concurrent bot games through a real Celery worker, Redis and PostgreSQL."""
    from bench import pipeline

    _wire()
    pipeline.pipeline(list(ctx.args))


@bench.command("chat", context_settings=PASS_THROUGH)
def bench_chat(ctx: typer.Context) -> None:
    """Games of simulated people through the real gateway and workers against the fake Bot API: tap → updated
    panel latency, Bot API calls per move, and how many human-paced games one bot account carries."""
    from bench import chat

    _wire()
    chat.chat(list(ctx.args))


@bench.command("moves", context_settings=PASS_THROUGH)
def bench_moves(ctx: typer.Context) -> None:
    """A worker's move alone, in one process against PostgreSQL and Redis, without Celery."""
    from bench import moves

    _wire()
    moves.moves(list(ctx.args))


def _wire() -> None:
    """Put in place what runs the jobs (`service.compose`): every subcommand that plays calls it first."""
    from service import compose

    compose.wire()


@ratings.command("simulate", context_settings=PASS_THROUGH)
def ratings_simulate(ctx: typer.Context) -> None:
    """Populations with known skills play rated games through the rating model: `camelot ratings simulate --seed 1`;
    exits 1 when a figure misses."""
    from service.ratings import simulate

    simulate.main(list(ctx.args))


if __name__ == "__main__":  # `python3 -m service.cli …`, as the worktrees run it
    app()
