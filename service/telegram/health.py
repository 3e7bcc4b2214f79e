"""The Telegram gateway seen from outside: ready once its application runs (PTB's `initialize` has asked getMe, so the
token works) and its updater polls or serves the webhook; and `camelot doctor`'s check of the token (getMe through
TELEGRAM_BASE_URL, the tests' fake Bot API)."""

from __future__ import annotations

import asyncio

from telegram import Bot
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.ext import Application

from service.observability import checks, http
from service.settings import get_settings

NAME = "telegram"


def serve(app: Application) -> None:
    """The gateway's /metrics, /healthz and /readyz, its readiness asking `app` (called before it runs)."""
    checks.register(NAME, lambda: connected(app))
    http.serve(NAME)


def connected(app: Application) -> str:
    """Whether the application runs (getMe succeeded) and polls or serves its webhook, in words."""
    if not app.running:
        raise checks.Problem("not running yet: getMe has not answered")
    if app.updater is None or not app.updater.running:
        raise checks.Problem("neither polling nor the webhook server runs")
    mode = "webhook" if get_settings().telegram_webhook_url else "polling"
    return f"@{app.bot.username}, {mode}"


def token_check() -> str:
    """getMe with TELEGRAM_TOKEN through TELEGRAM_BASE_URL: the bot's name, or what is wrong in words."""
    settings = get_settings()
    if not settings.telegram_token:
        raise checks.Problem("TELEGRAM_TOKEN is not set: create a bot with @BotFather and set its token")
    return asyncio.run(_get_me(settings.telegram_token, settings.telegram_base_url))


async def _get_me(token: str, base_url: str | None) -> str:
    bot = Bot(token, base_url=base_url) if base_url else Bot(token)
    where = base_url or "the Bot API"
    try:
        async with bot:  # initialize: getMe
            me = bot.bot
    except InvalidToken:
        raise checks.Problem(f"{where} refused TELEGRAM_TOKEN (Unauthorized): check it with @BotFather") from None
    except NetworkError as exc:
        raise checks.Problem(f"cannot reach {where}: {exc.message}") from None
    except TelegramError as exc:
        raise checks.Problem(f"getMe failed: {exc.message}") from None
    return f"@{me.username} (id {me.id}) at {where}"
