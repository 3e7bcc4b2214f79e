"""Where a tournament's table is played: a game in some chat, given by a `TablePlace`.

A tournament names its place kind in its options (`place`, "chat" by default); `place_of` finds it in `PLACES`.
The default, `OrganisersChat`, opens every table in the tournament's own chat: a plain group holds the round's
games side by side (each its own board message, its taps carrying its game id), which is what a community has
until several tables per community exist (issue 25 item 1). The Morgan silence of a card game then restricts that
whole chat, and `/status` there shows the newest table.

What a place for topics or rooms must provide (item 1): `chat(...)` returns, in the caller's transaction, the
`Chat` row whose address the outbox delivers to (a Telegram forum topic as its own address carrying the
`message_thread_id`; a Matrix room created for the table). Creating the topic or room, inviting the seated
players, linking it from the community's chat (or Space) and the silence per table are the platform's work, done by
outbox operations ahead of the table's first message; the tournament only needs the address at once, in the
transaction that opens the round.
"""

from __future__ import annotations

from typing import Protocol

from sqlalchemy.orm import Session

from service.store.models import Chat, Tournament


class TablePlace(Protocol):
    def chat(self, s: Session, tournament: Tournament, round_number: int, table_number: int) -> Chat:
        """The chat in which table `table_number` of round `round_number` is played (created if new)."""
        ...


class OrganisersChat:
    """Every table in the tournament's own chat."""

    def chat(self, s: Session, tournament: Tournament, round_number: int, table_number: int) -> Chat:
        return s.get(Chat, tournament.chat_id)


DEFAULT = "chat"
PLACES: dict[str, TablePlace] = {DEFAULT: OrganisersChat()}


def register(name: str, place: TablePlace) -> None:
    """Make a place kind available to tournaments that name it (a platform's topics or rooms; tests' chats)."""
    PLACES[name] = place


def place_of(tournament: Tournament) -> TablePlace:
    """The tournament's place; KeyError for a kind this process has not registered (its tables are not opened
    elsewhere by mistake: the transaction that opens the round fails, and the beat's scan tries again)."""
    return PLACES[(tournament.options or {}).get("place", DEFAULT)]
