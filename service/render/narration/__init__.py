"""The narrated story of a game: pure functions from engine events (and the action log they replay from) to text.

What the move pipeline calls:
- `narrate(game, events, lang, seat_names, viewer=None)`: one move's lines, for the group (public events only)
  or for a seat (its own private events too); `pack(lines)` joins them into messages within Telegram's limit.
- `moves(game, config, seed, codes)`: a game's log replayed into `(seq, seat, events)` moves, for the rest.
- `since_last_turn(game, log, seat, lang, seat_names)`: the direct-chat message before a seat's decision.
- `log_lines(...)` and `log_page(lines, lang, page)`: `/log`, paged, newest last; `reveal_lines(...)` after the end
  (every seat's secrets shown) and `log_file(lines)` for an attachment.
- `game_stats(game, log)` and `final_summary(game, result, public_view, seat_names, stats, lang)`: the ending.
- `card_text(query, lang)`: `/card NAME` in any of the six languages.

Catalogue ids: `narr.board.<kind>`, `narr.cards.<kind>` (public events), `narr.<game>.own.<kind>` (a seat's own
private events), `narr.<game>.<kind>.<variant>`, `narr.<game>.part.<kind>` (what a cause brought about),
`narr.n.*` (counted nouns), `narr.since.*`, `narr.log.*`, `narr.end.*`, `narr.card.*`, `cardtext.<game>.<text>`.
"""

from __future__ import annotations

from service.render.narration.cardbook import card_text, find
from service.render.narration.history import (
    LogPage,
    Move,
    log_file,
    log_lines,
    log_page,
    moves,
    reveal_lines,
    since_last_turn,
    since_seat,
)
from service.render.narration.messages import TELEGRAM_LIMIT, pack
from service.render.narration.stats import GameStats, SeatStats, game_stats
from service.render.narration.story import narrate
from service.render.narration.summary import final_summary

__all__ = [
    "TELEGRAM_LIMIT", "GameStats", "LogPage", "Move", "SeatStats", "card_text", "final_summary", "find", "game_stats",
    "log_file", "log_lines", "log_page", "moves", "narrate", "pack", "reveal_lines", "since_last_turn", "since_seat",
]
