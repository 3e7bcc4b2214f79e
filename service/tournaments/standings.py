"""The standings: each player's points, merit and opponents' score from the recorded tables, ranked. Pure.

Ranked by, in order:
1. **points** (`scoring`: 1 for a side that won, 0 for one that lost, ½ for no winner or a void table);
2. **merit**, the side-corrected result (`scoring`): among equal points, who won on the harder sides;
3. **opponents' score** (Buchholz for tables of several): for each table a player sat at, the mean of the points
   the other people there have now, summed over their tables; a mean, not a sum, so that a player seated at a
   table of five is not favoured over one at a table of three;
4. the **lot**: a number drawn for each player from the tournament's seed (`lot`), so that ties are broken the
   same way in every round and on every machine, and a late registrant's lot does not move anyone else's.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """One person's recorded result at one table (`table`: the table's id, unique in the tournament)."""

    table: int
    player: int
    points: float
    merit: float


@dataclass(frozen=True)
class Standing:
    player: int
    points: float
    merit: float
    opponents: float
    tables: int  # how many tables they have played
    withdrawn: bool


def lot(seed: int, player: int) -> int:
    """The player's draw in the tournament of `seed`: the lower ranks first among otherwise equal players."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{player}".encode()).digest()[:8], "big")


def standings(
    players: Iterable[int], results: Iterable[Result], seed: int, withdrawn: Collection[int] = ()
) -> list[Standing]:
    """Every player (withdrawn ones too, marked), best first."""
    players = list(players)
    points: dict[int, float] = defaultdict(float)
    merit: dict[int, float] = defaultdict(float)
    tables: dict[int, list[int]] = defaultdict(list)
    for result in results:
        points[result.player] += result.points
        merit[result.player] += result.merit
        tables[result.table].append(result.player)
    opponents: dict[int, float] = defaultdict(float)
    for seated in tables.values():
        for player in seated:
            others = [points[other] for other in seated if other != player]
            opponents[player] += sum(others) / len(others) if others else 0.0
    played = {player: sum(player in seated for seated in tables.values()) for player in players}
    rows = [
        Standing(p, points[p], round(merit[p], 9), round(opponents[p], 9), played[p], p in withdrawn) for p in players
    ]
    return sorted(rows, key=lambda row: (-row.points, -row.merit, -row.opponents, lot(seed, row.player)))
