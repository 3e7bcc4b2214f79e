"""`camelot ratings simulate`, small: the same scenarios and the same verdict code as the full run, with fewer
games. The figures it prints are the ones measured (the largest distance of any equal player's rating from the
start, not the population's mean, which the zero-sum update holds), they are as far as the games' information
says they must be (docs/ratings.md), and the command's last line and exit status follow them."""

from __future__ import annotations

import math
import re
import statistics

import pytest
from typer.testing import CliRunner

from service.cli import app
from service.ratings import simulate
from service.ratings.model import MU, SIGMA, Belief

VERDICT = re.compile(r"^ratings simulate: drift (\d+\.\d\d), spearman (-?\d\.\d\d), (met|not met)$")
SMALL = simulate.Plan(seed=3, players=8, games=300, rates=(0.3, 0.5, 0.7), checkpoint=50, skilled=20, games_each=50)


@pytest.fixture(scope="module")
def small() -> simulate.Report:
    return simulate.run(SMALL)


def test_the_drift_printed_is_the_largest_distance_of_any_players_rating_from_the_start(small):
    assert [run.side_rate for run in small.equal] == [0.3, 0.5, 0.7]
    for run in small.equal:
        assert len(run.ratings) == SMALL.players
        assert len(run.means) == SMALL.games // SMALL.checkpoint  # the population read at every checkpoint
        assert run.drift == max(abs(b.mu - MU) for b in run.ratings)
        assert run.systematic == max(abs(m - MU) for m in run.means) < 1e-9  # the update is zero-sum
        assert abs(run.loyal_share - run.side_rate) < 0.1  # the hidden model plays at the rate asked
    assert small.drift == max(abs(b.mu - MU) for run in small.equal for b in run.ratings)
    drift, rho, verdict = VERDICT.match(simulate.lines(SMALL, small)[-1]).groups()
    assert float(drift) == pytest.approx(small.drift, abs=0.005)
    assert float(rho) == pytest.approx(small.skill.spearman, abs=0.005)
    # The honest figures: the ranking is recovered, but 300 games cannot hold every equal player within ±1
    # (the arithmetic expects the largest of 24 near 3.8), so the verdict is "not met".
    assert small.skill.spearman >= simulate.MIN_SPEARMAN
    assert small.drift > simulate.MAX_DRIFT and verdict == "not met" and not small.met


def test_equal_players_spread_as_far_as_the_games_information_says_and_their_sigma_says_so():
    """No rating can be closer to an equal player's skill than the games' information allows (the arithmetic in
    `simulate.information`), and the model's are not much further; each player's ± covers their distance about
    as often as one sigma should, a little more (TAU widens it for players who might have changed)."""
    plan = simulate.Plan(seed=5)  # the command's: 10 players, 1,000 games at each of five rates
    runs = simulate.run(plan).equal
    rms = math.sqrt(statistics.fmean((b.mu - MU) ** 2 for run in runs for b in run.ratings))
    bound = math.sqrt(
        statistics.fmean(simulate.spread(plan.games * simulate.information(plan, run.side_rate)) ** 2 for run in runs)
    )
    sigma = math.sqrt(statistics.fmean(b.sigma**2 for run in runs for b in run.ratings))
    assert 0.7 * bound < rms < 1.6 * bound and 0.5 * sigma < rms < 1.1 * sigma
    covered = sum(run.covered for run in runs) / sum(len(run.ratings) for run in runs)
    assert 0.6 < covered < 0.97  # one sigma covers 68 % where it is exact


def test_the_arithmetic_of_the_drift():
    plan = simulate.Plan()
    # A lone Traitor's game at 50 % tells 0.25 / c^2 (c^2 = 2 BETA^2 = 34.7), each of four knights 1/16 of it;
    # averaged over 3 to 7 seats and bot seats and shared among ten players, about 0.0009 a game each.
    assert simulate.information(plan, 0.5) == pytest.approx(0.0009, abs=0.00005)
    assert simulate.information(plan, 0.3) == pytest.approx(0.84 * simulate.information(plan, 0.5))
    assert simulate.spread(1000 * simulate.information(plan, 0.5)) == pytest.approx(1.05, abs=0.01)
    assert simulate.spread(0) == pytest.approx(SIGMA)
    assert simulate.largest(1) == pytest.approx(0.798, abs=0.001)  # E|Z| = sqrt(2 / pi)
    assert 2.4 < simulate.largest(50) < 2.6
    assert 6000 < simulate.games_needed(plan, 0.5) < 8000


def test_the_simulation_is_deterministic_by_seed(small):
    again = simulate.lines(SMALL, small)
    assert again == simulate.lines(SMALL, simulate.run(SMALL))
    other = simulate.Plan(**{**SMALL.__dict__, "seed": 4})
    assert simulate.lines(other, simulate.run(other)) != again


def test_the_command_prints_the_verdict_last_and_exits_non_zero_when_a_figure_misses():
    runner = CliRunner()
    small = ["--seed", "3", "--players", "8", "--games", "200", "--rates", "0.3,0.7", "--skilled", "20"]
    missed = runner.invoke(app, ["ratings", "simulate", *small, "--games-each", "50"])
    assert missed.exit_code == 1, missed.output
    found = VERDICT.match(missed.output.splitlines()[-1])
    assert found.group(3) == "not met" and float(found.group(1)) > simulate.MAX_DRIFT
    assert float(found.group(2)) >= simulate.MIN_SPEARMAN  # the drift alone misses

    ranked = runner.invoke(app, ["ratings", "simulate", *small, "--games-each", "2"])  # too few games to rank
    assert ranked.exit_code == 1
    assert float(VERDICT.match(ranked.output.splitlines()[-1]).group(2)) < simulate.MIN_SPEARMAN


def test_the_command_exits_zero_when_every_figure_is_met(monkeypatch):
    """Met needs every equal player within ±1 after the games, which takes thousands of games (the arithmetic);
    the verdict code is the same, so it is shown a report whose figures are in range."""
    close = [Belief(MU + d, 0.5) for d in (-0.9, 0.4, 0.99)]
    report = simulate.Report([simulate.EqualRun(0.5, close, [MU, MU], 0.5, 0.0)], simulate.SkillRun(20, 200, 0.85))
    monkeypatch.setattr(simulate, "run", lambda plan: report)
    met = CliRunner().invoke(app, ["ratings", "simulate", "--rates", "0.5"])
    assert met.exit_code == 0, met.output
    assert VERDICT.match(met.output.splitlines()[-1]).groups() == ("0.99", "0.85", "met")


def test_spearman_ranks_with_ties():
    assert simulate.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert simulate.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    assert simulate.spearman([1, 1, 2, 3], [1, 2, 3, 4]) > 0.9
