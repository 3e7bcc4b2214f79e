"""The rating model (`service.ratings.model`), pure: a side's strength is its seats' mean, the side advantage is
weighed in, the update is zero-sum, and a newcomer's first game never shows a negative number."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from service.ratings.model import BETA, MU, SIGMA, TAU, Belief, is_rated, loyal_rate, rate, sides_of

beliefs = st.builds(Belief, st.floats(0.0, 50.0), st.floats(0.5, SIGMA))
seats = st.one_of(st.none(), beliefs)  # None: a bot


def _moves(before: list[Belief | None], after: list[Belief | None]) -> list[float]:
    return [a.mu - b.mu for b, a in zip(before, after, strict=True) if b is not None and a is not None]


@pytest.mark.parametrize("loyal_seats", [2, 3, 4, 6])
@pytest.mark.parametrize("side_rate", [0.3, 0.5, 0.7])
def test_equal_sides_are_expected_to_win_at_the_sides_rate_whatever_their_sizes(loyal_seats, side_rate):
    """A bigger side is not a stronger one: between equal players the prediction is the side's learned rate. (A sum
    of skills put four knights against one Traitor at almost sure.)"""
    outcome = rate([Belief()] * loyal_seats, [Belief()], True, side_rate)
    assert outcome.expected == pytest.approx(side_rate)


@pytest.mark.parametrize("loyal_seats", [2, 4, 6])
def test_a_lone_traitor_moves_as_much_as_the_whole_loyal_side(loyal_seats):
    """Each person moves by their share of their side's mean: the Traitor's result is theirs alone."""
    loyal = [Belief()] * loyal_seats
    outcome = rate(loyal, [Belief()], False, 0.5)
    knights = _moves(loyal, outcome.loyal)
    (traitor,) = _moves([Belief()], outcome.evil)
    assert traitor > 0 and all(k < 0 for k in knights)
    assert traitor == pytest.approx(-sum(knights)) and knights[0] == pytest.approx(-traitor / loyal_seats)


@pytest.mark.parametrize("side_rate", [0.2, 0.35, 0.5, 0.65, 0.8])
def test_equal_players_gain_nothing_on_average_from_the_side_they_were_dealt(side_rate):
    """Weighed by how often each result happens, each person's expected change is zero: a loyal win where the loyal
    side usually wins moves little, a Traitor's win there moves more."""
    loyal, evil = [Belief()] * 4, [Belief()]
    won, lost = rate(loyal, evil, True, side_rate), rate(loyal, evil, False, side_rate)
    for side, before in (("loyal", loyal), ("evil", evil)):
        gain = _moves(before, getattr(won, side))
        loss = _moves(before, getattr(lost, side))
        for g, m in zip(gain, loss, strict=True):
            assert side_rate * g + (1 - side_rate) * m == pytest.approx(0, abs=1e-12)


def test_the_side_rate_shrinks_an_expected_win_and_grows_an_upset():
    loyal, evil = [Belief()] * 4, [Belief()]
    even = _moves(evil, rate(loyal, evil, False, 0.5).evil)[0]
    favoured = _moves(evil, rate(loyal, evil, False, 0.7).evil)[0]  # the Traitor's win against the odds
    expected = _moves(loyal, rate(loyal, evil, True, 0.7).loyal)[0]
    assert favoured > even > 0 and 0 < expected < _moves(loyal, rate(loyal, evil, True, 0.5).loyal)[0]


@given(
    st.lists(seats, min_size=1, max_size=6),
    st.lists(seats, min_size=1, max_size=2),
    st.booleans(),
    st.floats(0.05, 0.95),
)
def test_an_update_is_zero_sum_moves_each_side_its_way_and_narrows_no_one_past_the_start(loyal, evil, won, side_rate):
    assume(any(loyal) and any(evil))  # a person on each side, as rated games have
    outcome = rate(loyal, evil, won, side_rate)
    assert 0 < outcome.expected < 1
    assert sum(_moves(loyal + evil, outcome.loyal + outcome.evil)) == pytest.approx(0, abs=1e-9)
    for before, after, winners in ((loyal, outcome.loyal, won), (evil, outcome.evil, not won)):
        for b, a in zip(before, after, strict=True):
            assert (a is None) == (b is None)  # a bot keeps nothing
            if b is not None:
                assert (a.mu >= b.mu) if winners else (a.mu <= b.mu)
                assert 0 < a.sigma <= math.sqrt(b.sigma**2 + TAU**2)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("side_rate", [0.01, 0.5, 0.99])
