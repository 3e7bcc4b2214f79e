"""The PTB application: handlers wired up, then long polling or a webhook (with its secret token checked).

Webhook mode runs as many gateways per bot as wanted behind one URL: updates are deduplicated by the backbone, and
each delivery shard is sent by one gateway at a time under a lease (`service.delivery.leases`). Telegram allows one
long poll per bot: in polling mode a second gateway says so and stands by until the first one's poll lease lapses.
"""

from __future__ import annotations

import os
import signal
from urllib.parse import urlparse

import structlog
from telegram import Update
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, MessageHandler, filters

from service.delivery.leases import stand_by
from service.play import queue
from service.play.scans import sweep_outbox
from service.settings import get_settings
from service.telegram import handlers, health, menus
from service.telegram.inbound import COMMANDS
from service.telegram.ordering import ChatOrder

ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY]
log = structlog.get_logger(__name__)


def build_application(
    token: str | None = None, base_url: str | None = None, backbone: handlers.Backbone | None = None
) -> Application:
    """The gateway's application; `base_url` points it at another Bot API server (the tests' fake one)."""
    settings = get_settings()
    token = token or settings.telegram_token
    if not token:
        raise SystemExit("TELEGRAM_TOKEN is not set: create a bot with @BotFather and export its token")
    builder = Application.builder().token(token)
    base_url = base_url or settings.telegram_base_url
    if base_url:
        builder = builder.base_url(base_url)
    app = builder.concurrent_updates(ChatOrder()).post_init(_menus).build()  # each chat's updates in order
    app.bot_data["backbone"] = backbone or handlers.dispatch_backbone()
    # first, in a group of its own: a silenced player's message is removed whatever else it is
    in_groups = filters.ChatType.SUPERGROUP & ~filters.StatusUpdate.ALL
    app.add_handler(MessageHandler(in_groups, handlers.on_table_message), -1)
    app.add_handler(CommandHandler("start", handlers.on_start))
    app.add_handler(CommandHandler(sorted(COMMANDS - {"start"}), handlers.on_command))
    app.add_handler(CallbackQueryHandler(handlers.on_tap))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, handlers.on_migrate))
    return app


async def _menus(app: Application) -> None:
    await menus.set_commands(app.bot)


def run() -> None:
    """`camelot serve --telegram`: webhook mode when TELEGRAM_WEBHOOK_URL is set, else long polling. With a broker
    the gateway also sends the outbox (its broker's delivery consumer, `workers.deliveries`)."""
    settings = get_settings()
    app = build_application()
    if settings.celery_broker_url:
        _send_deliveries(app)
    health.serve(app)
    if settings.telegram_webhook_url:
        if not settings.telegram_webhook_secret:
            raise SystemExit("TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL")
        app.run_webhook(
            listen=settings.telegram_webhook_listen,
            port=settings.telegram_webhook_port,
            url_path=urlparse(settings.telegram_webhook_url).path.lstrip("/"),
            webhook_url=settings.telegram_webhook_url,
            secret_token=settings.telegram_webhook_secret,
            allowed_updates=ALLOWED_UPDATES,
        )
    else:
        _poll_alone(settings.telegram_token or "")
        app.run_polling(allowed_updates=ALLOWED_UPDATES)


def _poll_alone(token: str) -> None:
    """Take the bot's poll lease before polling: a second poller would make Telegram end the first one's requests
    (409 Conflict) in turns. With Redis sessions a second gateway waits here, saying so, until the first one dies;
    should this one stall past its lease and lose it, it stops (SIGTERM to itself: PTB's orderly stop)."""
    bot = token.split(":", 1)[0]
    if not get_settings().redis_url:
        log.info("telegram.polling_alone", detail="no REDIS_URL: nothing can tell a second poller of this bot")
        return
    stand_by(
        f"poll:telegram:{bot}",
        "polls this bot (Telegram allows one poller per bot; run several gateways with TELEGRAM_WEBHOOK_URL)",
        on_lost=lambda: os.kill(os.getpid(), signal.SIGTERM),
    )


def _send_deliveries(app: Application) -> None:
    """Consume Telegram's delivery queue while the application runs; what a killed predecessor left pending (its
    deliver task died with it) is asked for at once, and sent once its shard leases have lapsed."""
    consumer = queue.broker().consume_deliveries("telegram")
    menus_set = app.post_init  # the command menus (`build_application`): kept, not replaced

    async def started(application: Application) -> None:
        if menus_set is not None:
            await menus_set(application)
        consumer.start()
        sweep_outbox("telegram")

    async def stopped(_: Application) -> None:
        await consumer.stop()

    app.post_init = started
    app.post_stop = stopped
