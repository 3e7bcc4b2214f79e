"""`camelot ratings simulate`, small: the same scenarios and the same verdict code as the full run, with fewer
games; and the command's last line and exit status when a figure is met and when one misses."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from service.cli import app
from service.ratings import simulate
from service.ratings.model import MU

VERDICT = re.compile(r"^ratings simulate: drift (\d+\.\d\d), spearman (-?\d\.\d\d), (met|not met)$")
SMALL = simulate.Plan(seed=3, players=8, games=300, rates=(0.3, 0.5, 0.7), checkpoint=50, skilled=20, games_each=50)


def test_a_small_simulation_meets_the_figures():
    report = simulate.run(SMALL)
    assert [run.side_rate for run in report.equal] == [0.3, 0.5, 0.7]
    for run in report.equal:
        assert len(run.means) == SMALL.games // SMALL.checkpoint  # read at every checkpoint
        assert run.drift <= simulate.MAX_DRIFT and all(abs(m - MU) <= simulate.MAX_DRIFT for m in run.means)
        assert abs(run.loyal_share - run.side_rate) < 0.1  # the hidden model plays at the rate asked
        assert run.lowest < MU < run.highest  # equal players' ratings do spread: the results are noisy
    assert report.skill.spearman >= simulate.MIN_SPEARMAN and report.met
    assert VERDICT.match(simulate.lines(SMALL, report)[-1]).group(3) == "met"


def test_the_simulation_is_deterministic_by_seed():
    again = simulate.lines(SMALL, simulate.run(SMALL))
    assert again == simulate.lines(SMALL, simulate.run(SMALL))
    other = simulate.Plan(**{**SMALL.__dict__, "seed": 4})
    assert simulate.lines(other, simulate.run(other)) != again


def test_the_command_prints_the_verdict_last_and_exits_non_zero_when_a_figure_misses():
    runner = CliRunner()
    small = ["--seed", "3", "--players", "8", "--games", "200", "--rates", "0.3,0.7", "--skilled", "20"]
    met = runner.invoke(app, ["ratings", "simulate", *small, "--games-each", "50"])
    assert met.exit_code == 0, met.output
    assert VERDICT.match(met.output.splitlines()[-1]).group(3) == "met"

    missed = runner.invoke(app, ["ratings", "simulate", *small, "--games-each", "2"])  # too few games to rank
    assert missed.exit_code == 1
    found = VERDICT.match(missed.output.splitlines()[-1])
    assert found.group(3) == "not met" and float(found.group(2)) < simulate.MIN_SPEARMAN


def test_spearman_ranks_with_ties():
    assert simulate.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert simulate.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    assert simulate.spearman([1, 1, 2, 3], [1, 2, 3, 4]) > 0.9
