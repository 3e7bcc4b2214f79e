"""`camelot ratings simulate`: populations with known hidden skills play rated games through the rating model
(`service.ratings.model`, the code that rates real games), and the figures issue 25 asks of it are checked on the
ratings as shown (`service.ratings.shown`: each person among everyone who plays, whose spread is learned).

- **Equal players** (skill `MU` each) play `games` rated games at each loyal win rate in `rates`; a seat is a bot
  now and then (`bot_share`), which rates a game only with a person on each side, as the service does. The
  figure is the **drift**: the largest distance of any player's shown rating from the start after the games,
  over every player at every rate; it must be within `MAX_DRIFT`. The population's mean of the model's means,
  read every `checkpoint` games, is reported beside it as the **systematic drift** (the update is zero-sum, so
  it stays at the start unless that breaks), and so is how far the model's means alone spread, which the games'
  information bounds (`information`, docs/ratings.md).
- **Known skills**: `skilled` players with skills spread as the model's prior assumes (normal quantiles around `MU`,
  standard deviation `SIGMA`) play until each has `games_each` rated games, the loyal side's win rate depending on
  the player count (`COUNT_RATES`, learned by the model as it would be from real games). The Spearman correlation
  of their shown ratings with their skills must reach `MIN_SPEARMAN`; beside it, how far the shown ratings and
  the model's means are from the skills (root mean square), so that holding equal players together is seen not
  to cost the ranking or the accuracy of players who differ.

Outcomes come from a Thurstone model (each seat's performance is its skill plus normal noise, a side's is its
seats' mean plus normal noise, and the loyal side's edge makes its win rate the one asked for between equal
sides), not from the logistic model the ratings assume: the model is tested on results it did not generate.
Pure and deterministic by seed; a few seconds.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from statistics import NormalDist

from service.ratings.model import BETA, MU, SIGMA, Belief, is_rated, loyal_rate, rate
from service.ratings.shown import Population, population, shown

MAX_DRIFT = 1.0
MIN_SPEARMAN = 0.8
SEATS = (3, 4, 5, 6, 7)  # a table's size, uniformly
COUNT_RATES = {3: 0.35, 4: 0.42, 5: 0.5, 6: 0.58, 7: 0.65}  # known skills: the loyal side's rate by player count


@dataclass(frozen=True)
class Plan:
    """The simulation's sizes (the command's options); the defaults are the figures the issue asks for."""

    seed: int = 1
    players: int = 10
    games: int = 1000
    rates: tuple[float, ...] = (0.3, 0.4, 0.5, 0.6, 0.7)
    checkpoint: int = 100
    bot_share: float = 0.15
    skilled: int = 20
    games_each: int = 50


@dataclass(frozen=True)
class EqualRun:
    """Equal players at one loyal win rate: the model's belief about each player at the end, and the population's
    mean at each checkpoint."""

    side_rate: float
    ratings: list[Belief]  # the model's, each player's at the end
    means: list[float]  # the population's mean of the model's means at each checkpoint
    loyal_share: float  # of the rated games, the share the loyal side won
    traitor_move: float  # how far a Traitor's game moved the Traitor's rating, on average

    @cached_property
    def people(self) -> Population:
        """What the players' ratings say of how far they differ."""
        return population(self.ratings)

    @cached_property
    def shown(self) -> list[Belief]:
        """Each player's rating as shown, among the run's players."""
        return [shown(b, self.people) for b in self.ratings]

    @property
    def drift(self) -> float:
        """The largest distance of a player's shown rating from the start: the issue's figure."""
        return max(abs(b.mu - MU) for b in self.shown)

    @property
    def systematic(self) -> float:
        """The largest distance of the population's mean from the start, at any checkpoint."""
        return max(abs(m - MU) for m in self.means)

    @property
    def model_drift(self) -> float:
        """The largest distance of the model's mean of a player from the start."""
        return max(abs(b.mu - MU) for b in self.ratings)

    @property
    def deviation(self) -> float:
        """The root mean square of the model's means' distances from the start (the players' true skill)."""
        return math.sqrt(statistics.fmean((b.mu - MU) ** 2 for b in self.ratings))

    @property
    def uncertainty(self) -> float:
        """The root mean square of the model's sigma: what the model says the deviation is."""
        return math.sqrt(statistics.fmean(b.sigma**2 for b in self.ratings))

    @property
    def covered(self) -> int:
        """How many of the model's means are within their own ± (one sigma) of the player's true skill."""
        return sum(abs(b.mu - MU) <= b.sigma for b in self.ratings)


