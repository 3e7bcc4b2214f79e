"""Reading a group's story back: each move's narrated lines, whole and in order, in the messages as last edited."""

from __future__ import annotations


def told_in_order(told: list[list[str]], texts: list[str]) -> list[list[str]]:
    """The moves whose narrated lines are not found whole, in order, in the messages `texts` (as last edited): each
    move's lines as consecutive whole lines of one message, after the previous move's (a bot's consecutive moves
    share a message, `service.delivery.gather`). Returns the moves not found."""
    shown = [text.split("\n") for text in texts]
    at, after = 0, 0  # the message, and the line in it, where the previous move ended
    missing = []
    for lines in told:
        block = "\n".join(lines).split("\n") if lines else []
        if not block:
            continue
        found = None
        for i in range(at, len(shown)):
            start = after if i == at else 0
            found = next(
                (
                    (i, j + len(block))
                    for j in range(start, len(shown[i]) - len(block) + 1)
                    if shown[i][j : j + len(block)] == block
                ),
                None,
            )
            if found is not None:
                break
        if found is None:
            missing.append(lines)
        else:
            at, after = found
    return missing
