"""The game told from its log: "since your last turn", `/log` pages, and after the end every seat's secrets.

A game's log is its actions; its events come from replaying them (`moves`), so nothing about the story is stored
twice. A *move* is `(seq, seat, events)`: seq 0 is the setup (seat None), then one per action, seq counting from 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine import get_game
from engine.core.events import Event
from service.render.i18n import normalize, t, tn
from service.render.narration.messages import TELEGRAM_LIMIT, pack, size
from service.render.narration.story import narrate

Move = tuple[int, int | None, list[Event]]
LOG_PAGE_LINES = 20


def moves(game: str, config: dict[str, Any], seed: int, codes: Iterable[tuple[int, str]]) -> list[Move]:
    """Replay a game's record (config, seed, ordered `(seat, code)` actions) into its moves with their events."""
    engine = get_game(game)
    start = getattr(engine, "start", None)  # the board game's setup deals hands and loyalty: events of their own
    state, events = start(config, seed) if start else (engine.new_game(config, seed), [])
    out: list[Move] = [(0, None, list(events))]
    for seq, (seat, code) in enumerate(codes, 1):
        state, events = engine.apply_code(state, seat, code)
        out.append((seq, seat, list(events)))
    return out


def since_seat(log: list[Move], seat: int) -> list[Move]:
    """The moves after `seat`'s last own decision (all of them if it never decided)."""
    last = max((i for i, (_, who, _) in enumerate(log) if who == seat), default=-1)
    return log[last + 1:]


def since_last_turn(
    game: str, log: list[Move], viewer: int, lang: str, seat_names: dict[int, str], limit: int = TELEGRAM_LIMIT
) -> str:
    """One message for `viewer`'s direct chat: what happened since he last decided, in his own view, newest last.
    `log` is what the caller read from the game's log (whole, or already cut with `since_seat`). Too long for
    one message: the oldest lines give way to a count of them."""
    lang = normalize(lang)
    lines = [line for _, _, ev in since_seat(log, viewer) for line in narrate(game, ev, lang, seat_names, viewer)]
    if not lines:
        return t(lang, "narr.since.nothing")
    header = t(lang, "narr.since.header")
    more = t(lang, "narr.since.more", lines=tn(lang, "narr.n.lines", len(lines)))
    room = limit - size(header) - size(more) - 2
    kept: list[str] = []
    for line in reversed(lines):  # the newest lines matter most: keep them, drop from the oldest
        room -= size(line) + 1
        if room < 0:
            break
        kept.append(line)
    if not kept:  # a single line longer than a message: its end
        return "\n".join([header, pack(lines[-1:], limit - size(header) - 1)[-1]])
    kept.reverse()
    dropped = len(lines) - len(kept)
    if dropped:
        kept.insert(0, t(lang, "narr.since.more", lines=tn(lang, "narr.n.lines", dropped)))
    return "\n".join([header, *kept])


def log_lines(
    game: str,
    log: list[Move],
    lang: str,
    seat_names: dict[int, str],
    viewer: int | None = None,
    *,
    hide_threat: bool = False,
) -> list[str]:
    """The whole story as `viewer` may read it (None: the group), oldest first. While a card game runs, pass
    `hide_threat=True`: the Threat cards' history is for memory, not for scrolling back."""
    return [
        line for _, _, events in log
        for line in narrate(game, events, lang, seat_names, viewer, hide_threat=hide_threat)
    ]


def reveal_lines(game: str, log: list[Move], lang: str, seat_names: dict[int, str]) -> list[str]:
    """After the end: every move's public lines, then each seat's own secrets of that move, marked with its name."""
    lang = normalize(lang)
    out: list[str] = []
    for _, _, events in log:
        out += narrate(game, events, lang, seat_names)
        for seat in sorted(seat_names):
            for line in narrate(game, events, lang, seat_names, seat, own_only=True):
                out.append(t(lang, "narr.log.secret", name=seat_names[seat], line=line))
    return out


@dataclass(frozen=True)
class LogPage:
    """One page of a log: its messages (one unless a page's lines overflow a message), its number and the count
    of pages; the caller makes the page buttons (older: `page - 1`, newer: `page + 1`)."""

    messages: list[str]
    page: int
    pages: int


def log_page(
    lines: list[str], lang: str, page: int | None = None, per_page: int = LOG_PAGE_LINES, limit: int = TELEGRAM_LIMIT
) -> LogPage:
    """Page `page` of `lines` (1 = the oldest; None or out of range: the newest). Pages are cut from the end, so the
    newest page is always full and the oldest holds the remainder."""
    lang = normalize(lang)
    if not lines:
        return LogPage([t(lang, "narr.log.empty")], 1, 1)
    pages = math.ceil(len(lines) / per_page)
    page = pages if page is None or not 1 <= page <= pages else page
    end = len(lines) - (pages - page) * per_page
    chunk = lines[max(0, end - per_page):end]
    header = t(lang, "narr.log.header", page=page, pages=pages)
    return LogPage(pack(chunk, limit, header=header), page, pages)


def log_file(lines: list[str]) -> bytes:
    """The log as a UTF-8 text file for an attachment."""
    return ("\n".join(lines) + "\n").encode("utf-8")
