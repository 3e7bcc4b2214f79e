"""What one table's game gives each person seated at it: points, and merit (the side-corrected result). Pure.

**Points** are by side result: a person whose side won scores 1, one whose side lost 0 (the Traitor wins with the
evil side; in a game without a Traitor, every seat is loyal and all win or all lose together). A game that ended
without a winner (the card game's turn cap) gives ½ to each, and so does a void table (its game aborted, e.g. by
an admin): nobody's result is known, and nobody is punished for it.

**Merit** is the rating's side correction applied to the result: the result minus the chance that the person's
side wins in that setting, as `service.ratings` learns it from the rated games (the loyal side's win rate per game
kind, player count and variant set: `ratings.side_rate`). A Traitor who wins where the loyal side wins 60 % of the
time earns 1 − 0.4 = +0.6, a loyal winner there +0.4, a loyal loser −0.6; no winner and void tables earn 0. It is
the first tiebreak of the standings (`standings`): among equal points, who won the harder sides ranks first. Skill
is left out on purpose (unlike a rating change): a tiebreak should not favour whoever was rated higher before.

Bots are not scored: only people are in `people`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

WIN, LOSS, NO_WINNER = 1.0, 0.0, 0.5
SIDES = ("loyal", "evil")


@dataclass(frozen=True)
class SeatScore:
    """One person's result at one table: their side (None when unknown: a void table), points and merit."""

    player: int
    side: str | None
    points: float
    merit: float


def score_table(
    result: Mapping | None, people: Mapping[int, int], loyal_rate: float, void: bool = False
) -> list[SeatScore]:
    """Each person's score at a table whose game ended with `result` (the engine's: `winner` "loyal", "evil" or
    None, `loyalty` per seat, "traitor" on the evil side), `people` mapping seat → player, `loyal_rate` the loyal
    side's learned win rate in the game's setting. `void`: the game was aborted."""
    result = result or {}
    loyalty = list(result.get("loyalty") or [])
    winner = result.get("winner")
    scores = []
    for seat, player in sorted(people.items()):
        side = None if void or seat >= len(loyalty) else ("evil" if loyalty[seat] == "traitor" else "loyal")
        if side is None or winner not in SIDES:
            scores.append(SeatScore(player, side, NO_WINNER, 0.0))
            continue
        chance = loyal_rate if side == "loyal" else 1.0 - loyal_rate
        won = side == winner
        scores.append(SeatScore(player, side, WIN if won else LOSS, float(won) - chance))
    return scores
