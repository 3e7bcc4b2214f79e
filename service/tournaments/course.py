"""A tournament's course, pure: who may register and when, who plays the next round and at which seat, and when
the tournament is over.

- **Registration** is open until the start, and after it until round 2 is seated (late registration): a late
  registrant plays from round 2 on, with no points for round 1 (a round missed, not lost at a table).
- **Withdrawal** before the start takes the registration back; after it, the player is not seated again from the
  next round on, and keeps their results in the standings (marked). A table they sit at goes on.
- **Every round seats every active player exactly once** (no byes): the players are split into tables of the
  allowed sizes (`split.table_sizes`), so everyone's table count grows by one each round they are in. When no split
  exists for those who remain (too few after withdrawals), the tournament ends with the standings it has.
- **How many rounds**: a fixed number; or `AUTO`: Swiss plays until one player alone has the most points (after
  `AUTO_MIN` rounds at least), round-robin until every two active players have met; both at most `AUTO_CAP`.
- **Seats** at a table are in an order drawn from the tournament's seed, round and table (who starts is luck).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from service.tournaments.pairing import Meetings, pair
from service.tournaments.split import table_sizes
from service.tournaments.standings import Standing

AUTO = 0
AUTO_MIN = 2
AUTO_CAP = 7
SWISS, ROUND_ROBIN = "swiss", "rr"


@dataclass(frozen=True)
class Format:
    """How a tournament seats its rounds: table sizes `low`..`high`, `rounds` (or AUTO), Swiss or round-robin."""

    low: int
    high: int
    rounds: int = AUTO
    pairing: str = SWISS


@dataclass(frozen=True)
class Entrant:
    """A registration: the first round the player is seated in, and the last round they played before withdrawing."""

    player: int
    first_round: int = 1
    withdrawn_after: int | None = None


def may_register(status: str, current_round: int) -> bool:
    """Before the start, or after it until round 2 is seated."""
    return status == "registration" or (status == "running" and current_round == 1)


def first_round_for(status: str, current_round: int) -> int:
    """The round a player registering now is first seated in."""
    return 1 if status == "registration" else current_round + 1


def active(entrants: Collection[Entrant], number: int) -> list[int]:
    """The players seated in round `number`: registered for it and not withdrawn before it."""
    return sorted(
        e.player
        for e in entrants
        if e.first_round <= number and (e.withdrawn_after is None or e.withdrawn_after >= number)
    )


def over(fmt: Format, played: int, ranked: Sequence[Standing], playing: Collection[int], met: Meetings) -> str | None:
    """Why the tournament ends after `played` rounds ("rounds", "winner", "all_met", "too_few"), or None to go on.
    `ranked`: the standings now; `playing`: who would play the next round; `met`: every meeting so far."""
    if fmt.rounds != AUTO and played >= fmt.rounds:
        return "rounds"
    if fmt.rounds == AUTO:
        if fmt.pairing == SWISS and played >= AUTO_MIN and _sole_leader(ranked):
            return "winner"
        if fmt.pairing == ROUND_ROBIN and all(met.get(frozenset(p), 0) for p in combinations(playing, 2)):
            return "all_met"
        if played >= AUTO_CAP:
            return "rounds"
    if table_sizes(len(playing), fmt.low, fmt.high) is None:
        return "too_few"
    return None


def seat_round(
    fmt: Format, number: int, ranked: Sequence[int], scores: Mapping[int, float], met: Meetings, seed: int
) -> list[list[int]] | None:
    """Round `number`'s tables for the `ranked` players who play it (best first), each in seat order; None when
    they cannot be split into tables of the allowed sizes."""
    sizes = table_sizes(len(ranked), fmt.low, fmt.high)
    if sizes is None:
        return None
    tables = pair(ranked, scores, met, sizes, by_score=fmt.pairing == SWISS)
    seated = []
    for index, table in enumerate(tables, start=1):
        order = list(table)
        random.Random(f"{seed}:{number}:{index}").shuffle(order)
        seated.append(order)
    return seated


def _sole_leader(ranked: Sequence[Standing]) -> bool:
    return len(ranked) == 1 or (len(ranked) > 1 and ranked[0].points > ranked[1].points)
