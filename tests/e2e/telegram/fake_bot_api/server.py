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
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlparse

import aiohttp
from aiohttp import web

from .methods import Methods
from .spec import FilePart, Spec, SpecError
from .world import ApiError, Chat, Message, RateLimits, User, World

_PATH = re.compile(r"^/bot([^/]+)/([A-Za-z]+)$")
_PAYLOAD = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
DEFAULT_BOT_RIGHTS = {"can_restrict_members": True, "can_pin_messages": True, "can_delete_messages": True}


class CannotSend(Exception):
    """A user's Telegram app would not let them send here (restricted, or not a member)."""


class FakeBotApi:
    """One fake Telegram for one bot. Use as a context manager, or call start()/stop()."""

    def __init__(
        self,
        token: str = "123456:TEST-token",
        bot_username: str = "camelot_test_bot",
        limits: RateLimits | None = None,
        spec: Spec | None = None,
    ) -> None:
        self.spec = spec or Spec.load()
        self.world = World(token, bot_username, limits or RateLimits())
        self.methods = Methods(self.world)
        self.canonical = {name.lower(): name for name in self.spec.methods}
        self.errors: list[tuple[str, int, str]] = []  # every error answer: (method, code, description)
        self.calls: Counter[str] = Counter()  # requests per method
        self.webhook_deliveries = 0
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
        if method in self.methods.handlers and method.startswith(("send", "edit", "delete", "pin", "set")):
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

    # --- acting as users (sync, thread-safe) ----------------------------------------------------------------
    def add_user(self, first_name: str, username: str | None = None, language_code: str | None = "en") -> User:
        with self.world.lock:
            return self.world.new_user(first_name, username, language_code)

    def add_group(
        self,
        title: str,
        members: list[User],
        admins: list[User] = (),  # type: ignore[assignment]
        bot_rights: dict[str, bool] | None = DEFAULT_BOT_RIGHTS,
        basic: bool = False,
    ) -> Chat:
        """A supergroup with the bot in it (`basic`: a basic group, which `migrate` upgrades); `bot_rights=None`
        leaves the bot a plain member."""
        with self.world.lock:
            chat = self.world.new_group(title, basic)
            for user in members:
                chat.members[user.id] = "member"
            for user in admins:
                chat.members[user.id] = "administrator"
            if members or admins:
                chat.members[(list(admins) or members)[0].id] = "creator"
            chat.bot_rights = dict(bot_rights) if bot_rights is not None else None
            return chat

    def migrate(self, chat_id: int, by: User) -> Chat:
        """`by` upgrades a basic group to a supergroup, as Telegram does (e.g. when an admin is given some rights):
        a new chat id with the same members, permissions and bot rights, a service message in each chat
        (`migrate_to_chat_id` in the old one, `migrate_from_chat_id` in the new one; a bot gets both even in
        privacy mode), and from then on the old id answers 400 with `migrate_to_chat_id`. The old messages stay
        with the old id."""
        with self.world.lock:
            old = self.world.chats[chat_id]
            if old.type != "group" or old.migrated_to is not None:
                raise ValueError(f"{old.title} is not a basic group")
            new = self.world.new_group(old.title or "")
            new.members, new.permissions = dict(old.members), dict(old.permissions)
            new.bot_rights = dict(old.bot_rights) if old.bot_rights is not None else None
            old.migrated_to = new.id
            now = int(self.world.now())
            for chat, fields in ((old, {"migrate_to_chat_id": new.id}), (new, {"migrate_from_chat_id": old.id})):
                msg = Message(chat.next_id(), chat.id, by.id, now, **fields)
                chat.messages[msg.message_id] = msg
                self.world.push_update("message", self.world.message_api(chat, msg))
        self._notify()
        return new

    def say(self, user: User, chat_id: int, text: str) -> dict[str, Any]:
        """The user sends `text` in a chat (a group, or their direct chat with the bot)."""
        with self.world.lock:
            if chat_id == user.id:
                user.started = True
                chat = self.world.private_chat(user)
            else:
                chat = self.world.chats[chat_id]
                if chat.migrated_to is not None:
                    raise CannotSend(f"{chat.title} is now the supergroup {chat.migrated_to}")
                if not chat.may_send(user.id):
                    raise CannotSend(f"{user.first_name} may not send in {chat.title}")
            entities = None
            command = re.match(r"^/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?", text)
            if command:
                entities = [{"type": "bot_command", "offset": 0, "length": command.end()}]
            msg = Message(chat.next_id(), chat.id, user.id, int(self.world.now()), text=text, entities=entities)
            chat.messages[msg.message_id] = msg
            payload = self.world.message_api(chat, msg)
            addressed = command and (command.group(1) in (None, "@" + self.world.bot["username"]))
            if not chat.is_group or addressed or f"@{self.world.bot['username']}" in text:
                self.world.push_update("message", payload)  # privacy mode: groups show the bot commands only
        self._notify()
        return payload

    def open_bot(self, user: User, payload: str | None = None) -> dict[str, Any]:
        """The user opens the bot's direct chat (Start), with a deep-link payload if any."""
        if payload is not None and not _PAYLOAD.match(payload):
            raise ValueError(f"invalid deep-link payload {payload!r}")
        return self.say(user, user.id, "/start" + (f" {payload}" if payload else ""))

    def open_link(self, user: User, url: str) -> dict[str, Any]:
        """Follow a t.me link to this bot, as a phone would."""
        parsed = urlparse(url)
        if parsed.hostname != "t.me" or parsed.path.strip("/") != self.world.bot["username"]:
            raise ValueError(f"not a link to this bot: {url}")
        start = parse_qs(parsed.query).get("start")
        return self.open_bot(user, start[0] if start else None)

    def buttons(self, chat_id: int, message_id: int) -> list[dict[str, Any]]:
        with self.world.lock:
            msg = self.world.chats[chat_id].messages.get(message_id)
            markup = msg.reply_markup if msg else None
            return [b for row in (markup or {}).get("inline_keyboard", []) for b in row]

    def tap(self, user: User, chat_id: int, message_id: int, data: str, forge: bool = False) -> str:
        """Tap the button with callback `data` on a bot message; `forge` sends data no button carries."""
        with self.world.lock:
            chat = self.world.chats[chat_id]
            msg = chat.messages.get(message_id)
            if msg is None:
                raise LookupError("no such message")
            if not forge and data not in (b.get("callback_data") for b in self.buttons(chat_id, message_id)):
                raise LookupError(f"no button with data {data!r}")
            if chat.is_group and user.id not in chat.members:
                raise CannotSend("not a member")
            query_id = self.world.new_callback_id()
            self.world.callbacks[query_id] = {
                "user": user.id,
                "data": data,
                "at": self.world.now(),
                "answered_at": None,
                "answer": None,
            }
            self.world.push_update(
                "callback_query",
                {
                    "id": query_id,
                    "from": user.as_api(),
                    "message": self.world.message_api(chat, msg),
                    "chat_instance": str(abs(chat.id)),
                    "data": data,
                },
            )
        self._notify()
        return query_id

    def answer(self, query_id: str, timeout: float = 10.0) -> str:
        """The text the bot answered a tap with (waits for the answer)."""
        self.wait(
            lambda: self.world.callbacks[query_id]["answered_at"] is not None, timeout, f"tap {query_id} not answered"
        )
        return self.world.callbacks[query_id]["answer"] or ""

    def wait(self, predicate: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
        deadline = time.monotonic() + timeout
        while True:
            with self.world.lock:
                value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out waiting for {what}")
            time.sleep(0.02)

    def records(self, chat_id: int | None = None, action: str | None = None) -> list[Any]:
        with self.world.lock:
            return [
                r
                for r in self.world.records
                if (chat_id is None or r.chat_id == chat_id) and (action is None or r.action == action)
            ]

    def messages(self, chat_id: int) -> list[Message]:
        """The chat's current messages from the bot, oldest first."""
        with self.world.lock:
            chat = self.world.chats[chat_id]
            return [m for m in chat.messages.values() if m.from_id == self.world.bot["id"]]

    def advance_clock(self, seconds: float) -> None:
        with self.world.lock:
            self.world.clock_offset += seconds


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
