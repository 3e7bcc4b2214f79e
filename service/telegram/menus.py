"""The bot's command menu in each language (`setMyCommands`), set when the gateway starts: a person sees the
commands described in their own app's language (the default menu is English)."""

from __future__ import annotations

import logging

from telegram import Bot, BotCommand
from telegram.error import TelegramError

from service.render import i18n

log = logging.getLogger(__name__)
# what a person types, in the order the menu lists them (/start is the app's own button)
MENU = ("newgame", "join", "start", "status", "log", "card", "rules", "help", "ratings", "me")


def commands(lang: str) -> list[BotCommand]:
    return [BotCommand(name, i18n.t(lang, f"command.{name}")) for name in MENU]


async def set_commands(bot: Bot) -> int:
    """Set the menu in every catalog language and as the default; returns how many were set (a refusal is logged,
    never fatal: the commands work without a menu)."""
    done = 0
    for lang in ["", *i18n.available_languages()]:
        try:
            await bot.set_my_commands(commands(lang or i18n.SOURCE), language_code=lang or None)
            done += 1
        except TelegramError as exc:
            log.warning("could not set the command menu (%s): %s", lang or "default", exc)
    return done
