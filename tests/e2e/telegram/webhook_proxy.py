"""The load balancer in front of several webhook gateways of one bot: one URL for Telegram, each update passed to
the next gateway in turn, and to the one after it when that one does not answer (killed)."""

from __future__ import annotations

import asyncio
import itertools
import threading

import aiohttp
from aiohttp import web


class WebhookProxy:
    """`with WebhookProxy([port, …]) as proxy:` serves `proxy.url`; `proxy.served[port]` counts updates passed."""

    def __init__(self, backends: list[int], path: str = "/tg-hook") -> None:
        self.backends, self.path = backends, path
        self.served = dict.fromkeys(backends, 0)
        self._turn = itertools.cycle(backends)
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="webhook-proxy", daemon=True)
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.path}"

    def __enter__(self) -> WebhookProxy:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("webhook proxy did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        app = web.Application()
        app.router.add_post(self.path, self._pass)
        runner = web.AppRunner(app, access_log=None)
        self._loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        self._loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            self._loop.run_until_complete(runner.cleanup())

    async def _pass(self, request: web.Request) -> web.Response:
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower().startswith(("x-telegram", "content-type"))}
        async with aiohttp.ClientSession() as session:
            for _ in self.backends:
                port = next(self._turn)
                try:
                    async with session.post(
                        f"http://127.0.0.1:{port}{self.path}", data=body, headers=headers,
                        timeout=aiohttp.ClientTimeout(total=10),
                    ) as resp:
                        self.served[port] += resp.status == 200
                        return web.Response(status=resp.status, body=await resp.read())
                except (aiohttp.ClientError, TimeoutError):
                    continue  # that gateway is gone: the next one
        return web.Response(status=502)
