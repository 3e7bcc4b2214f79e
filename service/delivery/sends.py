"""Performing outbox rows through a chat adapter, in the adapters' event loop (`service.delivery.loop`): each chat's
rows in order, the chats at once, a few quick retries on network errors; an edit in place falls back to a new
message, a group's new board is pinned. The bookkeeping of what a send did is `service.delivery.senders`'.
"""

from __future__ import annotations

import asyncio
from typing import Any

import structlog
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential

from service.chat.base import Button, ChatAdapter, PermanentError, RateLimited, TransientError, delivering
from service.observability import metrics
from service.store.models import OutboxRow

log = structlog.get_logger(__name__)

SendResult = tuple[str | None, bool] | BaseException | None  # (message id, whether it is new) | the error | not tried


async def perform(
    adapter: ChatAdapter, plan: list[tuple[Any, str | None]], known: dict[tuple[str, str], str]
) -> list[SendResult]:
    """Send the planned rows, the chats at once (a send mostly waits on the platform) and each chat's rows in order
    (a few quick retries on network errors). After a row of a chat fails, the chat's later rows are not tried
    (None): a chat's messages keep their order. `known`: the ids of edited messages, `(chat, ref) → id`."""
    outcomes: list[SendResult] = [None] * len(plan)
    by_chat: dict[str, list[int]] = {}
    for index, (row, _) in enumerate(plan):
        by_chat.setdefault(row.chat, []).append(index)

    async def send_chat(indexes: list[int]) -> None:
        for index in indexes:
            row, chat = plan[index]
            outcomes[index] = outcome = await _send(adapter, row, chat, known.get((chat or "", row.ref or "")))
            if row.op != "gathered":  # (no call: its lines went with an earlier row's)
                metrics.sent(row, outcome)
            if isinstance(outcome, BaseException) and not isinstance(outcome, PermanentError):
                return

    await asyncio.gather(*(send_chat(indexes) for indexes in by_chat.values()))
    return outcomes


async def _send(adapter: ChatAdapter, row: Any, chat: str | None, known: str | None) -> SendResult:
    """One row's send: (message id, whether it is new), or the error it ended with."""
    try:
        if chat is None:
            raise PermanentError("the bot cannot write to this user yet")
        return await _call_with_retries(adapter, row, chat, known)
    except (RateLimited, TransientError, PermanentError) as exc:
        return exc
    except Exception as exc:  # an adapter's bug must not lose the batch's bookkeeping: retried, then failed
        log.warning("outbox.unexpected", row=row.id, platform=row.platform, error=type(exc).__name__)
        return TransientError(f"unexpected {type(exc).__name__}")


@retry(
    retry=retry_if_exception_type(TransientError),
    stop=stop_after_attempt(3),
    wait=wait_exponential(multiplier=0.1, max=1.0),
    reraise=True,
)
async def _call_with_retries(
    adapter: ChatAdapter, row: OutboxRow, chat: str, known: str | None
) -> tuple[str | None, bool]:
    return await _call(adapter, row, chat, known)


async def _call(adapter: ChatAdapter, row: OutboxRow, chat: str, known: str | None) -> tuple[str | None, bool]:
    """Perform the row; returns (message id, whether that id is new and must be recorded for later edits). `known`:
    for an edit in place, the id of the message it edits, if it was sent."""
    delivering.set(f"outbox:{row.id}")  # this call's own task: the setting ends with it
    text = row.payload.get("text", "")
    keyboard = _keyboard(row.payload.get("buttons"))
    if row.op == "send":
        if row.photo:
            return await adapter.send_photo(chat, row.photo, text, keyboard), False
        return await adapter.send_text(chat, text, keyboard, **_mentions(adapter, row)), False
    if row.op == "upsert":
        if known is not None:
            try:
                if row.photo:
                    await adapter.edit_photo(chat, known, row.photo, text, keyboard)
                else:
                    await adapter.edit_text(chat, known, text, keyboard)
                return known, False
            except PermanentError:
                pass  # too old or deleted: send it anew below
        if row.photo:
            new_id = await adapter.send_photo(chat, row.photo, text, keyboard)
        else:
            new_id = await adapter.send_text(chat, text, keyboard)
        if row.is_group and (row.ref or "").startswith("board:") and getattr(adapter, "pins_board", False):
            await _pin_quietly(adapter, chat, new_id)
        return new_id, True
    if row.op == "append":  # a bot's turn goes on in its message (`service.delivery.gather`)
        if known:
            try:
                await adapter.edit_text(chat, known, text)
                return known, False
            except PermanentError:
                pass  # past editing: its own lines in a message of their own
        return await adapter.send_text(chat, row.payload.get("own", text)), True
    if row.op == "gathered":  # its lines went with an earlier row of the batch
        return None, False
    if row.op == "document":
        return await adapter.send_document(chat, row.photo or b"", row.payload.get("filename", "file.txt"), text), False
    if row.op in ("restrict", "unrestrict"):
        await adapter.set_silence(chat, row.op == "restrict")
        return None, False
    if row.op == "delete":
        await adapter.delete(chat, row.payload["message_id"])
        return None, False
    raise PermanentError(f"unknown outbox op {row.op!r}")


async def _pin_quietly(adapter: ChatAdapter, chat: str, message_id: str) -> None:
    """Pin a group's new board message (adapters with `pins_board`, e.g. Telegram); a pin never fails the send."""
    try:
        await adapter.pin(chat, message_id)
    except (PermanentError, TransientError, RateLimited) as exc:
        log.info("outbox.pin_skipped", chat=chat, error=str(exc))


def _mentions(adapter: ChatAdapter, row: OutboxRow) -> dict[str, Any]:
    """A row's `mention_users`, for an adapter that notifies them (`takes_mentions`, e.g. Telegram)."""
    users = row.payload.get("mention_users")
    return {"mentions": tuple(users)} if users and getattr(adapter, "takes_mentions", False) else {}


def _keyboard(raw: Any) -> list[list[Button]] | None:
    if not raw:
        return None
    return [[Button(label, data) for label, data in row] for row in raw]