def test_a_newcomers_first_game_never_shows_a_negative_number(players, side_rate):
    """The worst first game: a newcomer alone as the Traitor against the strongest knights, and lost."""
    outcome = rate([Belief(50.0, 1.0)] * (players - 1), [Belief()], True, side_rate)
    (newcomer,) = outcome.evil
    assert MU - SIGMA < newcomer.mu < MU and newcomer.sigma < SIGMA + TAU


def test_the_loyal_rate_borrows_from_the_broader_setting_until_its_own_games_speak():
    assert loyal_rate([]) == 0.5 and loyal_rate([(0, 0), (0, 0), (0, 0)]) == 0.5
    kind = (1000, 700)  # the loyal side wins 70 % of this kind's games at other player counts
    assert loyal_rate([kind, (0, 0), (0, 0)]) == pytest.approx(0.7, abs=0.01)
    assert loyal_rate([kind, (0, 0), (2, 0)]) > 0.6  # two losses in this setting barely move it
    assert loyal_rate([kind, (0, 0), (400, 120)]) == pytest.approx(0.3, abs=0.02)  # 400 games do
    assert loyal_rate([kind, (400, 120), (0, 0)]) == pytest.approx(0.3, abs=0.02)  # so do the other variants'


@pytest.mark.parametrize(
    ("side", "people", "rated"),
    [
        (["loyal", "evil", "loyal"], [1, 2, 3], True),
        (["loyal", "evil", "loyal"], [1, 2, None], True),  # a bot beside the people
        (["loyal", "evil", "loyal"], [1, None, 3], False),  # the Traitor a bot: people on one side only
        (["evil", "loyal", "loyal"], [1, None, None], False),  # one person against bots
        (["loyal", "evil", "loyal"], [1, 1, 3], False),  # one account in two seats
        (["loyal", "evil", "evil", "loyal"], [1, None, 2, 3], True),  # two Traitors, one a person
    ],
)
def test_a_game_is_rated_with_a_person_on_each_side_and_no_one_twice(side, people, rated):
    assert is_rated(side, people) is rated


def test_sides_of_a_result():
    assert sides_of({"winner": "evil", "loyalty": ["loyal", "traitor"]}) == ("evil", ["loyal", "evil"])
    assert sides_of({"winner": "loyal", "loyalty": ["loyal"]}) is None  # solo: one side
    assert sides_of({"winner": None, "loyalty": ["loyal", "traitor"]}) is None  # the turn cap: no winner
    assert sides_of(None) is None


@pytest.mark.parametrize("side_rate", [0.3, 0.5, 0.7])
def test_a_games_information_is_taken_in_whole(side_rate):
    """Each person's precision (1 / sigma^2) grows by what the game tells about them, p (1 - p) (share / c)^2
    (docs/ratings.md), undamped: a lone Traitor learns 16 times what each of four knights does."""
    loyal, evil = [Belief()] * 4, [Belief()]
    outcome = rate(loyal, evil, True, side_rate)
    aged = SIGMA**2 + TAU**2
    c2 = 2 * BETA**2 + aged * (1 + 4 / 16)
    told = side_rate * (1 - side_rate) / c2
    traitor, knight = outcome.evil[0].sigma ** -2 - 1 / aged, outcome.loyal[0].sigma ** -2 - 1 / aged
    assert traitor == pytest.approx(told, rel=0.3) and knight == pytest.approx(told / 16, rel=0.05)
    assert traitor > 10 * knight
