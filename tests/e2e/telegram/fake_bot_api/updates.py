"""Updates and their answers: callback queries (which expire), webhooks, and the queue getUpdates reads."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from .base import QUERY_TOO_OLD, Base
from .world import ApiError

UPDATE_KINDS = ("message", "edited_message", "callback_query", "my_chat_member", "chat_member")


class UpdateMethods(Base):
    def answer_callback(self, p: dict[str, Any]) -> bool:
        """Once, and only while the query is young (World.callback_ttl); else the real server's 400."""
        query = self.w.callbacks.get(p["callback_query_id"])
        if query is None or query["answered_at"] is not None or self.w.now() - query["at"] > self.w.callback_ttl:
            if query is not None:
                query["refused"] = query.get("refused", 0) + 1
            raise ApiError(400, QUERY_TOO_OLD)
        query["answered_at"] = self.w.now()
        query["answer"] = p.get("text", "")
        query["alert"] = p.get("show_alert", False)
        return True

    def set_webhook(self, p: dict[str, Any]) -> bool:
        url = p["url"]
        if not url:
            return self.delete_webhook(p)
        host = urlparse(url).hostname
        if host not in ("127.0.0.1", "localhost"):
            raise ApiError(400, "Bad Request: bad webhook: this fake server only delivers to loopback")
        if p.get("drop_pending_updates"):
            self.w.confirmed = self.w.updates[-1]["update_id"] + 1 if self.w.updates else 0
        self.w.webhook = {
            "url": url,
            "secret_token": p.get("secret_token"),
            "allowed_updates": p.get("allowed_updates"),
        }
        return True

    def delete_webhook(self, p: dict[str, Any]) -> bool:
        self.w.webhook = None
        if p.get("drop_pending_updates"):
            self.w.confirmed = self.w.updates[-1]["update_id"] + 1 if self.w.updates else 0
        return True

    def webhook_info(self, p: dict[str, Any]) -> dict[str, Any]:
        pending = sum(1 for u in self.w.updates if u["update_id"] >= self.w.confirmed)
        url = self.w.webhook["url"] if self.w.webhook else ""
        return {"url": url, "has_custom_certificate": False, "pending_update_count": pending}

    def pending_updates(self, offset: int | None, limit: int, allowed: list[str] | None) -> list[dict[str, Any]]:
        """Updates at or after `offset` (which confirms everything before it), filtered by `allowed`."""
        if offset is not None and offset > 0:
            self.w.confirmed = max(self.w.confirmed, offset)
        kinds = set(allowed) if allowed else set(UPDATE_KINDS) - {"chat_member"}
        out = [u for u in self.w.updates if u["update_id"] >= self.w.confirmed and set(u) & kinds]
        return out[:limit]
