"""A local stand-in for api.telegram.org: the real HTTP API on 127.0.0.1, run in its own thread.

Point python-telegram-bot at `api.base_url` (its `base_url`, token appended as usual). Tests act as users through
the sync helpers (`say`, `open_bot`, `open_link`, `tap`), read what each chat received (`records`, `messages`), and
assert that nothing was refused (`rejected`, `errors`) or throttled (`throttled`).
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections import Counter
from typing import Any

import aiohttp
from aiohttp import web

from .limits import RateLimits
from .methods import Methods
from .people import DEFAULT_BOT_RIGHTS, FORUM_BOT_RIGHTS, CannotSend, People
from .spec import FilePart, Spec, SpecError
from .world import ApiError, World

_PATH = re.compile(r"^/bot([^/]+)/([A-Za-z]+)$")
SENDING = ("send", "edit", "delete", "pin")  # the methods that change what people see
__all__ = ["DEFAULT_BOT_RIGHTS", "FORUM_BOT_RIGHTS", "CannotSend", "FakeBotApi"]


class FakeBotApi(People):
    """One fake Telegram for one bot. Use as a context manager, or call start()/stop()."""

    def __init__(
        self,
        token: str = "123456:TEST-token",
        bot_username: str = "camelot_test_bot",
        limits: RateLimits | None = None,
        spec: Spec | None = None,
        first_id: int = 0,
    ) -> None:
        self.spec = spec or Spec.load()
        self.world = World(token, bot_username, limits or RateLimits(), first_id)
        self.methods = Methods(self.world)
        self.canonical = {name.lower(): name for name in self.spec.methods}
        self.errors: list[tuple[str, int, str]] = []  # every error answer: (method, code, description)
        self.calls: Counter[str] = Counter()  # requests per method
        self.webhook_deliveries = 0
        self.latency = 0.0  # seconds each call that sends, edits, deletes or pins takes before it is answered
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._changed: asyncio.Future[None] | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle ------------------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def rejected(self) -> list[tuple[str, str]]:
        return self.world.rejected

    @property
    def throttled(self) -> list[tuple[str, int, int, float, str]]:
        return self.world.throttled

    def __enter__(self) -> FakeBotApi:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(ready,), name="fake-bot-api", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("fake Bot API server did not start")

    def stop(self) -> None:
        if self._loop and self._thread:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)

    def _serve(self, ready: threading.Event) -> None:
        loop = self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._changed = loop.create_future()
        app = web.Application(client_max_size=20 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        pusher = loop.create_task(self._push_webhooks())
        ready.set()
        try:
            loop.run_forever()
        finally:
            pusher.cancel()
            loop.run_until_complete(asyncio.gather(pusher, return_exceptions=True))
            loop.run_until_complete(self._runner.cleanup())
            loop.close()

    def _notify(self) -> None:
        """Wake long polls and the webhook pusher (call from any thread)."""

        def wake() -> None:
            assert self._loop is not None
            if self._changed and not self._changed.done():
                self._changed.set_result(None)
            self._changed = self._loop.create_future()

        if self._loop:
            self._loop.call_soon_threadsafe(wake)

    async def _wait_change(self, timeout: float) -> None:
        assert self._changed is not None
        await asyncio.wait({self._changed}, timeout=timeout)

    # --- HTTP -----------------------------------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.Response:
        m = _PATH.match(request.path)
        if not m:
            return _error(404, "Not Found")
        token, name = m.groups()
        method = self.canonical.get(name.lower())
        if token != self.world.token:
            return _error(401, "Unauthorized")
        if method is None:
            return _error(404, "Not Found: method not found")
        self.calls[method] += 1
        try:
            params, form = await _params(request)
            with self.world.lock:
                decoded = self.spec.check_request(method, params, form=form)
            decoded["_attachments"] = {k: v for k, v in params.items() if isinstance(v, FilePart)}
            if self.latency and method.startswith(SENDING):
                await asyncio.sleep(self.latency)  # Telegram's own time for a send, as the bot sees it
            if method == "getUpdates":
                result: Any = await self._get_updates(decoded)
            else:
                handler = self.methods.handlers.get(method)
                if handler is None:
                    raise ApiError(501, f"Not Implemented: {method} is not modelled by the fake server")
                with self.world.lock:
                    result = handler(decoded)
            self._check_result(method, result)
        except SpecError as exc:
            with self.world.lock:
                self.world.rejected.append((method, str(exc)))
            return self._fail(method, ApiError(400, f"Bad Request: {exc}"))
        except ApiError as exc:
            if exc.code == 501:
                with self.world.lock:
                    self.world.rejected.append((method, exc.description))
            return self._fail(method, exc)
        if method in self.methods.handlers and method.startswith((*SENDING, "set")):
            self._notify()
        return web.json_response({"ok": True, "result": result})

    def _fail(self, method: str, exc: ApiError) -> web.Response:
        with self.world.lock:
            self.errors.append((method, exc.code, exc.description))
        return _error(exc.code, exc.description, exc.retry_after, exc.migrate_to_chat_id)

    def _check_result(self, method: str, result: Any) -> None:
        """Our own answers must be valid Bot API objects too, or the test would prove nothing."""
        if not isinstance(result, dict | list):
            return
        returns = self.spec.methods[method]["returns"]
        for type_name in returns:
            try:
                if type_name.startswith("Array of "):
                    for item in result:
                        self.spec.check_object(type_name[len("Array of ") :], item)
                elif type_name in self.spec.types and isinstance(result, dict):
                    self.spec.check_object(type_name, result)
                else:
                    continue
                return
            except SpecError as exc:
                last = exc
        raise AssertionError(f"fake server built an invalid {returns} for {method}: {last}")

    async def _get_updates(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        if self.world.webhook:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook "
                "to delete the webhook first",
            )
        deadline = time.monotonic() + min(p.get("timeout", 0), 50)
        while True:
            with self.world.lock:
                found = self.methods.pending_updates(
                    p.get("offset"), min(p.get("limit", 100), 100), p.get("allowed_updates")
                )
            left = deadline - time.monotonic()
            if found or left <= 0:
                return found
            await self._wait_change(left)

    async def _push_webhooks(self) -> None:
        async with aiohttp.ClientSession() as session:
            while True:
                with self.world.lock:
                    hook = dict(self.world.webhook) if self.world.webhook else None
                    todo = self.methods.pending_updates(None, 100, hook["allowed_updates"]) if hook else []
                if not todo:
                    await self._wait_change(1.0)
                    continue
                assert hook is not None
                headers = {"X-Telegram-Bot-Api-Secret-Token": hook["secret_token"]} if hook["secret_token"] else {}
                for update in todo:
                    try:
                        async with session.post(
                            hook["url"], json=update, headers=headers, timeout=aiohttp.ClientTimeout(total=10)
                        ) as resp:
                            ok = resp.status == 200
                    except (aiohttp.ClientError, TimeoutError):
                        ok = False
                    if not ok:
                        await asyncio.sleep(0.2)
                        break
                    with self.world.lock:
                        self.world.confirmed = max(self.world.confirmed, update["update_id"] + 1)
                        self.webhook_deliveries += 1


async def _params(request: web.Request) -> tuple[dict[str, Any], bool]:
    """Query string plus a JSON, urlencoded or multipart body; `form` tells that values are text."""
    params: dict[str, Any] = dict(request.query)
    form = True
    if request.can_read_body:
        if request.content_type == "application/json":
            body = await request.json()
            if not isinstance(body, dict):
                raise SpecError("the JSON body must be an object")
            params, form = body, False
        else:
            post = await request.post()
            for key, value in post.items():
                params[key] = FilePart(value.filename, value.file.read()) if isinstance(value, web.FileField) else value
    return params, form


def _error(
    code: int, description: str, retry_after: int | None = None, migrate_to_chat_id: int | None = None
) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
    parameters = {"retry_after": retry_after, "migrate_to_chat_id": migrate_to_chat_id}
    if any(v is not None for v in parameters.values()):
        body["parameters"] = {k: v for k, v in parameters.items() if v is not None}
    return web.json_response(body, status=code)