@dataclass(frozen=True)
class SkillRun:
    """Known skills: how many players, the rated games they played, and how well the ratings (shown, and the
    model's means) rank them and how far they are from their skills."""

    players: int
    games: int
    spearman: float
    model_spearman: float
    error: float  # root mean square of shown rating - skill
    model_error: float  # root mean square of the model's mean - skill
    spread: float  # the population's spread learned


@dataclass(frozen=True)
class Report:
    equal: list[EqualRun]
    skill: SkillRun

    @property
    def drift(self) -> float:
        return max(run.drift for run in self.equal)

    @property
    def systematic(self) -> float:
        return max(run.systematic for run in self.equal)

    @property
    def met(self) -> bool:
        return self.drift <= MAX_DRIFT and self.systematic <= MAX_DRIFT and self.skill.spearman >= MIN_SPEARMAN


@dataclass
class _Table:
    """The model's state in a simulation: beliefs by player, and the side counts it learns the loyal rate from."""

    beliefs: dict[int, Belief]
    counts: dict[int, list[int]] = field(default_factory=dict)  # player count -> [games, loyal wins]
    traitor_moves: list[float] = field(default_factory=list)

    def side_rate(self, n: int) -> float:
        """The model's loyal rate for a table of `n`, from the games so far (no variants in a simulation)."""
        here = self.counts.get(n, [0, 0])
        elsewhere = [c for size, c in self.counts.items() if size != n]
        other = (sum(c[0] for c in elsewhere), sum(c[1] for c in elsewhere))
        return loyal_rate([other, (0, 0), (here[0], here[1])])

    def play(self, rng: random.Random, seats: list[int | None], skill: dict[int, float], loyal_edge: float) -> bool:
        """One game at a table of `seats` (None for a bot, of skill `MU`): a Traitor dealt, the result drawn, the
        game rated if the service would; whether it was."""
        traitor = rng.randrange(len(seats))
        side = ["evil" if i == traitor else "loyal" for i in range(len(seats))]
        if not is_rated(side, seats):
            return False
        loyal = [p for i, p in enumerate(seats) if i != traitor]
        evil = [seats[traitor]]
        loyal_won = _loyal_wins(rng, [_skill(skill, p) for p in loyal], [_skill(skill, p) for p in evil], loyal_edge)
        outcome = rate(
            [self._belief(p) for p in loyal], [self._belief(p) for p in evil], loyal_won, self.side_rate(len(seats))
        )
        self.traitor_moves += [b.mu - self.beliefs[p].mu for p, b in zip(evil, outcome.evil, strict=True) if b]
        for people, beliefs in ((loyal, outcome.loyal), (evil, outcome.evil)):
            for person, belief in zip(people, beliefs, strict=True):
                if person is not None and belief is not None:
                    self.beliefs[person] = belief
        count = self.counts.setdefault(len(seats), [0, 0])
        count[0] += 1
        count[1] += int(loyal_won)
        return True

    def loyal_share(self) -> float:
        return sum(c[1] for c in self.counts.values()) / max(1, sum(c[0] for c in self.counts.values()))

    def _belief(self, person: int | None) -> Belief | None:
        return None if person is None else self.beliefs[person]


def _skill(skill: dict[int, float], person: int | None) -> float:
    return MU if person is None else skill[person]


def _noise(n_loyal: int, n_evil: int) -> float:
    """The standard deviation of the loyal side's performance minus the Traitor's in the hidden model."""
    return BETA * (2 + 1 / n_loyal + 1 / n_evil) ** 0.5


def _loyal_wins(rng: random.Random, loyal: list[float], evil: list[float], edge: float) -> bool:
    """The hidden model's result: each side's mean skill plus noise, the loyal side's edge in noise units."""
    sd = _noise(len(loyal), len(evil))
    return statistics.fmean(loyal) - statistics.fmean(evil) + edge * sd + rng.gauss(0, sd) > 0


def _edge(side_rate: float) -> float:
    """The loyal edge, in noise units, that makes equal sides' loyal win rate `side_rate`."""
    return NormalDist().inv_cdf(side_rate)


