"""The Telegram gateway: PTB handlers (inbound) and `TelegramAdapter` (outbound). `run()` is `camelot serve --telegram`.

Importing this package registers the adapter with `service.chat.registry`, so a worker that imports it can deliver.
"""

from __future__ import annotations

from service.chat import registry
from service.telegram.adapter import TelegramAdapter


def run() -> None:
    from service.telegram.app import run as run_app

    run_app()


registry.register("telegram", TelegramAdapter)

__all__ = ["TelegramAdapter", "run"]
