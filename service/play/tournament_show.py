"""What a tournament shows in its chat, through the outbox: its message (edited in place, `tournament:<id>`), its
notices, and its standings read from the rows with names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from service.play import board_post
from service.play.tournament_options import SEATS
from service.render import tournaments as texts
from service.store import outbox
from service.store.models import Chat, Tournament
from service.tournaments import course, rows
from service.tournaments.standings import standings


@dataclass(frozen=True)
class Named:
    """A line of the standings with the player's name (`service.render.tournaments.Row`)."""

    player: int
    name: str
    points: float
    merit: float
    opponents: float
    tables: int
    withdrawn: bool


def ranked(s: Session, tournament: Tournament) -> list[Named]:
    """The standings now, best first, every registered player (withdrawn ones marked)."""
    registered = rows.registered(s, tournament.id)
    names = {r.entrant.player: r.name for r in registered}
    withdrawn = {r.entrant.player for r in registered if r.entrant.withdrawn_after is not None}
    table = standings(names, rows.results(s, tournament.id), tournament.seed, withdrawn)
    return [Named(r.player, names[r.player], r.points, r.merit, r.opponents, r.tables, r.withdrawn) for r in table]


def view(s: Session, tournament: Tournament) -> dict[str, Any]:
    """What the tournament's message shows (`service.render.tournaments.panel`)."""
    opts = tournament.options
    registered = rows.registered(s, tournament.id)
    return {
        "id": tournament.id,
        "kind": tournament.kind,
        "status": tournament.status,
        "round": tournament.round,
        "late": course.may_register(tournament.status, tournament.round) and tournament.status == "running",
        "names": [r.name for r in registered if r.entrant.withdrawn_after is None],
        "language": tournament.language,
        "seat_bounds": SEATS[tournament.kind],
        **{key: opts[key] for key in ("low", "high", "bots", "rounds", "pairing", "round_hours", "turn_hours",
                                      "response_minutes", "variants")},
    }


def show(s: Session, tournament: Tournament) -> tuple[str, str]:
    """Queue the tournament's message as it is now (an edit, unless unchanged); returns its chat."""
    chat = s.get(Chat, tournament.chat_id)
    text, keyboard = texts.panel(view(s, tournament), tournament.language)
    buttons = [[[b.label, b.data] for b in row] for row in keyboard] if keyboard else None
    outbox.upsert_if_changed(s, chat.platform, chat.platform_id, f"tournament:{tournament.id}",
                             {"text": text, "buttons": buttons}, is_group=chat.is_group)
    return chat.platform, chat.platform_id


def tell(s: Session, tournament: Tournament, text: str, picture: bytes | None = None) -> tuple[str, str]:
    """Queue a notice in the tournament's chat, with its picture if given (`board_post.tell_pictured`); returns
    the chat."""
    chat = s.get(Chat, tournament.chat_id)
    board_post.tell_pictured(s, chat, text, picture)
    return chat.platform, chat.platform_id
