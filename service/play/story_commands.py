"""The story on demand (issue 23 items 3 and 6): `/log [page]`, `/status` in a direct chat, `/card NAME`, `/rules`.

`/log` in a group is the public log of the chat's game; in a direct chat, of the asker's game, with their own private
events too. Once the game is over it is the whole game with every seat's secrets revealed, and comes also as a text
file. `/status` in a direct chat is the board and the asker's own hand. `/card` and `/rules` answer in the asker's
language, wherever asked. Nothing here shows a seat's secrets to anyone but that seat while the game runs.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.play import presenting
from service.play.move_messages import seat_name
from service.play.queue import request_delivery
from service.play.state import load_state
from service.render import narration
from service.render.i18n import normalize, t
from service.render.narration.cardbook import name as card_name
from service.render.narration.cardbook_data import BOOK
from service.store import games as game_rows
from service.store import outbox, session_scope
from service.store.models import GameRow, Seat, User
from service.store.users import chat_for, user_for

PLAYED = ("active", "finished")


def run(verb: str, args: list[str], cmd: dict[str, Any], admin: bool) -> str:
    """Answer one story command; `status` is answered here only in a direct chat (a group's is the board)."""
    with session_scope() as s:
        me = user_for(s, cmd["platform"], cmd["user"], cmd.get("user_name"), cmd.get("language"))
        if verb == "card":
            status = _card(s, cmd, me, args)
        elif verb == "rules":
            status = _rules(s, cmd, me)
        elif (game := _game(s, cmd, me)) is None:
            return "no_game"
        elif verb == "log":
            status = _log(s, cmd, game, me, args, normalize(me.language or game.language))
        else:
            status = _status(s, cmd, game, me, normalize(me.language or game.language))
    request_delivery(cmd["platform"], cmd["chat"])
    return status


def _game(s: Session, cmd: dict[str, Any], me: User, statuses: tuple[str, ...] = PLAYED) -> GameRow | None:
    """The game asked about: a group's newest played game; in a direct chat, the asker's (a running one first)."""
    if cmd.get("is_group"):
        chat = chat_for(s, cmd["platform"], cmd["chat"], True)
        found = select(GameRow).where(GameRow.chat_id == chat.id, GameRow.status.in_(statuses))
        return s.scalar(found.order_by(GameRow.id.desc()).limit(1))
    mine = (
        select(GameRow)
        .join(Seat, Seat.game_id == GameRow.id)
        .where(Seat.user_id == me.id, GameRow.status.in_(statuses))
        .order_by((GameRow.status == "active").desc(), GameRow.id.desc())
        .limit(1)
    )
    return s.scalar(mine)


def _seat_of(s: Session, game: GameRow, me: User) -> int | None:
    return next((seat.seat for seat in game_rows.seats_of(s, game.id) if seat.user_id == me.id), None)


def _names(s: Session, game: GameRow) -> dict[int, str]:
    users = game_rows.seat_users(s, game.id)
    return {seat.seat: seat_name(seat, users) for seat in game_rows.seats_of(s, game.id)}


def _log(s: Session, cmd: dict[str, Any], game: GameRow, me: User, args: list[str], lang: str) -> str:
    names = _names(s, game)
    log = narration.moves(game.kind, game.config, game.seed, game_rows.action_log(s, game.id))
    over = game.status == "finished"
    if over:
        lines = narration.reveal_lines(game.kind, log, lang, names)
    else:
        viewer = None if cmd.get("is_group") else _seat_of(s, game, me)
        lines = narration.log_lines(game.kind, log, lang, names, viewer, hide_threat=game.kind == "cards")
    wanted = int(args[0]) if args and args[0].isascii() and args[0].isdigit() and len(args[0]) <= 6 else None
    page = narration.log_page(lines, lang, wanted)
    messages = list(page.messages)
    if page.page > 1:
        prefix = "!" if cmd["platform"] == "matrix" else "/"
        messages[-1] += "\n" + t(lang, "log.older", command=f"{prefix}log {page.page - 1}")
    for text in messages:
        _reply(s, cmd, text)
    if over:  # the whole story as a file to keep
        payload = {"text": t(lang, "log.file", game_id=game.id), "filename": f"camelot-{game.id}.txt"}
        outbox.add(
            s, cmd["platform"], cmd["chat"], "document", payload, is_group=bool(cmd.get("is_group")),
            photo=narration.log_file(lines),
        )
    return "shown"


def _status(s: Session, cmd: dict[str, Any], game: GameRow, me: User, lang: str) -> str:
    """The board and, in the asker's direct chat, their own hand."""
    state = load_state(s, game)
    names = _names(s, game)
    pres = presenting.presentation(
        game.kind,
        state,
        [],
        game_id=game.id,
        seq=game.seq,
        group_lang=lang,
        seat_langs={},
        seat_names=names,
        people=set(),
    )
    parts = [pres.board]
    seat = _seat_of(s, game, me)
    if seat is not None and game.status == "active":
        hand = presenting.panel(
            game.kind, state, seat, game_id=game.id, seq=game.seq, lang=lang, level=None, seat_names=names
        )
        parts.append(hand.text)
    _reply(s, cmd, "\n\n".join(parts))
    return "shown"


def _card(s: Session, cmd: dict[str, Any], me: User, args: list[str]) -> str:
    query = " ".join(args)
    lang = me.language
    _reply(s, cmd, narration.card_text(query, lang) if query.strip() else t(lang, "card.usage", command=_prefix(cmd)))
    return "shown"


def _rules(s: Session, cmd: dict[str, Any], me: User) -> str:
    """The rules of the game asked about (a group's, the asker's, else the board game's) in the asker's language."""
    game = _game(s, cmd, me, ("lobby", *PLAYED))
    kind = game.kind if game is not None and game.kind in ("board", "cards") else "board"
    _reply(s, cmd, rules_text(kind, me.language or (game.language if game is not None else None), _prefix(cmd)))
    return "shown"


def rules_text(kind: str, lang: str | None, prefix: str) -> str:
    """The turn summary of `kind`, its card families, and how to ask for one card's text."""
    families: dict[str, list[str]] = {}
    for card in BOOK:
        if card.game == kind:
            families.setdefault(card.family, [])
            name = card_name(card, normalize(lang))
            if name not in families[card.family]:
                families[card.family].append(name)
    lines = [t(lang, f"lobby.rules.{kind}"), ""]
    for family, names in families.items():
        shown = ", ".join(names[:6]) + (", …" if len(names) > 6 else "")
        lines.append(f"• {t(lang, f'narr.card.family.{kind}.{family}')}: {shown}")
    lines += ["", t(lang, "card.usage", command=prefix)]
    return "\n".join(lines)


def _prefix(cmd: dict[str, Any]) -> str:
    return "!" if cmd["platform"] == "matrix" else "/"


def _reply(s: Session, cmd: dict[str, Any], text: str) -> None:
    outbox.add(s, cmd["platform"], cmd["chat"], "send", {"text": text}, is_group=bool(cmd.get("is_group")))
