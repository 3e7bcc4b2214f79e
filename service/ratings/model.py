"""The rating model, pure: no database, no clock. `service.ratings.store` applies it to finished games and
`service.ratings.simulate` to populations with known skills, through the same functions.

**A side is a team whose strength is the mean of its seats' skills**, not their sum. Shadows over Camelot scales
its difficulty with the number of players (more Siege Engines, more Black cards, more quests), so a loyal side of
six is not stronger than one of three *because* it is bigger; what a result says is how good the side's members
are on average. Summing (openskill's team model, used before) predicted four knights to beat a lone Traitor almost
surely, so a Traitor's win moved every rating by several points and equal players drifted to negative numbers.

**The side advantage is learned** from the rated games before: the loyal side's win rate in the game's setting
(kind, player count, variant set), smoothed towards the same player count with other variants, that towards the
kind at other player counts, and that towards an even 50 %, with `PRIOR_GAMES` pseudo-games at each level (a new
variant set borrows its neighbours' rate until its own games speak). It enters the prediction as an offset on its
logit (a skill offset of `c · logit(rate)`): a loyal win where the loyal side wins 70 % of the time moves ratings
little, a Traitor's win there more, and equal players gain nothing on average from the side they were dealt.

**The update** is Weng and Lin's Bradley-Terry one for two teams (2011, "A Bayesian approximation method for
online ranking", the model openskill implements), with a team's mean and variance those of its seats' mean: a
person with skill belief N(mu, sigma^2) on a side of n seats moves by sigma^2 / (n c) · (result − expected), so a
lone Traitor, whose result is theirs alone, moves n times as much as each knight of equal certainty. It is then
made **zero-sum** (`_conserved`): 25 stays the average player, whatever the sides' sizes, uncertainties and win
rates. Bots are seats at the starting mean with no uncertainty: they count in their side's mean, keep nothing and
take no share. A person's variance shrinks by the game's whole information about them (p (1 - p) (share / c)^2
added to 1 / sigma^2), not Weng and Lin's damped share, so its ± is what the results say; `TAU` keeps it
from shrinking below about 1.4, so that a rating follows a person who improves. The arithmetic of what a game
tells, and why these means alone cannot hold equal players within ±1 of 25 after 1,000 games, is in docs/ratings.md.

**Which games are rated** (`is_rated`): a person on each side, and nobody in two seats. Bots neither count nor
make a game rated; solo games have one side and are not rated.

**What is shown** is not these means but each person's skill among everyone who plays the kind, whose spread
is learned (`service.ratings.shown`): equal people are shown together, people who differ as the means have them.
It is a mean with its uncertainty (one standard deviation) beside it: a newcomer reads "25.0 ±4.8", and no first
game takes a newcomer near a negative number. A conservative ordinal (mu − 3 sigma) was the alternative; it
starts at 0, shows newcomers negative numbers after a loss, and grows with games played rather than with skill,
which standings would then reward. Instead, people with fewer than `PROVISIONAL_GAMES` rated games are marked
provisional: listed after the others, and left off the leaderboard.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

MU = 25.0  # the starting mean: openskill's scale, which the ratings shown so far used
SIGMA = MU / 3  # the starting uncertainty
BETA = MU / 6  # one side's performance noise in a game
TAU = MU / 300  # uncertainty added before each game, so that ratings keep following a player who improves
KAPPA = 1e-4  # the smallest factor a game may shrink a variance by
PRIOR_GAMES = 20.0  # pseudo-games of the broader setting that smooth a setting's loyal win rate
PROVISIONAL_GAMES = 5  # fewer rated games than this: listed after the others, and not on the global leaderboard
SIDES = ("loyal", "evil")  # the engines' `result["winner"]`; a seat is "evil" when its loyalty is "traitor"


@dataclass(frozen=True)
class Belief:
    """What the model believes of one person's skill: a normal distribution."""

    mu: float = MU
    sigma: float = SIGMA


@dataclass(frozen=True)
class Outcome:
    """A rated game's effect: the new beliefs seat by seat (None for a bot), and the loyal side's expected chance."""

    loyal: list[Belief | None]
    evil: list[Belief | None]
    expected: float


def loyal_rate(levels: Sequence[tuple[int, int]]) -> float:
    """The loyal side's smoothed win rate in a setting from (games, loyal wins) of disjoint groups of games, the
    most distant first: the kind at other player counts, this player count with other variants, this setting.
    Starting from an even rate, each group's record is weighed against `PRIOR_GAMES` pseudo-games at the rate so
    far, so a setting with few games borrows its neighbours' rate and one with many has its own."""
    rate = 0.5
    for games, wins in levels:
        rate = (wins + PRIOR_GAMES * rate) / (games + PRIOR_GAMES)
    return rate


