"""Actions: small immutable values with a compact ASCII code.

A code is `kind` or `kind:arg1.arg2…`; arguments are non-negative ints or short `[a-z0-9_]` words.
Codes stay within `MAX_CODE_BYTES` so that a game id and a prompt sequence still fit in Telegram's
64-byte callback data. The first level of a two-level menu is the action's `kind`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from engine.core.errors import IllegalAction

MAX_CODE_BYTES = 40
_KIND = re.compile(r"^[a-z][a-z0-9_]{0,15}$")
_ARG = re.compile(r"^(?:\d{1,6}|[a-z][a-z0-9_]{0,15})$")


class Action(NamedTuple):
    """One decision: a kind (`move`, `play`, `pass`, …) and positional arguments."""

    kind: str
    args: tuple[int | str, ...] = ()

    def encode(self) -> str:
        if not self.args:
            return self.kind
        return self.kind + ":" + ".".join(str(a) for a in self.args)


def encode(action: Action) -> str:
    code = action.encode()
    if len(code) > MAX_CODE_BYTES:
        raise ValueError(f"action code too long: {code!r}")
    return code


def decode(code: str, rule: str) -> Action:
    """Parse a code; anything malformed raises IllegalAction with the given rule id (never another error)."""
    if not isinstance(code, str) or not code or len(code) > MAX_CODE_BYTES or not code.isascii():
        raise IllegalAction(rule, "malformed action code")
    kind, sep, rest = code.partition(":")
    if not _KIND.match(kind) or (sep and not rest):
        raise IllegalAction(rule, "malformed action code")
    args: list[int | str] = []
    if rest:
        for part in rest.split("."):
            if not _ARG.match(part):
                raise IllegalAction(rule, "malformed action code")
            args.append(int(part) if part.isdigit() else part)
    return Action(kind, tuple(args))
