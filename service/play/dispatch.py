"""The backbone's front door for gateways: `submit(cmd)` hands a normalized `Inbound` to the workers.

Accepted `Inbound` kinds:
- "action": a game choice already unpacked (game_id, prompt_seq, code) → the `play` task.
- "tap": raw button data in `text` (`service.callback` format): a game choice → `play`; a lobby tap
  `L<id>:<verb>[:<value>]` → the `command` task (verbs join, leave, start, abort, players, bots, game); a
  tournament's button (the same form, its verb `t_…`, the id a tournament's) → the `command` task as
  `tournament_tap`.
- "command": `command` one of COMMANDS with `args` → the `command` task. A gateway marks a chat admin by putting
  ADMIN_FLAG in `args` (abort/start by an admin who is not the creator).
Anything else is ignored. With a broker the work goes to Celery, else it runs in this process before returning.
`precheck(cmd)` is a cheap, cache-only early answer for a tap ("expired", "not_seated", "over"); the worker
stays authoritative.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from service.callback import Choice, LobbyTap, unpack
from service.chat.base import Inbound
from service.play.queue import enqueue
from service.render.tournaments import TAP as TOURNAMENT_TAP
from service.sessions import get_sessions
from service.settings import get_settings
from service.store import ensure_migrated

COMMANDS = (
    "newgame", "join", "leave", "start", "abort", "status", "rules", "help", "set", "ratings", "tournament", "me"
)
ADMIN_FLAG = "--admin"


def submit(cmd: Inbound) -> None:
    _check_schema()
    data = to_dict(cmd)
    if cmd.kind == "tap":
        tap = unpack(cmd.text or "")
        if isinstance(tap, Choice):
            data.update(kind="action", game_id=tap.game_id, prompt_seq=tap.seq, code=tap.code)
        elif isinstance(tap, LobbyTap) and tap.verb.startswith(TOURNAMENT_TAP):  # a command no one can type
            data.update(kind="command", command="tournament_tap", args=[str(tap.lobby_id), tap.verb, tap.value or ""])
        elif isinstance(tap, LobbyTap):
            data.update(kind="command", command="tap", game_id=tap.lobby_id, args=[tap.verb, tap.value or ""])
        else:
            data.update(kind="action", game_id=None, prompt_seq=None, code=None)  # answered as malformed
    elif cmd.kind not in ("action", "command") or (cmd.kind == "command" and cmd.command not in COMMANDS):
        return
    enqueue("play" if data["kind"] == "action" else "command", cmd=data)


def precheck(cmd: Inbound) -> str | None:
    """For a game tap: "expired", "not_seated" or "over" if the cache already knows; None = go ahead."""
    choice: Any = cmd
    if cmd.kind == "tap":
        choice = unpack(cmd.text or "")
        if choice is None:
            return "malformed"
        if not isinstance(choice, Choice):
            return None
        game_id, seq = choice.game_id, choice.seq
    elif cmd.kind == "action" and cmd.game_id is not None and cmd.prompt_seq is not None:
        game_id, seq = cmd.game_id, cmd.prompt_seq
    else:
        return None
    meta = get_sessions().get_meta(game_id)
    if meta is None:
        return None
    if meta.get("status") in ("finished", "aborted"):
        return "over"
    seat = meta.get("seats", {}).get(cmd.user)
    if seat is None:
        return "not_seated"
    since = meta.get("prompts", {}).get(str(seat))
    if since is None or not (since <= seq <= meta.get("seq", seq)):
        return None if seat in meta.get("standing", ()) else "expired"  # a standing action: the worker decides
    return None


_checked: set[str] = set()


def _check_schema() -> None:
    """Refuse to work on an unmigrated database (once per process and URL; gateways should also check at start)."""
    url = get_settings().database_url
    if url not in _checked:
        ensure_migrated()
        _checked.add(url)


def to_dict(cmd: Inbound) -> dict[str, Any]:
    data = asdict(cmd)
    data["args"] = list(cmd.args)
    return data