def rate(loyal: Sequence[Belief | None], evil: Sequence[Belief | None], loyal_won: bool, side_rate: float) -> Outcome:
    """One game: each side's seats (None for a bot), who won, and the loyal side's win rate in this setting."""
    loyal = [_aged(b) for b in loyal]
    evil = [_aged(b) for b in evil]
    variance = _team_variance(loyal) + _team_variance(evil)
    c = math.sqrt(2 * BETA**2 + variance)
    logit = math.log(side_rate / (1 - side_rate))
    expected = 1 / (1 + math.exp(-(logit + (_team_mean(loyal) - _team_mean(evil)) / c)))
    surprise = float(loyal_won) - expected  # > 0: the loyal side did better than expected
    before = loyal + evil
    after = _conserved(before, _moved(loyal, surprise, expected, c) + _moved(evil, -surprise, expected, c))
    return Outcome(after[: len(loyal)], after[len(loyal) :], expected)


def _aged(belief: Belief | None) -> Belief | None:
    return None if belief is None else Belief(belief.mu, math.sqrt(belief.sigma**2 + TAU**2))


def _team_mean(team: Sequence[Belief | None]) -> float:
    return sum(MU if b is None else b.mu for b in team) / len(team)


def _team_variance(team: Sequence[Belief | None]) -> float:
    """The variance of the side's mean skill (a bot's skill is taken as known)."""
    return sum(0.0 if b is None else b.sigma**2 for b in team) / len(team) ** 2


def _moved(team: list[Belief | None], surprise: float, expected: float, c: float) -> list[Belief | None]:
    """Each person's share of the side's update: their covariance with the side's mean (sigma^2 / n) over c. The
    variance shrinks by what the game tells (its Fisher information, p (1 - p) / c^2 per unit of the side's mean),
    undamped: Weng and Lin's damping (gamma = the side's sigma / c, openskill's default) kept an equal player's
    sigma near 2.2 where 1,000 games' information says 1.2, and their ratings wandered further for it."""
    n = len(team)
    shrink = expected * (1 - expected) / c**2
    return [None if b is None else _one(b, n, surprise / c, shrink) for b in team]


def _one(b: Belief, n: int, step: float, shrink: float) -> Belief:
    share = b.sigma**2 / n
    return Belief(b.mu + share * step, b.sigma * math.sqrt(max(1 - share / n * shrink, KAPPA)))


def _conserved(before: list[Belief | None], after: list[Belief | None]) -> list[Belief | None]:
    """The update made zero-sum: what the people's means gained in total is taken back from each in proportion to
    their variance before the game (the smallest change, in the model's own metric, that keeps the total; the
    weights of the update itself, so no one's change turns against their result). The two sides' totals
    differ when their uncertainties do, and the difference need not average out: in a simulation of equal players
    it drifted the population's mean by about half a point per 1,000 games, down where the loyal side wins less
    often and up where it wins more. Conserved, the mean stays where it started: 25 is the average player."""
    gained = sum(a.mu - b.mu for b, a in zip(before, after, strict=True) if b is not None and a is not None)
    weight = sum(b.sigma**2 for b in before if b is not None)
    return [
        None if a is None or b is None else Belief(a.mu - gained * b.sigma**2 / weight, a.sigma)
        for b, a in zip(before, after, strict=True)
    ]


def sides_of(result: dict | None) -> tuple[str, list[str]] | None:
    """(winning side, side of each seat) of a finished game's result, or None if it has no winner or one side
    (no Traitor was dealt, a solo game, a card game stopped at its turn cap)."""
    result = result or {}
    winner, loyalty = result.get("winner"), result.get("loyalty") or []
    side = ["evil" if card == "traitor" else "loyal" for card in loyalty]
    if winner not in SIDES or set(side) != set(SIDES):
        return None
    return winner, side


def is_rated(side: Sequence[str], people: Sequence[int | None]) -> bool:
    """Whether a game with these seats' sides and people (None for a bot) is rated: a person on each side, and no
    person in two seats. A rating compares people with people: a result against bots alone would rate how one
    plays against the bots, whose strength is nowhere on the scale, so bots neither count nor make a game rated.
    One account in two seats (a hot seat) is not a result about that person."""
    present = [p for p in people if p is not None]
    on_side = {s for s, p in zip(side, people, strict=True) if p is not None}
    return on_side == set(SIDES) and len(set(present)) == len(present)
