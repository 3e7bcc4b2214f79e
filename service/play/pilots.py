"""Who the autopilot plays for: the names the seats, the options and the moves share (`service.play.autopilot` makes
the changes).

A person's seat is handed to the autopilot (`Seat.bot` = AUTOPILOT, `Seat.pilot` = why) when its owner leaves, has
timed out IDLE_LIMIT times in a row, is away past the game's limit, or an admin says so. The autopilot is the timeout
policy (`engine timeout_action`: the safe default in a response window, else the heuristic bot's move as if loyal),
so it plays a seat without regard to its loyalty and reveals nothing. Its seats move at once, as bots do
(`options["piloted"]` beside `options["bot_seats"]`); they have no deadline.
"""

from __future__ import annotations

from typing import Any

AUTOPILOT = "autopilot"
LEFT, IDLE, AWAY, FORCED, REPLACED = "left", "idle", "away", "forced", "replaced"
RECLAIMABLE = (IDLE, AWAY)  # the owner's next tap takes the seat back
WANTED = (LEFT, IDLE, FORCED, REPLACED)  # a substitute may take the seat
DISMISSED = (LEFT, REPLACED)  # the owner loses the seat at once
IDLE_LIMIT = 2  # timeouts in a row that hand a seat to the autopilot (lobby option "idle")
# what `/leave` mid-game does (lobby option "leaving", the board game's): the autopilot plays the seat, or the
# tabletop rule B-LEAVE, leaving is dying (`person_move.leave_dying`)
LEAVING = ("autopilot", "die")
AWAY_LIMIT_HOURS = 72.0  # how far a vacation may push one deadline in a game (lobby option "away")


# the game options a lobby or an admin sets in units: (game option key, seconds per unit, lowest, highest)
LIMITS = {
    "turn": ("turn_deadline", 3600, 0.001, 10_000),
    "response": ("response_deadline", 60, 0.1, 100_000),
    "idle": ("idle_limit", 1, 1, 20),
    "away": ("away_limit", 3600, 0, 24 * 60),
}


def parse_limit(option: str, text: str) -> float | None:
    """The option's value in the game's units (seconds, or a count for "idle"), or None if out of its range."""
    _, unit, low, high = LIMITS[option]
    try:
        amount = float(text)
    except ValueError:
        return None
    if not (low <= amount <= high):  # also refuses nan and inf
        return None
    return int(amount) if option == "idle" else amount * unit


def moving_seats(options: dict[str, Any] | None) -> set[int]:
    """The seats whose moves are handed on at once: bots and the autopilot's."""
    opts = options or {}
    return set(opts.get("bot_seats") or ()) | set(opts.get("piloted") or ())


def idle_limit(options: dict[str, Any] | None) -> int:
    return int((options or {}).get("idle_limit") or IDLE_LIMIT)


def away_limit(options: dict[str, Any] | None) -> float:
    """Seconds a vacation may add to one deadline of the game."""
    return float((options or {}).get("away_limit") or AWAY_LIMIT_HOURS * 3600)


def leaving_dies(kind: str, options: dict[str, Any] | None) -> bool:
    """Whether `/leave` kills the knight (the board game's tabletop rule, chosen in the lobby) instead of handing
    the seat to the autopilot."""
    return kind == "board" and (options or {}).get("leaving") == "die"
