"""A fake Telegram Bot API server for tests: the real HTTP API on loopback, validated against the spec (README.md)."""

from .limits import RateLimits
from .server import DEFAULT_BOT_RIGHTS, FORUM_BOT_RIGHTS, CannotSend, FakeBotApi
from .spec import Spec, SpecError, spec_path
from .world import Chat, Message, Topic, User

__all__ = [
    "DEFAULT_BOT_RIGHTS",
    "FORUM_BOT_RIGHTS",
    "CannotSend",
    "Chat",
    "FakeBotApi",
    "Message",
    "RateLimits",
    "Spec",
    "SpecError",
    "Topic",
    "User",
    "spec_path",
]