def equal_players(plan: Plan, side_rate: float, seed: int) -> EqualRun:
    rng = random.Random(seed)
    people = list(range(plan.players))
    table = _Table({p: Belief() for p in people})
    skill = dict.fromkeys(people, MU)
    means: list[float] = []
    rated = 0
    while rated < plan.games:
        n = rng.choice(SEATS)
        seats: list[int | None] = [None if rng.random() < plan.bot_share else p for p in rng.sample(people, n)]
        if table.play(rng, seats, skill, _edge(side_rate)):
            rated += 1
            if rated % plan.checkpoint == 0 or rated == plan.games:
                means.append(statistics.fmean(b.mu for b in table.beliefs.values()))
    return EqualRun(
        side_rate, [table.beliefs[p] for p in people], means, table.loyal_share(), statistics.fmean(table.traitor_moves)
    )


def information(plan: Plan, side_rate: float) -> float:
    """The Fisher information about one equal player's skill in one of the plan's rated games, by the model's
    own likelihood: P(loyal win) = logistic(logit(rate) + (loyal mean - Traitor's) / c), c^2 = 2 BETA^2 (the
    sides' variances, a few per cent of it once sigma is near 1, left out). A seat moves its side's mean by 1/n of
    its skill for a side of n, so a game at rate p tells a lone Traitor p (1 - p) / c^2 and each of n - 1
    knights p (1 - p) / ((n - 1) c)^2. Between equal players the result's variance is p (1 - p) whatever the
    true curve's slope, so this is also how much their ratings' noise a game adds (no estimator does better).
    Averaged over the table sizes (uniform in `SEATS`) and the bot seats (a game is rated with the Traitor a
    person and a person among the knights), shared among the `players`."""
    b, q = plan.bot_share, side_rate * (1 - side_rate) / (2 * BETA**2)
    weight = total = 0.0
    for n in SEATS:
        rated = (1 - b) * (1 - b ** (n - 1))  # P(rated | n): the Traitor a person, and a knight
        knights = (n - 1) * (1 - b) / (1 - b ** (n - 1))  # people among the knights, in a rated game
        weight += rated
        total += rated * q * (1 + knights / (n - 1) ** 2)
    return total / weight / plan.players


def spread(info: float) -> float:
    """The standard deviation of an equal player's rating after games that told `info` in all, with the prior's
    SIGMA and no TAU: 1 / sqrt(1 / SIGMA^2 + info)."""
    return 1 / math.sqrt(1 / SIGMA**2 + info)


def largest(m: int) -> float:
    """The expected largest of `m` independent |N(0, 1)|: the drift of `m` equal players in units of `spread`."""
    step, x, total = 0.001, 0.0, 0.0
    while x < 8:
        total += (1 - (2 * NormalDist().cdf(x + step / 2) - 1) ** m) * step
        x += step
    return total


def known_skills(plan: Plan, seed: int) -> SkillRun:
    rng = random.Random(seed)
    people = list(range(plan.skilled))
    skills = [MU + SIGMA * NormalDist().inv_cdf((i + 0.5) / plan.skilled) for i in people]
    rng.shuffle(skills)
    skill = dict(zip(people, skills, strict=True))
    table = _Table({p: Belief() for p in people})
    played = dict.fromkeys(people, 0)
    games = 0
    while min(played.values()) < plan.games_each:
        n = rng.choice(SEATS)
        seats = sorted(people, key=lambda p: (played[p], rng.random()))[:n]  # the fewest games first
        rng.shuffle(seats)
        if table.play(rng, list(seats), skill, _edge(COUNT_RATES[n])):
            games += 1
            for p in seats:
                played[p] += 1
    beliefs = [table.beliefs[p] for p in people]
    learned = population(beliefs)
    ratings = [shown(b, learned).mu for b in beliefs]
    means = [b.mu for b in beliefs]
    known = [skill[p] for p in people]
    return SkillRun(
        plan.skilled,
        games,
        spearman(ratings, known),
        spearman(means, known),
        _distance(ratings, known),
        _distance(means, known),
        learned.spread,
    )


