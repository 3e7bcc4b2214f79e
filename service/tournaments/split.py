"""How many tables, and of which sizes, seat a round's players at tables of `low` to `high` seats. Pure."""

from __future__ import annotations


def table_sizes(players: int, low: int, high: int) -> list[int] | None:
    """As few tables as the range allows, their sizes as even as possible (they differ by one at most), larger
    first: 13 players at 3–5 seats → [5, 4, 4]; 7 at 3–4 → [4, 3]; 9 at 3 → [3, 3, 3]. None when no split exists
    (2 players at 3–5, 6 at 4–5): `k` tables seat between `k·low` and `k·high` players, and the fewest tables that
    hold everyone, `ceil(players / high)`, is the only number that can reach down to the players, since more
    tables need more players at the minimum."""
    if players < 1 or not 1 <= low <= high:
        return None
    tables = -(-players // high)
    if tables * low > players:
        return None
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)
