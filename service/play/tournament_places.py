"""Where a tournament's table is played: a game in some chat, given by a `TablePlace`.

A tournament names its place kind in its options (`place`). `OwnTables` ("tables") gives each table a place of its
own in the community (`service.play.tables`): a topic of a Telegram forum supergroup, a Matrix room in the
community's Space, created with the seated people invited before the table's first message; a tournament made in a
forum or on Matrix plays there (`tournament_commands`). `OrganisersChat` ("chat", the default elsewhere) opens every
table in the tournament's own chat: a plain group holds the round's games side by side (each its own board message,
its taps carrying its game id), the Morgan silence of a card game then restricts that whole chat, and `/status`
there shows the newest table. A platform that cannot open a place (a plain Telegram group refuses topics) keeps the
table in the tournament's chat that way.

`chat(...)` returns, in the caller's transaction, the `Chat` row whose address the outbox delivers to: the
tournament only needs the address at once, in the transaction that opens the round.
"""

from __future__ import annotations

from typing import Protocol

from sqlalchemy.orm import Session

from service.play import tables
from service.store.models import Chat, Tournament


class TablePlace(Protocol):
    def chat(self, s: Session, tournament: Tournament, round_number: int, table_number: int) -> Chat:
        """The chat in which table `table_number` of round `round_number` is played (created if new)."""
        ...


class OrganisersChat:
    """Every table in the tournament's own chat."""

    def chat(self, s: Session, tournament: Tournament, round_number: int, table_number: int) -> Chat:
        return s.get(Chat, tournament.chat_id)


class OwnTables:
    """Each table at a place of its own in the tournament's community, opened before its first message."""

    def chat(self, s: Session, tournament: Tournament, round_number: int, table_number: int) -> Chat:
        community = s.get(Chat, tournament.chat_id)
        return tables.new_table(s, community.platform, community.platform_id)


DEFAULT = "chat"
OWN = "tables"
PLACES: dict[str, TablePlace] = {DEFAULT: OrganisersChat(), OWN: OwnTables()}


def register(name: str, place: TablePlace) -> None:
    """Make a place kind available to tournaments that name it (a platform's topics or rooms; tests' chats)."""
    PLACES[name] = place


def place_of(tournament: Tournament) -> TablePlace:
    """The tournament's place; KeyError for a kind this process has not registered (its tables are not opened
    elsewhere by mistake: the transaction that opens the round fails, and the beat's scan tries again)."""
    return PLACES[(tournament.options or {}).get("place", DEFAULT)]
