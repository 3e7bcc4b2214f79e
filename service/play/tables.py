"""Tables of a community: a game that gets a place of its own (a Telegram forum topic, a Matrix room).

The place does not exist yet when the game is created (a lobby, a tournament's round, in one transaction), so the
game's chat starts at a placeholder address, `@table:<community>#<token>`, to which its outbox rows are queued as
to any chat. Before the first of them is sent, the delivery asks the platform's adapter to open the place
(`open_table`: create the topic or room, invite the seated people, link it from the community) and moves the chat
and its pending rows to the real address (`service.delivery.tables`). A platform that cannot open one (no right to
create topics) keeps the game in the community's own chat, as a plain group does.

On Matrix a room has only the people invited to it, so a `!newgame` lobby stays in the community's room, where the
players are, and the game moves to a room of its own when it starts (`moved_at_start`): the bot then invites the
seated people, links the room from the community's room and adds it to the community's Space, and the community's
room is free for the next lobby. A game with one person (a 1:1 room with the bot, a solo game against bots) stays
where it was started.
"""

from __future__ import annotations

import secrets

from sqlalchemy.orm import Session

from service.render.i18n import t
from service.store.chats import latest_game, seated_people
from service.store.models import Chat
from service.store.users import chat_for
from service.tournaments import rows

PREFIX = "@table:"
TOKEN = "#"
OWN_ROOMS = ("matrix",)  # platforms where every table of a tournament gets a room of its own (Telegram: forums)


def own_places(platform: str, forum: bool) -> bool:
    """Whether a community's tables get places of their own: a Telegram forum supergroup, any Matrix room."""
    return forum or platform in OWN_ROOMS


def moved_at_start(s: Session, platform: str, lobby: Chat, people: int) -> Chat | None:
    """The placeholder chat a lobby's game moves to as it starts with `people` seated people, or None where it stays:
    on Matrix, a game of several people started in a group room (in a table's room too: the next game there gets a
    room of its own in the same Space)."""
    if platform not in OWN_ROOMS or people < 2 or not lobby.is_group or is_placeholder(lobby.platform_id):
        return None
    return new_table(s, platform, lobby.platform_id)


def new_address(community: str) -> str:
    """A fresh placeholder for a table of `community` (the chat address the table is opened from)."""
    return f"{PREFIX}{community}{TOKEN}{secrets.token_hex(6)}"


def new_table(s: Session, platform: str, community: str) -> Chat:
    """The chat row of a new table of `community`, in the caller's transaction."""
    return chat_for(s, platform, new_address(community), True)


def is_placeholder(address: str) -> bool:
    return address.startswith(PREFIX)


def community_of(address: str) -> str:
    """The community a placeholder belongs to; any other address is its own."""
    if not is_placeholder(address):
        return address
    return address.removeprefix(PREFIX).rpartition(TOKEN)[0]


def opening(s: Session, platform: str, address: str) -> tuple[str, list[str]]:
    """What opening the table at placeholder `address` needs: its title (the tournament's table name, or the
    game's kind and number, in the game's language) and the people seated there, to invite."""
    game = latest_game(s, platform, address)
    if game is None:
        return t(None, "table.title.board", id="?"), []
    table = rows.table_of_game(s, game.id)
    if table is None:
        return t(game.language, f"table.title.{game.kind}", id=game.id), seated_people(s, game.id)
    round_row = rows.round_of(s, table)
    title = t(game.language, "table.title.tournament", tournament=round_row.tournament_id, round=round_row.number,
              table=table.number)
    return title, seated_people(s, game.id)
