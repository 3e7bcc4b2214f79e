"""Seating a round: Swiss pairing for multi-player tables, as a pure, deterministic function. No I/O, no clock.

The players come ranked (the standings' order, ties broken by the tournament's seeded lot: `standings.lot`), with
their scores and the history of who sat with whom. The tables' sizes come from `split.table_sizes`. Among the ways
to split the players into tables of those sizes, `pair` looks for the best by three criteria in order:

1. **repeats**: the number of earlier meetings of players seated together (a pair that met twice counts two);
   avoiding a repeat comes before anything else, as in chess Swiss;
2. **score spread** (Swiss only): the sum over tables of the highest minus the lowest score, so that players with
   similar scores meet;
3. **rank distance**: the sum over tables of the rank of the last minus the rank of the first, so that neighbours
   in the standings sit together (in round one, where all score zero, the lot's order: tables of the shuffle).

The search is a depth-first branch and bound: the best-ranked player not yet seated opens the next table (of each
size still needed), and its other seats are filled in rank order, trying first the candidates who add the fewest
repeats; a branch is cut when what it has already cost (a lower bound: every criterion only grows as a table
fills) is no better than the best split found. The first split found is the greedy one; the search then improves
on it until it has examined `budget` seatings (a count, not a time, so the result is the same on any machine).
Rounds of a dozen players or so are searched to the end (12 at 4 seats: about 13,000 seatings; 13 at 3–5: about
125,000), so no repeat remains where one is avoidable. In larger rounds the search is cut short, mostly changing
its last tables; then exchanges of two players between tables, while one lowers the cost, repair what it left (40
players at tables of five, with a history of earlier rounds, end without repeats; the search alone left two).

Round-robin (`by_score=False`) ignores the scores: each round seats together those who have met least.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

Meetings = Mapping[frozenset[int], int]
BUDGET = 150_000  # seatings examined at most, once a split is found (about half a second)
MAX_PASSES = 50  # exchanges tried after the search, at most


def meetings(tables: Iterable[Sequence[int]]) -> Counter[frozenset[int]]:
    """How often each pair of players sat at the same table, over these tables."""
    met: Counter[frozenset[int]] = Counter()
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                met[frozenset((a, b))] += 1
    return met


def repeats(tables: Iterable[Sequence[int]], met: Meetings) -> int:
    """The earlier meetings of players seated together at these tables (criterion 1)."""
    return sum(met.get(pair, 0) for pair in meetings(tables))


def pair(
    ranked: Sequence[int],
    scores: Mapping[int, float],
    met: Meetings,
    sizes: Sequence[int],
    by_score: bool = True,
    budget: int = BUDGET,
) -> list[list[int]]:
    """The round's tables (each a list of players in rank order, the best-ranked table first) for `ranked`
    players at tables of `sizes`, which must add up to their number."""
    if sum(sizes) != len(ranked) or len(set(ranked)) != len(ranked):
        raise ValueError("the table sizes must seat each player once")
    return _Search(ranked, scores, met, by_score, budget).run(sizes)


class _Search:
    def __init__(
        self, ranked: Sequence[int], scores: Mapping[int, float], met: Meetings, by_score: bool, budget: int
    ) -> None:
        self.players = list(ranked)
        n = len(self.players)
        self.score = [float(scores.get(p, 0.0)) if by_score else 0.0 for p in self.players]
        self.met = [[met.get(frozenset((a, b)), 0) if a != b else 0 for b in self.players] for a in self.players]
        self.seated = [False] * n
        self.tables: list[list[int]] = []
        self.best: tuple[tuple[float, float, int], list[list[int]]] | None = None
        self.budget = budget
        self.examined = 0

    def run(self, sizes: Sequence[int]) -> list[list[int]]:
        self._open(Counter(sizes), (0, 0.0, 0))
        assert self.best is not None  # the greedy split is always found
        tables = self._swapped(self.best[1])
        return [[self.players[i] for i in table] for table in sorted(tables)]

    def _swapped(self, tables: list[list[int]]) -> list[list[int]]:
        """The split improved by exchanging two players of different tables while an exchange lowers its cost
        (the first such exchange in rank order, each pass): what a search cut short by its budget left undone
        is mostly at its last tables, which an exchange with an earlier one repairs."""
        costs = [self._table_cost(t) for t in tables]
        for _ in range(MAX_PASSES):
            if not self._exchange_once(tables, costs):
                break
        return tables

    def _exchange_once(self, tables: list[list[int]], costs: list[tuple[int, float, int]]) -> bool:
        for a, first in enumerate(tables):
            for b in range(a + 1, len(tables)):
                second = tables[b]
                for i in first:
                    for j in second:
                        one = sorted([m for m in first if m != i] + [j])
                        two = sorted([m for m in second if m != j] + [i])
                        new_one, new_two = self._table_cost(one), self._table_cost(two)
                        if _plus(new_one, new_two) < _plus(costs[a], costs[b]):
                            tables[a], tables[b], costs[a], costs[b] = one, two, new_one, new_two
                            return True
        return False

    def _table_cost(self, members: list[int]) -> tuple[int, float, int]:
        added = sum(self.met[a][b] for n, a in enumerate(members) for b in members[n + 1 :])
        return self._with_table((0, 0.0, 0), members, added)

    def _out_of_budget(self) -> bool:
        return self.best is not None and self.examined > self.budget

    def _open(self, sizes: Counter[int], cost: tuple[int, float, int]) -> None:
        """Open the next table with the best-ranked player not yet seated, at each size still needed."""
        head = next((i for i, done in enumerate(self.seated) if not done), None)
        if head is None:
            if self.best is None or cost < self.best[0]:
                self.best = (cost, [list(table) for table in self.tables])
            return
        for size in sorted((size for size, left in sizes.items() if left), reverse=True):
            sizes[size] -= 1
            self.seated[head] = True
            self._fill([head], size, sizes, cost)
            self.seated[head] = False
            sizes[size] += 1
            if self._out_of_budget():
                return

    def _fill(self, members: list[int], size: int, sizes: Counter[int], cost: tuple[int, float, int]) -> None:
        """Seat the table's next member (members are chosen in rank order, so each set is tried once)."""
        if len(members) == size:
            self.tables.append(members)
            self._open(sizes, self._with_table(cost, members, 0))
            self.tables.pop()
            return
        free = [j for j in range(members[-1] + 1, len(self.players)) if not self.seated[j]]
        free = free[: len(free) - (size - len(members)) + 1]  # leave enough players after j to fill the table
        added = {j: sum(self.met[j][m] for m in members) for j in free}
        for j in sorted(free, key=lambda j: (added[j], j)):
            self.examined += 1
            bound = self._with_table(cost, [*members, j], added[j])
            if self.best is not None and bound >= self.best[0]:
                continue
            self.seated[j] = True
            self._fill([*members, j], size, sizes, (cost[0] + added[j], cost[1], cost[2]))
            self.seated[j] = False
            if self._out_of_budget():
                return

    def _with_table(self, cost: tuple[int, float, int], members: list[int], added: int) -> tuple[int, float, int]:
        """`cost` with a table of `members` (in rank order) counted: its spread and distance only grow as it fills,
        so for a table not yet full this is a lower bound."""
        scores = [self.score[m] for m in members]
        return cost[0] + added, cost[1] + max(scores) - min(scores), cost[2] + members[-1] - members[0]


def _plus(one: tuple[int, float, int], two: tuple[int, float, int]) -> tuple[int, float, int]:
    return one[0] + two[0], one[1] + two[1], one[2] + two[2]
