"""The sessions' `CACHE_FORMAT` is named in every cached value's key: this pins the shapes a cached game depends on
(the table's columns as `games.snapshot` caches them, the engine states' fields) to it, so a change to either fails
here until the format is bumped and the new shape recorded. (A value that still cannot be read falls back to the
locking path: test_bot_moves_on_cache.py.)"""

from __future__ import annotations

import hashlib
import json

from engine import get_game
from service.sessions.base import CACHE_FORMAT
from service.store import games

# CACHE_FORMAT → the digest of `_shape()` (3: the engine states' full field names, issue 22)
SHAPES = {2: "176cd986554d6293", 3: "89630691cf5e702d", 4: "fefad652931bc0f0"}


def _shape() -> str:
    shape: dict[str, list[str]] = {model.__tablename__: keys for model, keys in games.SNAPSHOT_KEYS.items()}
    for kind in ("board", "cards"):
        shape[kind] = list(type(get_game(kind).new_game({"players": 4}, 1)).__slots__)
    return hashlib.sha256(json.dumps(shape, sort_keys=True).encode()).hexdigest()[:16]


def test_the_cached_shapes_are_the_ones_recorded_for_the_cache_format():
    assert SHAPES.get(CACHE_FORMAT) == _shape(), (
        "a cached table's columns or an engine state's fields changed: bump CACHE_FORMAT in "
        f"service/sessions/base.py and record {{{CACHE_FORMAT + 1}: {_shape()!r}}} in SHAPES"
    )
