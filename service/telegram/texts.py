"""The gateway's own few texts (help, the direct-chat greeting, tap answers), through the catalogs.

English defaults live here until the catalogs carry these ids; the player's Telegram language picks the catalog.
"""

from __future__ import annotations

from typing import Any

from service.render import i18n

DEFAULTS = {
    "telegram.help": (
        "Shadows over Camelot, played here by tapping buttons.\n"
        "/newgame – open a table in this group (board game or card game)\n"
        "Join – opens our direct chat, where your cards and choices arrive\n"
        "/status – show the board again\n"
        "/rules – a short summary of the rules\n"
        "/help – this message"
    ),
    "telegram.welcome": "Welcome to Camelot! Your cards and choices will arrive in this chat.",
    "telegram.open_dm": "{name}, open our direct chat once so I can send you your cards: tap the button below.",
    "telegram.open_dm_button": "Open the direct chat",
    "telegram.expired": "This choice has expired.",
    "telegram.unknown": "That button is not valid any more.",
    "telegram.group_only": "Use this command in the group where you play.",
}


def tr(lang: str | None, msgid: str, **kwargs: Any) -> str:
    text = i18n.t(lang, msgid, **kwargs)
    if text == msgid and msgid in DEFAULTS:
        return DEFAULTS[msgid].format(**kwargs)
    return text
