"""What a finished game was allowed to show, rebuilt from the database's action log, to audit what Telegram got.

Replaying the log through the same renderer the worker uses gives, at every step, the board, the public event
lines and each seat's private panel. Two checks make the group texts trustworthy: the board rendered after
re-dealing everything hidden (`resample_hidden(state, None)`) is the same text, and the public lines rendered
from the public events alone are the same lines. Then every message Telegram received is explained: a group
message is a board or public lines or a public notice; a direct message is that seat's own panel, its private
lines, or a notice, and nothing else.
"""

from __future__ import annotations

import difflib
import random
import re
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from engine import get_game
from service import ratings
from service.play import ending, presenting
from service.play.move_messages import seat_name
from service.ratings.model import is_rated
from service.render import board_text, cards_text, i18n, narration  # noqa: F401  imported now, as the worker does at start
from service.render.ratings import changes_text
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow, RatingChange, Seat
from service.telegram.adapter import NO_RIGHTS_DEFAULT

NOTICE_PREFIXES = ("notice.", "lobby.reply.")
# the frame of a person's own messages: a question's header, clock and closing mark; the "since your last turn" header
PRIVATE_PREFIXES = ("ask.", "clock.left", "narr.since.")


@dataclass
class Rendered:
    kind: str
    seats: dict[str, int]  # telegram user id → seat
    boards: set[str] = field(default_factory=set)
    lines: set[str] = field(default_factory=set)
    private: dict[int, set[str]] = field(default_factory=dict)
    private_lines: dict[int, set[str]] = field(default_factory=dict)  # lines of questions and of one's own story
    leaks: list[str] = field(default_factory=list)
    moves: int = 0
    silenced: bool = False
    last_board: str = ""  # the board after the last move
    ratings: str = ""  # the ratings notice after the game, if it was rated
    closing: str = ""  # the closing message of the finished game

    def public_text(self, text: str) -> bool:
        if text in self.boards or unclocked(text) in self.boards or text == NO_RIGHTS_DEFAULT:
            return True
        return all(line in self.lines or notice(line) for line in text.split("\n"))

    def private_text(self, seat: int, text: str) -> bool:
        """The seat's own panel, private line or a notice; or a question or "since your last turn" message: each
        line one the seat was asked, a line of the story as the seat may read it, or the frame around them."""
        if text in self.private.get(seat, set()) or notice(text):
            return True
        own = self.private_lines.get(seat, set())
        return all(
            line in own or notice(line) or notice(line, PRIVATE_PREFIXES) or _answered(line)
            for line in text.split("\n")
        )

    def closest(self, seat: int, text: str) -> str:
        """The seat's rendered text nearest to `text`, to show what differs when an audit fails."""
        found = difflib.get_close_matches(text, list(self.private.get(seat, ())), n=1, cutoff=0)
        return found[0] if found else ""


def _answered(line: str) -> bool:
    """An answered question's mark, "✔ <label of the button tapped>": the label comes from that question's own
    buttons in the same direct chat (`service.play.asking.close`), so it tells the seat nothing new."""
    return line.startswith("✔ ") and "\n" not in line


def _templates(prefixes: tuple[str, ...]) -> list[re.Pattern[str]]:
    texts = []
    for lang in i18n.available_languages():
        catalog = i18n._catalog(lang)
        for message in catalog or []:
            if isinstance(message.id, str) and message.id.startswith(prefixes) and message.string:
                strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
                texts += [str(text) for text in strings if text]
    if prefixes == NOTICE_PREFIXES:
        texts += list(presenting.NOTICES.values())
    patterns = []
    for text in texts:
        parts = re.split(r"\{[a-z_]+\}", text)
        patterns.append(re.compile("^" + ".*".join(re.escape(p) for p in parts) + "$", re.S))
    return patterns


_TEMPLATES: dict[tuple[str, ...], list[re.Pattern[str]]] = {}


def unclocked(board: str) -> str:
    """A board without the time left under its title (`board_post.with_clock`): the clock is public, but the
    audit renders boards from the log alone, without the deadlines."""
    title, _, rest = board.partition("\n")
    clock, _, below = rest.partition("\n")
    return f"{title}\n{below}" if rest and notice(clock, ("clock.left",)) else board


def notice(text: str, prefixes: tuple[str, ...] = NOTICE_PREFIXES) -> bool:
    if prefixes not in _TEMPLATES:
        _TEMPLATES[prefixes] = _templates(prefixes)
    return any(p.match(text) for p in _TEMPLATES[prefixes])