def _distance(xs: Sequence[float], ys: Sequence[float]) -> float:
    return math.sqrt(statistics.fmean((x - y) ** 2 for x, y in zip(xs, ys, strict=True)))


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (ties get their mean rank)."""
    return statistics.correlation(_ranks(xs), _ranks(ys))


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2
        i = j + 1
    return ranks


def run(plan: Plan) -> Report:
    """Every scenario of the plan, each from its own seed derived from the plan's."""
    equal = [equal_players(plan, r, plan.seed * 1000 + i) for i, r in enumerate(plan.rates)]
    return Report(equal, known_skills(plan, plan.seed * 1000 + 999))


def lines(plan: Plan, report: Report) -> list[str]:
    """The printout; the last line is the verdict in the form the issue fixes."""
    m = plan.players * len(plan.rates)
    out = [
        f"equal players: {plan.players}, {plan.games} rated games at each loyal win rate (start {MU:.1f}, "
        f"allowed ±{MAX_DRIFT:.1f} for every player's shown rating; the population's mean read every "
        f"{plan.checkpoint} games)"
    ]
    for run_ in report.equal:
        rated, mus = [b.mu for b in run_.shown], [b.mu for b in run_.ratings]
        info = plan.games * information(plan, run_.side_rate)
        out.append(
            f"  loyal side wins {run_.side_rate:.0%} (won {run_.loyal_share:.1%}): shown {min(rated):.1f} to "
            f"{max(rated):.1f}, largest |rating - start| {run_.drift:.2f} (spread learned "
            f"{run_.people.spread:.2f}); the model's means {min(mus):.1f} to {max(mus):.1f}, largest "
            f"{run_.model_drift:.2f} (rms {run_.deviation:.2f}, their ± {run_.uncertainty:.2f}, {run_.covered} of "
            f"{plan.players} within it; the games' information allows ± {spread(info):.2f}); systematic drift "
            f"{run_.systematic:.2f}; a Traitor's game moves the Traitor {run_.traitor_move:+.3f} on average"
        )
    even = 0.5 if 0.5 in plan.rates else plan.rates[0]
    info = information(plan, even)
    out.append(
        f"arithmetic (docs/ratings.md): a rated game at {even:.0%} tells {info:.5f} about each equal player; "
        f"after {plan.games} games ± {spread(plan.games * info):.2f}, so the model's means alone are expected "
        f"to reach {largest(m) * spread(plan.games * info):.2f} from the start (the largest of {m})"
    )
    skill = report.skill
    out.append(
        f"known skills: {skill.players} players, {plan.games_each}+ rated games each ({skill.games} games), "
        f"loyal rate by player count {COUNT_RATES}: Spearman {skill.spearman:.3f} (needed {MIN_SPEARMAN}; the "
        f"model's means {skill.model_spearman:.3f}); rms distance from the skills {skill.error:.2f} shown, "
        f"{skill.model_error:.2f} the model's means; spread learned {skill.spread:.2f} (the skills' {SIGMA:.2f})"
    )
    verdict = "met" if report.met else "not met"
    out.append(f"ratings simulate: drift {report.drift:.2f}, spearman {skill.spearman:.2f}, {verdict}")
    return out


def main(argv: list[str] | None = None) -> None:
    """`camelot ratings simulate [--seed N] [--players N] [--games N] [--rates 0.3,0.5,0.7] [--skilled N]
    [--games-each N]`: prints the figures; exits 1 when one misses."""
    parser = argparse.ArgumentParser(
        prog="camelot ratings simulate", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    default = Plan()
    parser.add_argument("--seed", type=int, default=default.seed)
    parser.add_argument("--players", type=int, default=default.players, help="equal players")
    parser.add_argument("--games", type=int, default=default.games, help="rated games at each loyal win rate")
    parser.add_argument("--rates", default=",".join(str(r) for r in default.rates), help="loyal win rates")
    parser.add_argument("--skilled", type=int, default=default.skilled, help="players with known skills")
    parser.add_argument("--games-each", type=int, default=default.games_each, help="their rated games each")
    args = parser.parse_args(argv)
    rates = tuple(float(r) for r in args.rates.split(","))
    if not all(0 < r < 1 for r in rates):
        parser.error("--rates: win rates between 0 and 1, e.g. 0.3,0.5,0.7")
    plan = Plan(
        seed=args.seed,
        players=args.players,
        games=args.games,
        rates=rates,
        skilled=args.skilled,
        games_each=args.games_each,
    )
    report = run(plan)
    print("\n".join(lines(plan, report)))
    if not report.met:
        raise SystemExit(1)
