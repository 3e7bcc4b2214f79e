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
`precheck(cmd)` is the gateways' early answer, before anything is queued: "malformed" for data this service did not
sign, "expired", "not_seated" or "over" for a game tap when the cache knows, and for a lobby tap or a command naming
its game the lobby's own refusal (`service.play.admission`); `notice_id(reason)` is its text. The worker stays
authoritative. A submitted tap or command is kept in the inbox first (`service.play.inbox`), so that one whose task
is lost is queued again.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from service.callback import Choice, LobbyTap, unpack
from service.chat.base import Inbound
from service.play import admission, inbox
from service.play.queue import request_delivery
from service.render.lobby import tr
from service.render.tournaments import TAP as TOURNAMENT_TAP
from service.sessions import get_sessions
from service.settings import get_settings
from service.store import ensure_migrated, outbox, session_scope

COMMANDS = (
    "newgame", "join", "leave", "start", "abort", "status", "rules", "help", "set", "ratings", "tournament", "me",
    "log", "card", "welcome", "sub", "pause", "resume", "away", "back", "autopilot", "replace", "follow",
    "unfollow", "quiet",
)
# what a group admin may give as the game's creator could (the gateways mark them with ADMIN_FLAG)
ADMIN_COMMANDS = ("abort", "start", "tournament", "pause", "resume", "set", "autopilot", "replace")
DAYS_TAPS = ("sub", "sub_ok", "quit", "reclaim")  # `service.play.days_commands`' buttons: its own command answers them
ADMIN_FLAG = "--admin"
NOTICES = {
    "expired": "notice.expired",
    "not_seated": "notice.not_seated",
    "over": "notice.game_over",
    "not_member": "notice.not_member",  # a lobby's deep link followed by someone outside its group
    "too_fast": "notice.too_fast",  # over the gateway's flood limit
    "not_yours": "notice.seat_not_yours",  # a seat its tapper left or lost to a substitute
}


def notice_id(reason: str) -> str:
    """The catalog id of a precheck's reason: a game tap's notice, else the lobby's reply; "malformed" and anything
    unknown read "That choice is not valid."."""
    if reason in NOTICES:
        return NOTICES[reason]
    return f"lobby.reply.{reason}" if reason in admission.LOBBY_REASONS else "notice.malformed"


def submit(cmd: Inbound) -> None:
    _check_schema()
    data = to_dict(cmd)
    if cmd.kind == "tap":
        tap = unpack(cmd.text or "")
        if isinstance(tap, Choice):
            data.update(kind="action", game_id=tap.game_id, prompt_seq=tap.seq, code=tap.code)
        elif isinstance(tap, LobbyTap) and tap.verb.startswith(TOURNAMENT_TAP):  # a command no one can type
            data.update(kind="command", command="tournament_tap", args=[str(tap.lobby_id), tap.verb, tap.value or ""])
        elif isinstance(tap, LobbyTap) and tap.verb in DAYS_TAPS:  # likewise
            data.update(kind="command", command="days_tap", args=[str(tap.lobby_id), tap.verb, tap.value or ""])
        elif isinstance(tap, LobbyTap):
            data.update(kind="command", command="tap", game_id=tap.lobby_id, args=[tap.verb, tap.value or ""])
        else:
            data.update(kind="action", game_id=None, prompt_seq=None, code=None)  # answered as malformed
    elif cmd.kind not in ("action", "command") or (cmd.kind == "command" and cmd.command not in COMMANDS):
        return
    inbox.accept("play" if data["kind"] == "action" else "command", data)


def precheck(cmd: Inbound) -> str | None:
    """The reason to refuse `cmd` now, privately, or None = go ahead (see the module's docstring)."""
    choice: Any = cmd
    if cmd.kind == "tap":
        choice = unpack(cmd.text or "")
        if choice is None:
            return "malformed"
        if isinstance(choice, LobbyTap) and (choice.verb.startswith(TOURNAMENT_TAP) or choice.verb in DAYS_TAPS):
            return None  # a tournament's button, or a seat's: its own command answers it
        if isinstance(choice, LobbyTap):
            return admission.precheck(cmd, choice.lobby_id, choice.verb, is_admin=False)
        game_id, seq = choice.game_id, choice.seq
    elif cmd.kind == "command" and cmd.game_id is not None:
        return admission.precheck(cmd, cmd.game_id, cmd.command or "", is_admin=ADMIN_FLAG in cmd.args)
    elif cmd.kind == "action" and cmd.game_id is not None and cmd.prompt_seq is not None:
        game_id, seq = cmd.game_id, cmd.prompt_seq
    else:
        return None
    return _game_tap(cmd.user, game_id, seq)


def _game_tap(user: str, game_id: int, seq: int) -> str | None:
    """A game choice's check against the cached meta: "over", "not_seated", "expired", or None when it may be good
    (or the cache does not know)."""
    meta = get_sessions().games.get_meta(game_id)
    if meta is None:
        return None
    if meta.get("status") in ("finished", "aborted"):
        return "over"
    seat = meta.get("seats", {}).get(user)
    if seat is None:
        return "not_yours" if user in meta.get("former", ()) else "not_seated"
    if seat in meta.get("piloted", ()):
        return None  # the autopilot's seat: its owner's tap takes it back, whatever its seq
    if seq == meta.get("seq", seq) + 1:  # one move ahead of the cache: that move's hand-on may have been lost
        return None
    since = meta.get("prompts", {}).get(str(seat))
    if since is None or not (since <= seq <= meta.get("seq", seq)):
        return None if seat in meta.get("standing", ()) else "expired"  # a standing action: the worker decides
    return None


def refuse(cmd: Inbound, reason: str) -> None:
    """Tell the person why `cmd` is refused, in the direct chat it came from; from a group nothing is said there
    (Telegram's toast told the tapper)."""
    if cmd.is_group:
        return
    text = tr(cmd.language or get_settings().default_language, notice_id(reason))
    with session_scope() as s:
        outbox.add(s, cmd.platform, cmd.chat, "send", {"text": text})
    request_delivery(cmd.platform, cmd.chat)


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
