"""A tournament's options: their defaults, the organiser's changes (a button tap: `<option>-<value>`), and the
values its tables' games take. Every value is checked here, whatever the button offered.

Options (in `Tournament.options`, with the game kind and language in their own columns): `low`, `high` (table
sizes, counting people), `bots` (bots added at each table: for practice and tests that need speed; not paired, not
scored), `rounds` (a number, or `course.AUTO`), `pairing` ("swiss" or "rr"), `round_hours` (the round's deadline),
`turn_hours` and `response_minutes` (the games' deadlines), `variants` (the engine's variants, as the lobby's),
`place` (where tables are played: `service.play.tournament_places`).
"""

from __future__ import annotations

from typing import Any

import engine
from engine import get_game
from engine.core.errors import IllegalAction
from service.render.i18n import available_languages
from service.render.lobby import VARIANT_CHOICES
from service.settings import get_settings
from service.store.models import Tournament
from service.tournaments.course import AUTO, AUTO_CAP, ROUND_ROBIN, SWISS, Format

SEATS = {"board": (3, 7), "cards": (3, 7)}  # a tournament table's least and most seats, bots included
DEFAULT_SIZES = {"board": (3, 5), "cards": (3, 5)}
MAX_BOTS = 2
DEFAULT_ROUNDS = 3
DEFAULT_ROUND_HOURS = 72


def defaults(kind: str) -> dict[str, Any]:
    settings = get_settings()
    low, high = DEFAULT_SIZES[kind]
    return {
        "low": low,
        "high": high,
        "bots": 0,
        "rounds": DEFAULT_ROUNDS,
        "pairing": SWISS,
        "round_hours": DEFAULT_ROUND_HOURS,
        "turn_hours": _whole(settings.turn_deadline / 3600),
        "response_minutes": _whole(settings.response_deadline / 60),
        "variants": {},
    }


def format_of(tournament: Tournament) -> Format:
    opts = tournament.options
    return Format(low=opts["low"], high=opts["high"], rounds=opts["rounds"], pairing=opts["pairing"])


def game_options(tournament: Tournament) -> dict[str, Any]:
    """The service options of the tournament's games (deadlines, and whose tournament they are)."""
    opts = tournament.options
    return {
        "tournament": tournament.id,
        "turn_deadline": float(opts["turn_hours"]) * 3600,
        "response_deadline": float(opts["response_minutes"]) * 60,
    }


def playable(tournament: Tournament) -> bool:
    """Whether the engine takes the variants at every table size the tournament may seat."""
    opts = tournament.options
    for players in range(opts["low"] + opts["bots"], opts["high"] + opts["bots"] + 1):
        try:
            get_game(tournament.kind).new_game({**opts["variants"], "players": players}, 0)
        except (ValueError, KeyError, TypeError, IllegalAction):
            return False
    return True


def set_option(tournament: Tournament, value: str) -> str:
    """Apply one `<option>-<value>` tap: "ok", or "bad_value" for anything out of range or unknown."""
    name, _, raw = value.partition("-")
    opts = dict(tournament.options)
    least, most = SEATS[tournament.kind]
    try:
        if name == "game":
            if raw not in engine.GAMES or raw not in SEATS:
                return "bad_value"
            tournament.kind = raw
            low, high = DEFAULT_SIZES[raw]
            opts.update(low=low, high=high, bots=0, variants={})
        elif name in ("low", "high", "bots"):
            opts[name] = int(raw)
            if not (least <= opts["low"] <= opts["high"] and opts["high"] + opts["bots"] <= most):
                return "bad_value"
            if not 0 <= opts["bots"] <= MAX_BOTS:
                return "bad_value"
        elif name == "rounds":
            opts["rounds"] = int(raw)
            if not (opts["rounds"] == AUTO or 1 <= opts["rounds"] <= AUTO_CAP):
                return "bad_value"
        elif name == "pairing":
            if raw not in (SWISS, ROUND_ROBIN):
                return "bad_value"
            opts["pairing"] = raw
        elif name in ("hours", "turn", "resp"):
            amount = float(raw)
            if not 0 < amount < 10_000:  # also refuses nan and inf
                return "bad_value"
            key = {"hours": "round_hours", "turn": "turn_hours", "resp": "response_minutes"}[name]
            opts[key] = _whole(amount)
        elif name == "lang":
            if raw not in available_languages():
                return "bad_value"
            tournament.language = raw
        elif name in VARIANT_CHOICES.get(tournament.kind, {}):
            choices = {_wire(choice): choice for choice in VARIANT_CHOICES[tournament.kind][name]}
            if raw not in choices:
                return "bad_value"
            opts["variants"] = {**opts["variants"], name: choices[raw]}
        else:
            return "bad_value"
    except ValueError:
        return "bad_value"
    tournament.options = opts
    return "ok"


def _whole(amount: float) -> float | int:
    """An amount as the buttons show it: 24, not 24.0."""
    return int(amount) if float(amount).is_integer() else round(amount, 2)


def _wire(value: Any) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)
