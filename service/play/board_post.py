"""The group's pinned board: one message edited in place, a picture with the text board as its caption when the
game shows pictures, else the text alone.

A caption holds at most 1024 characters on Telegram (counted in UTF-16 units, the strictest of the platforms). A
text board longer than that is cut at a whole line in the caption and also kept whole in a text message of its
own beside the picture, edited in place while the board stays that long. (The longest boards measured, seven
seats in each of the six languages, take 833 units: the case is a safety net.) Nothing here reads the database:
a bot's move on a cached table has no connection (`service.play.bot_move`).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from service.render import days as days_text
from service.render.clock import board_left
from service.render.narration.messages import size
from service.store import outbox
from service.store.models import Chat, GameRow

CAPTION_LIMIT = 1024
MORE = "…"


def with_clock(game: GameRow, text: str, seconds: float | None) -> str:
    """The board as the group sees it: marked when paused (no clock then), else with the time left for the
    current decision under its title when a person is asked (`seconds`: the shortest of their clocks). The figure
    is coarse (`clock.board_left`): the board is edited in place, and a clock that changed every minute would
    spend the group's edits (`service.play.board_clock`)."""
    if game.paused_at:
        return days_text.paused_board(game.language, text)
    if seconds is None:
        return text
    title, _, rest = text.partition("\n")
    clock = board_left(game.language, max(0.0, seconds))
    return f"{title}\n{clock}\n{rest}" if rest else f"{title}\n{clock}"


def post(s: Session, game: GameRow, chat: Chat, text: str, image: bytes | None) -> bool:
    """Queue the board's edit if what it shows changed (`games.board_digest`); True if queued."""
    key = outbox.digest({"text": text}, image)
    if key == game.board_digest:
        return False
    game.board_digest = key
    group = (chat.platform, chat.platform_id)
    ref = f"board:{game.id}"
    if image is None:
        outbox.upsert(s, *group, ref, {"text": text}, is_group=chat.is_group)
        return True
    fits = size(text) <= CAPTION_LIMIT
    shown = text if fits else caption(text, CAPTION_LIMIT)
    outbox.upsert(s, *group, ref, {"text": shown}, is_group=chat.is_group, photo=image)
    if not fits:
        outbox.upsert(s, *group, f"boardtext:{game.id}", {"text": text}, is_group=chat.is_group)
    return True


def caption(text: str, limit: int) -> str:
    """The text's first whole lines within `limit`, with a mark that more follows."""
    kept: list[str] = []
    for line in text.split("\n"):
        if size("\n".join([*kept, line, MORE])) > limit:
            break
        kept.append(line)
    return "\n".join([*kept, MORE]) if kept else text[: limit - 1] + MORE


def tell_pictured(s: Session, chat: Chat, text: str, picture: bytes | None) -> None:
    """Queue a notice with its picture (a game's end, a tournament's standings): the picture with the text as its
    caption when the text fits one, else the text, then the picture on its own; the text alone without one."""
    if picture is not None and size(text) <= CAPTION_LIMIT:
        outbox.add(s, chat.platform, chat.platform_id, "send", {"text": text}, is_group=chat.is_group, photo=picture)
        return
    outbox.tell(s, chat, text)
    if picture is not None:
        outbox.add(s, chat.platform, chat.platform_id, "send", {"text": ""}, is_group=chat.is_group, photo=picture)
