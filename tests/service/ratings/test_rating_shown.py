"""What a rating shows (`service.ratings.shown`): a person's skill among everyone who plays the kind, whose spread
is learned. A newcomer's reads 25 ± 4.8; people whose results differ no more than their noise are held together;
people who really differ keep their differences; the shown mean lies between 25 and the model's own; and the
tally kept game by game is the one read from everyone."""

from __future__ import annotations

import math
import random

from hypothesis import given
from hypothesis import strategies as st

from service.ratings.model import MU, SIGMA, Belief
from service.ratings.shown import Tally, population, shown


def _rated(rng: random.Random, skill: float, information: float) -> Belief:
    """The model's belief about a person of this skill whose results told `information` about it: the normal
    posterior of one noisy estimate of the skill, under the model's prior."""
    estimate = rng.gauss(skill, 1 / math.sqrt(information))
    precision = 1 / SIGMA**2 + information
    return Belief(MU + information * (estimate - MU) / precision, 1 / math.sqrt(precision))


def test_a_newcomer_among_newcomers_reads_25_with_the_spreads_prior():
    newcomer = shown(Belief(), population([Belief()] * 5))
    assert newcomer.mu == MU
    assert math.isclose(newcomer.sigma, SIGMA / math.sqrt(3), abs_tol=1e-3)  # a spread uniform up to SIGMA
    assert round(newcomer.sigma, 1) == 4.8


def test_people_who_do_not_differ_are_held_together_and_people_who_do_keep_their_differences():
    rng = random.Random(7)
    equal = [_rated(rng, MU, 1.0) for _ in range(40)]  # each known to ±1, all of skill 25
    people = population(equal)
    assert people.spread < 1.0
    assert max(abs(b.mu - MU) for b in equal) > 1.5  # the model's means spread with the noise
    assert max(abs(shown(b, people).mu - MU) for b in equal) < 0.5  # shown, they stay together

    skills = [MU + SIGMA * (i - 19.5) / 11.5 for i in range(40)]  # a real spread of 8.4
    differ = [_rated(rng, skill, 1.0) for skill in skills]
    people = population(differ)
    assert 7 < people.spread <= SIGMA
    assert max(abs(shown(b, people).mu - b.mu) for b in differ) < 0.1  # shown as the model has them


@given(
    st.floats(min_value=5, max_value=45),
    st.floats(min_value=0.8, max_value=SIGMA),
    st.lists(st.tuples(st.floats(min_value=5, max_value=45), st.floats(min_value=0.8, max_value=SIGMA)), max_size=8),
)
def test_the_shown_mean_lies_between_25_and_the_models(mu, sigma, others):
    belief = Belief(mu, sigma)
    seen = shown(belief, population([belief, *(Belief(m, s) for m, s in others)]))
    low, high = sorted((MU, mu))
    assert low - 1e-9 <= seen.mu <= high + 1e-9
    assert seen.sigma > 0


def test_the_tally_kept_game_by_game_is_the_one_read_from_everyone():
    rng = random.Random(3)
    beliefs = [Belief()] * 6
    tally = Tally(beliefs)
    for _ in range(200):
        who = rng.randrange(6)
        new = Belief(beliefs[who].mu + rng.uniform(-2, 2), beliefs[who].sigma * rng.uniform(0.9, 1.0))
        tally.swap(beliefs[who], new)
        beliefs[who] = new
    assert tally.population() == population(beliefs) == population(reversed(beliefs))  # to the last bit
