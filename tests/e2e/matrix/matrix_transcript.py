"""Each player's Matrix as their client shows it, from the real Synapse: every room they are in (their direct room
with the bot, the group), the timeline from its start read through their own client (so encrypted rooms are
decrypted with their keys), edits (m.replace) applied in place with an (edited N×) mark, images with their caption,
the numbered choices as sent, reactions and the room's changes as service lines.

A redacted message has lost its content on the server, and with it whether it was an edit (MSC3389 is in no room
version yet): an edit the player's client saw before it was redacted (its synced events tell) counts as an edit;
any other redacted message shows as deleted, as clients show it.
"""

from __future__ import annotations

from typing import Any

from matrix_players import Player
from nio import MessageDirection, RoomMessagesError

from tests.e2e.chat_transcript import Entry, Section, render

PAGE = 500


async def history(player: Player, room_id: str) -> list[Any]:
    """The room's whole timeline, oldest first, decrypted by the player's client where it can."""
    events: list[Any] = []
    token = None
    while True:
        page = await player.client.room_messages(room_id, start=token, direction=MessageDirection.front, limit=PAGE)
        if isinstance(page, RoomMessagesError):
            raise RuntimeError(f"{player.user_id} cannot read {room_id}: {page}")
        events += page.chunk
        if not page.chunk or not page.end or page.end == token:
            return events
        token = page.end


async def transcript(player: Player) -> str:
    """The player's rooms: their direct chats (invited as direct, as clients tell them) first, then the others."""
    parts = []
    for room_id, room in player.client.rooms.items():
        events = await history(player, room_id)
        inviter = _direct_inviter(events, player.user_id)
        title = f"direct chat with {room.user_name(inviter) or inviter}" if inviter else f"room «{room.display_name}»"
        text = render(f"{_local(player.user_id)} · {title}", [Section(None, entries(player, room, events))])
        parts.append((inviter is None, text))
    return "\n".join(text for _, text in sorted(parts, key=lambda part: part[0]))


async def transcripts(players: list[Player]) -> dict[str, str]:
    return {_local(p.user_id): await transcript(p) for p in players}


def _direct_inviter(events: list[Any], viewer: str) -> str | None:
    """Who invited the viewer into this room as a direct chat (`is_direct` on the invite), if anyone."""
    for event in events:
        source = getattr(event, "source", {}) or {}
        content = source.get("content") or {}
        if source.get("type") == "m.room.member" and source.get("state_key") == viewer and content.get("is_direct"):
            return source.get("sender")
    return None


def entries(player: Player, room: Any, events: list[Any]) -> list[Entry]:
    """Messages in order, each as last edited; edits, redactions and reactions fold into what they change."""
    seen_before = {e.event_id: e.source for evs in player.events.values() for e in evs if hasattr(e, "event_id")}
    out: list[Entry] = []
    by_id: dict[str, Entry] = {}
    levels: int | None = None
    for event in events:
        source = getattr(event, "source", {}) or {}
        kind, content = source.get("type"), source.get("content") or {}
        who = "You" if source.get("sender") == player.user_id else room.user_name(source.get("sender")) or "?"
        relation = content.get("m.relates_to") or {}
        if "redacted_because" in source.get("unsigned", {}):
            earlier = (seen_before.get(source.get("event_id"), {}).get("content") or {}).get("m.relates_to") or {}
            if earlier.get("rel_type") == "m.replace" and earlier.get("event_id") in by_id:
                by_id[earlier["event_id"]].edits += 1  # an edit this client saw before it was taken back
            elif kind == "m.room.message":
                _deleted(out, who)
        elif kind == "m.room.message" and relation.get("rel_type") == "m.replace":
            target = by_id.get(relation.get("event_id", ""))
            if target is not None:
                _show(target, content.get("m.new_content") or {})
                target.edits += 1
        elif kind == "m.room.message":
            entry = Entry(who, "")
            _show(entry, content)
            by_id[source["event_id"]] = entry
            out.append(entry)
        elif kind == "m.room.encrypted":
            out.append(Entry(who, "[a message this client cannot decrypt]"))
        elif kind == "m.reaction" and relation.get("rel_type") == "m.annotation":
            out.append(Entry(who, f"reacted {relation.get('key')}", notice=True))
        elif kind == "m.room.power_levels":
            now = int(content.get("events_default", 0))
            if levels is not None and now != levels:
                said = "let only moderators talk" if now >= 50 else "let everyone talk again"
                out.append(Entry(who, said, notice=True))
            levels = now
        elif (said := _state_line(kind, content, source, room)) is not None:
            out.append(Entry(who, said, notice=True))
    return out


def _deleted(out: list[Entry], who: str) -> None:
    """A redacted message shows as deleted (its content, and whether it was an edit, is gone from the server);
    a run of them by one sender is one line, as clients group them."""
    last = out[-1] if out else None
    if last is not None and last.notice and last.sender == who and last.text.startswith("deleted "):
        count = 1 if last.text == "deleted a message" else int(last.text.split()[1])
        last.text = f"deleted {count + 1} messages"
    else:
        out.append(Entry(who, "deleted a message", notice=True))


def _show(entry: Entry, content: dict[str, Any]) -> None:
    """A message's (or an edit's new) content: an image with its caption, or its text with the choices as sent."""
    body = content.get("body", "")
    if content.get("msgtype") == "m.image":
        entry.picture, entry.text = body, ""
    else:
        entry.picture, entry.text = None, body


def _state_line(kind: str | None, content: dict[str, Any], source: dict[str, Any], room: Any) -> str | None:
    if kind == "m.room.create":
        return "created the room"
    if kind == "m.room.encryption":
        return "turned on end-to-end encryption"
    if kind == "m.room.name":
        return f"named the room «{content.get('name', '')}»"
    if kind != "m.room.member":
        return None
    target = content.get("displayname") or room.user_name(source.get("state_key")) or source.get("state_key")
    membership = content.get("membership")
    if source.get("state_key") == source.get("sender"):
        before = (source.get("unsigned") or {}).get("prev_content", {}).get("membership")
        return None if membership == before else {"join": "joined", "leave": "left"}.get(membership)
    return {"invite": f"invited {target}", "leave": f"removed {target}", "ban": f"banned {target}"}.get(membership)


def _local(user_id: str) -> str:
    return user_id.split(":", 1)[0].lstrip("@")
