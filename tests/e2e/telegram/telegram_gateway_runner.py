"""Runs the real Telegram gateway (the PTB application from `service.telegram.app`) in its own thread and loop,
pointed at a fake Bot API server, so a test can act as users with the fake server's blocking helpers."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from service.telegram.app import ALLOWED_UPDATES, build_application
from service.telegram.handlers import Backbone


class GatewayThread:
    """`with GatewayThread(api.token, api.base_url): …` — long polling until the block ends."""

    def __init__(
        self, token: str, base_url: str, backbone: Backbone | None = None, *, webhook: dict[str, Any] | None = None
    ) -> None:
        self.token, self.base_url, self.backbone, self.webhook = token, base_url, backbone, webhook
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="telegram-gateway", daemon=True)

    def __enter__(self) -> GatewayThread:
        self._thread.start()
        if not self._ready.wait(20):
            raise RuntimeError("gateway did not start")
        if self._error:
            raise RuntimeError("gateway failed to start") from self._error
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop and self._stop:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(20)

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        app = build_application(self.token, self.base_url, self.backbone)
        try:
            await app.initialize()
            await app.start()
            assert app.updater is not None
            if self.webhook:
                await app.updater.start_webhook(allowed_updates=ALLOWED_UPDATES, **self.webhook)
            else:
                await app.updater.start_polling(poll_interval=0.0, timeout=1, allowed_updates=ALLOWED_UPDATES)
        except BaseException as exc:  # reported to the test thread
            self._error = exc
            self._ready.set()
            raise
        self._ready.set()
        await self._stop.wait()
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
