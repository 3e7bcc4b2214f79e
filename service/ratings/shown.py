"""What a rating shows: a person's skill as one of the people who play the kind, whose spread is learned.

The model (`service.ratings.model`) rates each person as if nothing were known of how far people differ beyond its
prior, SIGMA: every result moves a mean as if a difference of several points were as likely as none. Between
equal people that turns noise into differences: ten of them, after 1,000 rated games, end up to three points
apart, which is what those games' information allows (docs/ratings.md) and no smaller step can avoid.

What is shown instead is the estimate of a **hierarchical model**: people's skills are drawn from a normal
distribution around `MU` whose standard deviation, the population's *spread*, is unknown, between none and
SIGMA (a uniform prior on it, as Gelman (2006) recommends for a group-level scale), and learned from everyone's
results at the kind (`population`). Each person's ratings then say how far *they* are from the average, weighed
against how far people are seen to be (`shown`): where the results show no more difference than their noise,
the spread learned is small and everyone is shown near 25; where people really differ, it is near their real
spread and a person's rating is close to the model's mean. Where nothing is known yet, a newcomer is shown
25 ± 4.8 (the uniform prior's root mean square).

The arithmetic is the normal one. A person's belief N(mu, sigma^2) under the model's prior N(MU, SIGMA^2) holds
their results' information d = 1/sigma^2 - 1/SIGMA^2 about their skill, centred on MU + r / d, r = (mu - MU) /
sigma^2; under a spread s, their skill's posterior mean is MU + r g and its variance g, g = s^2 / (1 + s^2 d),
and the results' likelihood of s is prod (1 + s^2 d)^-1/2 exp(r^2 s^2 / (2 (1 + s^2 d))). Averaged over the
spread's posterior (a grid of `GRID` points), the mean and standard deviation are what is shown. TAU's added
uncertainty makes d a little smaller than the games' information; that errs towards 25.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from service.ratings.model import MU, SIGMA, Belief

GRID = 120  # points of the spread's posterior, evenly over (0, SIGMA]
UNIT = 2**32  # the tally's log-likelihood is kept in whole units of 1 / UNIT


@dataclass(frozen=True)
class Population:
    """The spread's posterior: candidate spreads (standard deviations of skill) and their weights, summing to 1."""

    spreads: tuple[float, ...]
    weights: tuple[float, ...]

    @property
    def spread(self) -> float:
        """The spread's posterior root mean square: how far people's skills are seen to differ."""
        return math.sqrt(sum(w * s * s for s, w in zip(self.spreads, self.weights, strict=True)))


class Tally:
    """The spread's log-likelihood from everyone's beliefs, kept as they change: a rated game swaps its people's
    beliefs without everyone being read again (a recomputation rates every game in turn). It is summed in whole
    units of 2^-32, so that it is exact: a tally kept game by game is the one read from everyone, in any order,
    to the last bit, and so are the ratings shown from it."""

    def __init__(self, beliefs: Iterable[Belief] = ()) -> None:
        self._spreads = tuple(SIGMA * (k + 0.5) / GRID for k in range(GRID))
        self._logs = [0] * GRID
        for belief in beliefs:
            self._add(belief, 1)

    def swap(self, old: Belief, new: Belief) -> None:
        """A person's belief changed from `old` to `new`."""
        self._add(old, -1)
        self._add(new, 1)

    def population(self) -> Population:
        top = max(self._logs)
        raw = [math.exp((x - top) / UNIT) for x in self._logs]
        total = sum(raw)
        return Population(self._spreads, tuple(w / total for w in raw))

    def _add(self, belief: Belief, sign: int) -> None:
        d, r = _held(belief)
        if d <= 0:  # no rated game: nothing told
            return
        for k, s in enumerate(self._spreads):
            q = 1 + s * s * d
            self._logs[k] += sign * round((r * r * s * s / q - math.log(q)) / 2 * UNIT)


def population(beliefs: Iterable[Belief]) -> Population:
    """The spread's posterior from the model's beliefs about everyone who plays the kind (people without a rated
    game tell nothing and may be left out)."""
    return Tally(beliefs).population()


def shown(belief: Belief, people: Population) -> Belief:
    """The rating shown for a person of this belief among these people: the posterior mean of their skill and
    its standard deviation."""
    d, r = _held(belief)
    d = max(d, 0.0)
    gs = [s * s / (1 + s * s * d) for s in people.spreads]
    mean = sum(w * g for w, g in zip(people.weights, gs, strict=True))
    spread = sum(w * (g - mean) ** 2 for w, g in zip(people.weights, gs, strict=True))
    return Belief(MU + r * mean, math.sqrt(mean + r * r * spread))


def _held(belief: Belief) -> tuple[float, float]:
    """(d, r): the information a person's results hold about their skill, and their mean's pull from `MU` (their
    results' estimate is MU + r / d)."""
    precision = 1 / belief.sigma**2
    return precision - 1 / SIGMA**2, (belief.mu - MU) * precision
