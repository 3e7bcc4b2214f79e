"""The games' random number generator: `random.Random`, pickled compactly and copied without seeding.

A game's state carries its generator, and the service caches states as pickles (a read and a write per move).
Pickled as `random.Random` pickles itself, the Mersenne Twister's 625 words are 625 pickled ints: 3.8 KB of a
card game's 5.4 KB, and most of the time of pickling it. Here they are one bytes object (2.5 KB). The sequence
is the same: the generator's state is kept exactly.
"""

from __future__ import annotations

import random
from array import array
from typing import Any

_WORDS = "I"  # the twister's state words are below 2**32
assert array(_WORDS).itemsize == 4


class Rng(random.Random):
    def __reduce__(self) -> tuple[Any, ...]:
        version, internal, gauss = self.getstate()
        return _restored, (version, array(_WORDS, internal).tobytes(), gauss)


def _restored(version: int, words: bytes, gauss: float | None) -> Rng:
    rng = Rng.__new__(Rng)  # not Rng(): that would seed from the system's entropy first, for nothing
    rng.setstate((version, tuple(array(_WORDS, words)), gauss))
    return rng


def copy_rng(rng: random.Random) -> Rng:
    """An independent generator in the same state (a state's copy: its own draws from here on)."""
    new = Rng.__new__(Rng)
    new.setstate(rng.getstate())
    return new
