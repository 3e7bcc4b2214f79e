"""Mentions that notify: a pill (a matrix.to link over the player's name) in `formatted_body`, and the user ids in
`m.mentions`, which is what makes clients notify (intentional mentions, Matrix 1.7). Pure functions.

The name is found in the text as the backbone wrote it; a name not in the text gets no pill, but the user is still
in `m.mentions`, so the message reads right and still notifies.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

HTML = "org.matrix.custom.html"


def pill(user_id: str, name: str) -> str:
    return f'<a href="https://matrix.to/#/{html.escape(user_id)}">{html.escape(name)}</a>'


def mention_content(body: str, names: Mapping[str, str]) -> dict[str, Any]:
    """The content keys to add to a message with plain `body` that mentions `names` (user id → name as written):
    each user's name becomes a pill at its first occurrence not already taken; the rest of the body is escaped."""
    taken: list[tuple[int, int, str]] = []
    for user_id, name in names.items():
        start = body.find(name) if name else -1
        while start >= 0 and any(start < end and start + len(name) > begin for begin, end, _ in taken):
            start = body.find(name, start + 1)
        if start >= 0:
            taken.append((start, start + len(name), user_id))
    parts, at = [], 0
    for begin, end, user_id in sorted(taken):
        parts += [html.escape(body[at:begin]), pill(user_id, body[begin:end])]
        at = end
    parts.append(html.escape(body[at:]))
    return {
        "format": HTML,
        "formatted_body": "".join(parts).replace("\n", "<br>"),
        "m.mentions": {"user_ids": list(names)},
    }
