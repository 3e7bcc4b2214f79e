"""A fake Telegram Bot API server for tests: the real HTTP API on loopback, validated against the spec."""

from .server import CannotSend, FakeBotApi
from .spec import Spec, SpecError, spec_path
from .world import RateLimits, User

__all__ = ["CannotSend", "FakeBotApi", "RateLimits", "Spec", "SpecError", "User", "spec_path"]
