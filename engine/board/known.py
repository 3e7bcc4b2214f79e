"""What each seat knows of the other seats' hands: the white cards it saw go into a hand, less those it saw leave.

`s.known[a][b]` is the multiset (a list) of white cards seat `a` knows to be in seat `b`'s hand: cards Arthur's
exchange or a Messenger passed between them, and cards taken from a face-up split (known to everybody). It is kept
a sub-multiset of `s.hands[b]`: a card leaving `b`'s hand in view of `a` (played face up, paid, given to `a`) is
taken off; one leaving unseen (a discard of choice, a random steal, a card given to somebody else) may be any of
them, so `a` forgets one copy of each kind it knew there. `resample_hidden` keeps these cards where they are and
the seat view shows them (`known_hands`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable

from engine.board.state import BoardState

EVERYONE = None  # `seen_by` for a card shown to the whole table


def gained(s: BoardState, holder: int, cards: Iterable[str], knowers: Iterable[int] | None) -> None:
    """`holder` took `cards` in view of `knowers` (EVERYONE: the whole table)."""
    cards = list(cards)
    for a in range(s.n) if knowers is None else knowers:
        if a != holder:
            s.known[a][holder].extend(cards)


def lost(s: BoardState, holder: int, card: str, seen_by: Collection[int] | None) -> None:
    """`card` left `holder`'s hand, seen by `seen_by` (EVERYONE: the whole table); the others saw only a card go."""
    for a in range(s.n):
        row = s.known[a][holder]
        if not row or a == holder:
            continue
        if seen_by is None or a in seen_by:
            if card in row:
                row.remove(card)
        else:
            s.known[a][holder] = list((Counter(row) - Counter(set(row))).elements())


def cleared(s: BoardState, holder: int) -> None:
    """`holder`'s whole hand was discarded in view of all (death, an unmasked Traitor)."""
    for a in range(s.n):
        s.known[a][holder] = []


def add_seat(s: BoardState) -> None:
    """A player joined as seat `s.n - 1`: nobody knows anything of his hand, he knows nothing of theirs."""
    for row in s.known:
        row.append([])
    s.known.append([[] for _ in range(s.n)])


def to_keep(s: BoardState, seat: int | None, holder: int) -> Counter:
    """The cards of `holder`'s hand that `seat` knows (for nobody in particular: those every other seat knows)."""
    if seat is not None:
        return Counter(s.known[seat][holder])
    rows = [Counter(s.known[a][holder]) for a in range(s.n) if a != holder]
    common = rows[0] if rows else Counter()
    for row in rows[1:]:
        common &= row
    return common


def clip(s: BoardState) -> None:
    """After hands were re-dealt: what any seat knows is cut down to what the holder's new hand really has."""
    for rows in s.known:
        for holder, row in enumerate(rows):
            if row:
                rows[holder] = list((Counter(row) & Counter(s.hands[holder])).elements())