def rendered(game_id: int) -> Rendered:
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        assert game is not None
        kind, config, seed, group_lang = game.kind, dict(game.config), game.seed, game.language
        seats = game_rows.seats_of(s, game_id)
        users = game_rows.seat_users(s, game_id)
        names = {seat.seat: seat_name(seat, users) for seat in seats}
        langs = {
            seat.seat: seat.language or (users[seat.seat].language if seat.seat in users else None) or group_lang
            for seat in seats
        }
        log = game_rows.action_log(s, game_id)
        by_user = {u.platform_id: seat for seat, u in users.items()}
    engine = get_game(kind)
    out = Rendered(kind, by_user)
    rng = random.Random(0)

    def present(state: Any, events: list[Any], seq: int) -> Any:
        return presenting.presentation(
            kind, state, events, game_id=game_id, seq=seq, group_lang=group_lang, seat_langs=langs, seat_names=names
        )

    def add(state: Any, events: list[Any], seq: int) -> None:
        pres = present(state, events, seq)
        out.boards.add(pres.board)
        out.last_board = pres.board
        out.silenced = out.silenced or bool(pres.silence)
        for line in pres.lines:
            out.lines.update(line.split("\n"))
        for seat, panel in pres.panels.items():
            out.private.setdefault(seat, set()).add(panel.text)
            out.private_lines.setdefault(seat, set()).update(panel.question.split("\n"))
        for seat, lines in pres.private_lines.items():
            out.private.setdefault(seat, set()).update(lines)
        redealt = present(engine.resample_hidden(state, None, rng), events, seq)
        if redealt.board != pres.board:
            out.leaks.append(f"seq {seq}: the board changes when hidden information is re-dealt")
        if present(state, [e for e in events if e.public], seq).lines != pres.lines:
            out.leaks.append(f"seq {seq}: private events changed the public lines")

    state = engine.new_game(config, seed)
    add(state, [], 0)
    for seq, (seat, code) in enumerate(log, 1):
        state, events = engine.apply_code(state, seat, code)
        add(state, events, seq)
    out.moves = len(log)
    for _, _, events in narration.moves(kind, config, seed, log):  # "since your last turn" tells these
        for seat in names:
            lines = narration.narrate(kind, events, langs[seat], names, seat)
            out.private_lines.setdefault(seat, set()).update(part for line in lines for part in line.split("\n"))
    result = engine.result(state)
    if result is not None:  # the closing message: the result, loyalties and numbers, as public as the final board
        out.closing = ending.closing_text(kind, state, narration.moves(kind, config, seed, log), group_lang, names)
        out.boards.add(out.closing)
        _add_ratings(out, game_id, result, users, group_lang)
    return out


def _add_ratings(out: Rendered, game_id: int, result: dict[str, Any], users: dict[int, Any], lang: str) -> None:
    """The ratings notice that follows a rated game: public once the result is, if each person's change follows
    their side in the result (won or lost) and names nobody who did not play."""
    with session_scope() as s:
        rows = s.scalars(select(RatingChange).where(RatingChange.game_id == game_id)).all()
    if not rows:
        return
    winner, side = ratings.sides_of(result)
    seat_of = {user.id: seat for seat, user in users.items()}
    changes = []
    for row in rows:
        if row.user_id not in seat_of or (side[seat_of[row.user_id]] == winner) != row.won:
            out.leaks.append(f"rating change of user {row.user_id} does not follow the result")
            continue
        user = users[seat_of[row.user_id]]
        changes.append(ratings.Change(row.user_id, user.name or user.platform_id, row.won, row.before, row.after))
    out.ratings = changes_text(lang, out.kind, changes)
    out.boards.add(out.ratings)


def rated(game_id: int) -> bool:
    """Whether the finished game's rating is written (its notice is then in the outbox)."""
    with session_scope() as s:
        return s.scalar(select(RatingChange.game_id).where(RatingChange.game_id == game_id).limit(1)) is not None


def rating_settled(game_id: int) -> bool:
    """Whether a finished game's rating is as it will stay: written, or a game the ratings leave unrated (a card
    game whose Traitor card ends set aside in the middle, e.g. by Vivien's swap, has one side: a seeded table's
    random players meet that in some runs only)."""
    if rated(game_id):
        return True
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        people = dict(s.execute(select(Seat.seat, Seat.user_id).where(Seat.game_id == game_id)).all())
    if game.status != "finished":
        return False
    sides = ratings.sides_of(game.result)
    return sides is None or not is_rated(sides[1], [people.get(seat) for seat in range(len(sides[1]))])
