"""Each person's Telegram as their phone shows it, read from the fake world: their direct chat with the bot and
every group they are in (a forum's topics each under its name), each message as last edited, photos with their
caption, the live keyboard under its message, and the service lines members see."""

from __future__ import annotations

from typing import Any

from fake_bot_api import Chat, FakeBotApi, Message, User
from fake_bot_api.spec import visible_text
from fake_bot_api.world import MEMBER_STATUSES

from tests.e2e.chat_transcript import Entry, Section, render


def transcript(api: FakeBotApi, user: User) -> str:
    """The person's direct chat, then each group they are a member of."""
    with api.world.lock:
        bot = api.world.bot["first_name"]
        parts = []
        direct = api.world.chats.get(user.id)
        if direct is not None:
            entries = [entry(api, direct, m, user) for m in ordered(direct)]
            parts.append(render(f"{user.first_name} · direct chat with {bot}", [Section(None, entries)]))
        for chat in api.world.chats.values():
            if chat.is_group and chat.migrated_to is None and chat.members.get(user.id) in MEMBER_STATUSES:
                parts.append(render(f"{user.first_name} · group «{chat.title}»", sections(api, chat, user)))
    return "\n".join(parts)


def transcripts(api: FakeBotApi, users: list[User] | None = None) -> dict[str, str]:
    """Every person's transcript (or those of `users`), by first name."""
    with api.world.lock:
        chosen = users if users is not None else list(api.world.users.values())
    return {u.first_name: transcript(api, u) for u in chosen}


def ordered(chat: Chat) -> list[Message]:
    return sorted(chat.messages.values(), key=lambda m: m.message_id)


def sections(api: FakeBotApi, chat: Chat, viewer: User) -> list[Section]:
    """A forum's General topic, then each topic by age; a plain group is one section."""
    messages = ordered(chat)
    if not chat.is_forum:
        return [Section(None, [entry(api, chat, m, viewer) for m in messages])]
    out = [Section("General", [entry(api, chat, m, viewer) for m in messages if m.thread_id is None])]
    for thread_id, topic in sorted(chat.topics.items()):
        label = f"topic «{topic.name}»" + (" (closed)" if topic.closed else "")
        out.append(Section(label, [entry(api, chat, m, viewer) for m in messages if m.thread_id == thread_id]))
    return out


def entry(api: FakeBotApi, chat: Chat, msg: Message, viewer: User) -> Entry:
    if msg.from_id == viewer.id:
        sender = "You"
    elif msg.from_id == api.world.bot_id:
        sender = api.world.bot["first_name"]
    else:
        sender = api.world.users[msg.from_id].first_name
    if msg.service is not None:
        return Entry(sender, notice(msg.service), notice=True)
    picture = visible_text(msg.caption or "", msg.parse_mode) if msg.photo is not None else None
    text = visible_text(msg.text, msg.parse_mode) if msg.text is not None else ""
    if msg.document is not None:  # a file: its name, then its caption
        text = f"[file: {msg.document[0]}] {visible_text(msg.caption or '', msg.parse_mode)}".rstrip()
    return Entry(sender, text, picture, buttons(msg.reply_markup), msg.edits, chat.pinned == msg.message_id)


def buttons(markup: dict[str, Any] | None) -> list[list[str]]:
    """The labels of an inline keyboard, row by row; a link button is marked ↗."""
    rows = (markup or {}).get("inline_keyboard", [])
    return [[b["text"] + (" ↗" if "url" in b else "") for b in row] for row in rows]


def notice(service: dict[str, Any]) -> str:
    """What a phone writes for a service message."""
    if "forum_topic_created" in service:
        return f"created the topic «{service['forum_topic_created']['name']}»"
    if "forum_topic_edited" in service:
        name = service["forum_topic_edited"].get("name")
        return f"renamed the topic to «{name}»" if name else "changed the topic's icon"
    known = {
        "forum_topic_closed": "closed the topic",
        "forum_topic_reopened": "reopened the topic",
        "new_chat_members": "joined the group",
        "left_chat_member": "left the group",
        "supergroup_chat_created": "created the group",
        "migrate_to_chat_id": "upgraded the group to a supergroup",
        "migrate_from_chat_id": "upgraded the group to a supergroup",
    }
    return next((text for key, text in known.items() if key in service), f"did {sorted(service)}")
