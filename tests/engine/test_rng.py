"""The games' generator pickles compactly and copies exactly: a cached state must draw what a replayed one draws."""

from __future__ import annotations

import pickle
import random

from engine import get_game
from engine.core.rng import Rng, copy_rng


def _drawn(rng: random.Random) -> list[float]:
    return [rng.random() for _ in range(5)] + [rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)]


def test_a_pickled_generator_draws_on_as_the_original_in_a_third_of_the_bytes():
    rng = Rng(42)
    rng.gauss(0, 1)  # gauss keeps a second value in hand: part of the state too
    plain = random.Random()
    plain.setstate(rng.getstate())
    blob = pickle.dumps(rng, protocol=pickle.HIGHEST_PROTOCOL)
    restored = pickle.loads(blob)
    assert type(restored) is Rng
    assert _drawn(restored) == _drawn(rng) == _drawn(plain)
    assert len(blob) < len(pickle.dumps(plain, protocol=pickle.HIGHEST_PROTOCOL)) * 0.7


def test_a_copy_is_independent_and_draws_the_same():
    rng = Rng(7)
    copied = copy_rng(rng)
    first = rng.random()  # the original draws on; the copy stays where it was copied
    assert type(copied) is Rng and copied.random() == first
    assert _drawn(copied) == _drawn(rng)


def test_seeded_as_random_random_was():
    """Games started before keep their decks: a seed gives what `random.Random` gave."""
    assert _drawn(Rng(2024)) == _drawn(random.Random(2024))


def test_a_cached_game_state_replays_after_a_round_trip_through_pickle():
    for kind, players in (("cards", 4), ("board", 5)):
        game = get_game(kind)
        state = game.new_game({"players": players}, 11)
        again = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        assert game.snapshot(again) == game.snapshot(state)
        assert again.rng.getrandbits(64) == state.rng.getrandbits(64)
