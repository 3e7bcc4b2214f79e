"""Users and chats, created on first sight."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.store.models import Chat, User


def user_for(s: Session, platform: str, platform_id: str, name: str | None = None, language: str | None = None) -> User:
    """The user row, created if new; a known name or language is refreshed (never blanked)."""
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
    if language and not user.language:
        user.language = language
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
