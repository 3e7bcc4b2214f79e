"""`/set` in a lobby: each option takes its values and refuses the rest, leaving the row as it was."""

from __future__ import annotations

import copy

import pytest

from service.play import lobby_options
from service.store.models import GameRow


def lobby(kind: str = "board") -> GameRow:
    return GameRow(kind=kind, config={}, options={"players": 4}, seed=1, language="en")


@pytest.mark.parametrize(
    ("option", "value", "where", "expected"),
    [
        ("game", "cards", "kind", "cards"),
        ("players", "6", "options.players", 6),
        ("bots", "on", "options.bots", True),
        ("bots", "off", "options.bots", False),
        ("lang", "cs", "language", "cs"),
        ("pausevote", "on", "options.pause_vote", True),
        ("leaving", "die", "options.leaving", "die"),
        ("turn", "2", "options.turn_deadline", 7200.0),
        ("turn", "0.002", "options.turn_deadline", 7.2),  # seconds-long deadlines: the days e2e tests use them
        ("response", "30", "options.response_deadline", 1800.0),
        ("idle", "3", "options.idle_limit", 3),
        ("away", "48", "options.away_limit", 48 * 3600),
        ("excalibur_variant", "on", "config.excalibur_variant", True),
        ("merlin", "3", "config.merlin", 3),
        ("mode", "hard", "config.mode", "hard"),
    ],
)
def test_a_good_value_is_set(option: str, value: str, where: str, expected: object) -> None:
    game = lobby()
    assert lobby_options.apply(game, 2, option, value) == "ok"
    field, _, key = where.partition(".")
    got = getattr(game, field)
    assert (got[key] if key else got) == expected


@pytest.mark.parametrize(
    ("kind", "seated", "option", "value"),
    [
        ("board", 2, "game", "chess"),
        ("board", 2, "players", "2"),  # below the board game's 3
        ("board", 2, "players", "8"),  # above its 7
        ("board", 5, "players", "4"),  # fewer seats than people already seated
        ("board", 2, "players", "four"),
        ("board", 2, "lang", "xx"),
        ("board", 2, "pausevote", "maybe"),
        ("board", 2, "leaving", "explode"),
        ("cards", 2, "leaving", "die"),  # the board game's rule only
        ("board", 2, "turn", "nan"),
        ("board", 2, "turn", "inf"),
        ("board", 2, "turn", "0"),
        ("board", 2, "response", "-5"),
        ("board", 2, "idle", "0"),
        ("board", 2, "away", "2000"),
        ("board", 2, "stack", "1"),  # a rigged deal is for tests only
        ("board", 2, "variant", "x"),
    ],
)
def test_a_bad_value_changes_nothing(kind: str, seated: int, option: str, value: str) -> None:
    game = lobby(kind)
    before = (game.kind, game.language, copy.deepcopy(game.options), copy.deepcopy(game.config))
    assert lobby_options.apply(game, seated, option, value) == "bad_value"
    assert (game.kind, game.language, game.options, game.config) == before
