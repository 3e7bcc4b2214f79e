"""A message edited several times while it waits in the outbox goes out once, with its newest content."""

from __future__ import annotations

from typing import Any


def newest_edits(rows: list[Any], superseded: list[int]) -> list[Any]:
    """Of several edits of one message in `rows`, send only the newest, in the place of the first (noting the older
    ones): a message that changes while it waits (the pinned board behind a flood of moves' messages) shows its
    newest content when its first turn comes, instead of moving to the end of the queue each time it changes."""
    newest = {row.ref: row for row in rows if row.op == "upsert"}
    kept, placed = [], set()
    for row in rows:
        if row.op != "upsert":
            kept.append(row)
            continue
        if row.ref not in placed:
            placed.add(row.ref)
            kept.append(newest[row.ref])
        if row is not newest[row.ref]:
            superseded.append(row.id)
    return kept
