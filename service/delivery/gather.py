"""A seat's turn reads as one group message: the narrated lines of one seat's consecutive moves are gathered.

A seat moves several times in its turn (the Evil phase, a heroic action, more), each move its own transaction and
its own narrated message (`service.play.move_messages`), which a group saw as a burst of short messages. The rows
of a move carry its `run` (game and seat); a person's also `within`, the seconds after which their run's message
is no longer added to (a bot's: `TTL`), so that only the quick taps of one turn are gathered. The sender, which
alone sends to a chat at a time, keeps the group's bottom (its last new message) in the sessions: when a run's row
comes while the group's bottom is the same run's message, and the lines together stay within the platform's limit,
that message is edited to add them (`APPEND`) instead of a new one being sent; two of a run's rows in one batch go
as one message (`GATHERED`: the second is in the first; the shard's sender plans a run's next rows with the first
one's rate, `rides`, so that a turn queued behind a busy group costs one call). Anything else that appears in the
group (another seat's move, a notice, a reply, a new board) ends the run, so the chat's order is kept; an edit
costs the group's rate as a send does (`service.chat.floods`).
Should the sessions lose the bottom, the next row is sent as a message of its own: nothing is lost, a turn is cut.
Nothing is delayed: a row goes when it would have gone.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from service.render.narration.messages import TELEGRAM_LIMIT, size
from service.sessions import get_sessions

SCOPE = "bottom"  # the sessions' ui scope of a group's bottom message
TTL = 6 * 3600.0  # a bot's run's message is not added to after a pause this long (a person's: the row's `within`)
APPEND = "append"  # a staged op: edit the run's message to the lines so far (its id in `known`)
GATHERED = "gathered"  # a staged op: nothing to send, the row's lines went with an earlier row of the batch
LATER = "later"  # a staged op: not tried in this batch (a rider that could not be gathered: it waits for its rate)
NEW_MESSAGE_OPS = ("send", "document")  # ops that put a new message at the bottom (an upsert may too: its outcome)

Plan = list[tuple[Any, str | None]]


@dataclass
class Bottom:
    """A group's last new message when it tells a run: the run, the message's id and its text."""

    run: str
    message_id: str | None
    text: str
    within: float = TTL  # how long it may be added to after its last lines


@dataclass
class Staged:
    """The plan as it is sent (rows replaced where gathered), the ids its appends edit, and the bottoms read (of the
    groups with a run's row in the plan)."""

    plan: Plan
    known: dict[tuple[str, str], str]
    read: dict[str, Bottom | None]


def run_of(row: Any) -> str | None:
    """The run a group row belongs to, if a bot's move wrote it."""
    return (row.payload or {}).get("run") if row.is_group and row.op == "send" else None


def rides(row: Any, previous: Any) -> bool:
    """Whether `row` goes in the same call as `previous`, the row before it in its chat's plan: both of one run, so
    that `stage` gathers it into the run's message (if the lines fit). A rider takes no rate of its own: a bot's turn
    queued behind a busy group costs one call, not one per move (`service.delivery.senders.deliver_shard`)."""
    run = run_of(row)
    return run is not None and run_of(previous) == run


def stage(plan: Plan, edits: dict[tuple[str, str], str], riders: frozenset[int] = frozenset()) -> Staged:
    """The plan with each run's rows gathered (see the module's docstring). `edits`: the ids of the messages the
    plan's upserts edit (an upsert without one is a new message). `riders`: ids of rows planned without a rate of
    their own (`rides`); one that cannot be gathered (past the limit) is not tried (`LATER`), nor are its chat's
    later rows, and waits for its own turn."""
    runs = sorted({chat for row, chat in plan if chat is not None and run_of(row)})
    if not runs:
        return Staged(plan, {}, {})
    ui = get_sessions().ui
    read = {chat: _read(ui.get(SCOPE, _key(plan[0][0].platform, chat))) for chat in runs}
    current = dict(read)
    opened: dict[str, int] = {}  # chat → index in `staged` of the run's message this batch sends or appends to
    staged: Plan = []
    known: dict[tuple[str, str], str] = {}
    held: set[str] = set()  # chats whose rider could not be gathered: their later rows wait
    for row, chat in plan:
        if chat in held or (row.id in riders and not _gathered(row, current.get(chat))):
            held.add(chat or row.chat)
            staged.append((_staged(row, LATER, row.payload.get("text", "")), chat))
            continue
        if chat not in read:
            staged.append((row, chat))
            continue
        run, bottom, text = run_of(row), current[chat], row.payload.get("text", "")
        if _gathered(row, bottom):
            joined = f"{bottom.text}\n{text}"
            if chat in opened:  # the run's message is an earlier row of this batch: it carries these lines too
                first, first_chat = staged[opened[chat]]
                own = f"{first.payload['own']}\n{text}" if first.op == APPEND else None
                staged[opened[chat]] = (_staged(first, first.op, joined, first.ref, own), first_chat)
                staged.append((_staged(row, GATHERED, text), chat))
            else:
                ref = f"~run:{row.id}"
                known[(chat, ref)] = bottom.message_id or ""
                staged.append((_staged(row, APPEND, joined, ref, own=text), chat))
                opened[chat] = len(staged) - 1
            current[chat] = Bottom(run, bottom.message_id, joined)
            continue
        staged.append((row, chat))
        if run is not None:
            opened[chat] = len(staged) - 1
            current[chat] = Bottom(run, None, text)
        elif _new_message(row, edits.get((chat, row.ref or "")) is None):
            opened.pop(chat, None)
            current[chat] = None
    return Staged(staged, known, read)


def record(staged: Staged, outcomes: list[Any]) -> None:
    """Keep each group's bottom as the sends left it: a run's message, or none when anything else was sent below it
    (a chat whose row failed keeps what was sent before it: its later rows were not tried)."""
    if not staged.plan:
        return
    platform = staged.plan[0][0].platform
    after: dict[str, Bottom | None] = {}
    stopped: set[str] = set()
    for (row, chat), outcome in zip(staged.plan, outcomes, strict=True):
        if chat is None or not row.is_group or chat in stopped:
            continue
        if not isinstance(outcome, tuple):
            stopped.add(chat)
            continue
        message_id, new = outcome
        within = float(row.payload.get("within") or TTL)
        if row.op == APPEND:
            appended = message_id == staged.known.get((chat, row.ref or ""))
            text = row.payload["text"] if appended else row.payload["own"]
            after[chat] = Bottom(row.payload["run"], message_id, text, within)
        elif (run := run_of(row)) is not None:
            after[chat] = Bottom(run, message_id, row.payload.get("text", ""), within)
        elif row.op != GATHERED and _new_message(row, new):
            after[chat] = None
    ui = get_sessions().ui
    for chat, bottom in after.items():
        if bottom is not None:
            kept = {"run": bottom.run, "id": bottom.message_id, "text": bottom.text}
            ui.set(SCOPE, _key(platform, chat), kept, bottom.within)
        elif chat not in staged.read or staged.read[chat] is not None:  # not read: it may hold a run's message
            ui.clear(SCOPE, _key(platform, chat))


def _gathered(row: Any, bottom: Bottom | None) -> bool:
    """Whether a row joins the run's message at the bottom of its chat."""
    run = run_of(row)
    return run is not None and bottom is not None and bottom.run == run and _fits(bottom.text, row.payload["text"])


def _new_message(row: Any, new: bool) -> bool:
    """Whether the row put a message at the bottom of its chat (an upsert: when it was sent anew)."""
    return row.op in NEW_MESSAGE_OPS or (row.op == "upsert" and new)


def _fits(before: str, more: str) -> bool:
    return size(f"{before}\n{more}") <= TELEGRAM_LIMIT


def _key(platform: str, chat: str) -> str:
    return f"{platform}:{chat}"


def _read(raw: dict[str, Any] | None) -> Bottom | None:
    if not raw or not raw.get("run") or not raw.get("id"):
        return None
    return Bottom(str(raw["run"]), str(raw["id"]), str(raw.get("text", "")))


def _staged(row: Any, op: str, text: str, ref: str | None = None, own: str | None = None) -> SimpleNamespace:
    """The row as sent: `op` with `text`; an append also with the ref its message's id is known under and its own
    lines (sent alone should the message be past editing)."""
    fields = row._asdict() if hasattr(row, "_asdict") else dict(vars(row))
    payload = {**row.payload, "text": text, **({"own": own} if own is not None else {})}
    ref = ref if op == APPEND else fields.get("ref")  # (an append keeps its ref when more lines join it)
    return SimpleNamespace(**{**fields, "op": op, "ref": ref, "payload": payload})
