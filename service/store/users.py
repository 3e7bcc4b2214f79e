"""Users and chats, created on first sight."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.store import outbox, table_epochs
from service.store.models import Chat, User

NAME_MAX = User.name.type.length
LANGUAGE_MAX = User.language.type.length


def user_for(s: Session, platform: str, platform_id: str, name: str | None = None, language: str | None = None) -> User:
    """The user row, created if new; a known name or language is refreshed (never blanked). Both are cut to their
    columns' sizes: a Matrix display name has no short limit, and a too long value must not fail the update."""
    name = name[:NAME_MAX] if name else name
    language = language[:LANGUAGE_MAX] if language else language
    user = s.scalar(select(User).where(User.platform == platform, User.platform_id == platform_id))
    if user is None:
        try:
            with s.begin_nested():
                user = User(platform=platform, platform_id=platform_id, name=name, language=language)
                s.add(user)
        except IntegrityError:  # created concurrently
            user = s.scalars(select(User).where(User.platform == platform, User.platform_id == platform_id)).one()
    if name and user.name != name:
        user.name = name
        table_epochs.stale_for_user(s, user.id)
    if language and not user.language:
        user.language = language
        table_epochs.stale_for_user(s, user.id)
    return user


def chat_for(s: Session, platform: str, platform_id: str, is_group: bool = True) -> Chat:
    chat = s.scalar(select(Chat).where(Chat.platform == platform, Chat.platform_id == platform_id))
    if chat is None:
        try:
            with s.begin_nested():
                chat = Chat(platform=platform, platform_id=platform_id, is_group=is_group)
                s.add(chat)
        except IntegrityError:
            chat = s.scalars(select(Chat).where(Chat.platform == platform, Chat.platform_id == platform_id)).one()
    return chat


def direct_chat_markers(user: User) -> tuple[str, str]:
    """The addresses rows for the user's direct chat carry while it is not known
    (`service.play.move_messages.direct_chat_of`): `@user:<platform id>`, or `@uid:<row id>` when that would not fit the
    outbox's chat column."""
    return f"@user:{user.platform_id}", f"@uid:{user.id}"


def learn_direct_chat(s: Session, user: User, chat: str) -> int:
    """Record the user's direct chat (the first one learnt stays) and move the rows queued under their markers
    there, in this transaction, so that every row for that chat has one address, one shard and one order: under two
    addresses, two senders at once sent a panel twice, or an older panel over a newer one. Returns rows moved."""
    if user.direct_chat is None:
        user.direct_chat = chat
        table_epochs.stale_for_user(s, user.id)
    return outbox.readdress(s, user.platform, direct_chat_markers(user), user.direct_chat)
