"""Claiming an update in the transaction of its effect, for work that spans several transactions (a lobby command).

Inside `claiming(platform, update_id)`, the first session transaction that commits also claims the update
(`games.claim_update`): the command's effect and its claim commit together, or neither does. So a command whose
worker died before that commit runs again when redelivered, and one redelivered after it is a duplicate: the
transaction that would repeat it raises `DuplicateUpdate` and rolls back. If nothing commits inside the block, the
claim commits alone when it ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from sqlalchemy import event
from sqlalchemy.orm import Session

from service.store.db import session_scope
from service.store.games import claim_update


class DuplicateUpdate(Exception):
    """The update was already applied: what was about to commit for it again is rolled back."""


_pending: ContextVar[list[str] | None] = ContextVar("claim_pending", default=None)  # [platform, update id]


@contextmanager
def claiming(platform: str, update_id: str) -> Iterator[None]:
    """A block whose first committed session transaction claims the update (see the module's docstring)."""
    pending = [platform, update_id]
    token = _pending.set(pending)
    try:
        yield
    finally:
        _pending.reset(token)
    if pending:  # nothing committed inside: the claim alone
        with session_scope() as s:
            _claim(s, pending)


@event.listens_for(Session, "before_commit")
def _claim_with_the_first_commit(s: Session) -> None:
    pending = _pending.get()
    if pending:
        _claim(s, pending)


def _claim(s: Session, pending: list[str]) -> None:
    platform, update_id = pending
    pending.clear()  # claimed, or found claimed: either way not again in this block
    if not claim_update(s, platform, update_id):
        raise DuplicateUpdate(f"{platform} update {update_id} was already applied")
