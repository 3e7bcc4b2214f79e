"""Chat permissions as Telegram applies them: a group's defaults, one member's restrictions, and the rule that
some rights imply others unless the caller says they are independent (setChatPermissions, restrictChatMember)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ALL_PERMISSIONS = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_react_to_messages",
    "can_edit_tag",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
)
_MEDIA = ALL_PERMISSIONS[:7]  # text messages and every kind of media
RESTRICT_FOREVER_BELOW = 30  # seconds: "less than 30 seconds … from the current time … restricted forever"
RESTRICT_FOREVER_ABOVE = 366 * 86400


def applied(given: dict[str, Any], independent: bool) -> dict[str, bool]:
    """Every permission from a ChatPermissions object (an omitted one is False, as Telegram reads it); without
    `independent`, other messages and link previews imply every kind of message, polls imply text messages."""
    out = {k: bool(given.get(k, False)) for k in ALL_PERMISSIONS}
    if not independent:
        if out["can_send_other_messages"] or out["can_add_web_page_previews"]:
            out.update(dict.fromkeys(_MEDIA, True))
        if out["can_send_polls"]:
            out["can_send_messages"] = True
    return out


@dataclass
class Restriction:
    """One member's restrictions in a supergroup; `until` 0 is forever."""

    permissions: dict[str, bool]
    until: int = 0

    def active(self, now: float) -> bool:
        return self.until == 0 or now < self.until

    @staticmethod
    def until_from(until_date: int | None, now: float) -> int:
        """restrictChatMember's until_date: out of [30 s, 366 days] from now means forever (0)."""
        if not until_date or not RESTRICT_FOREVER_BELOW <= until_date - now <= RESTRICT_FOREVER_ABOVE:
            return 0
        return until_date
