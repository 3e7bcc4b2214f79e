"""The command menu in each language (issue 23 item 12): set at the gateway's start, read back from the fake Bot API
as Telegram shows it to a person by their app's language."""

from __future__ import annotations

import asyncio

import telegram
from fake_bot_api import FakeBotApi

from service.render import i18n
from service.telegram import menus


def test_every_language_gets_the_menu_in_its_own_words(fake_api: FakeBotApi) -> None:
    async def publish() -> int:
        async with telegram.Bot(fake_api.token, base_url=fake_api.base_url) as bot:
            return await menus.set_commands(bot)

    assert asyncio.run(publish()) == 1 + len(i18n.available_languages())
    for lang in ("", *i18n.available_languages()):
        shown = fake_api.world.commands[(("default",), lang)]
        assert [c["command"] for c in shown] == list(menus.MENU)
        expected = i18n.t(lang or "en", "command.log")
        assert next(c["description"] for c in shown if c["command"] == "log") == expected
    assert fake_api.world.commands[(("default",), "ro")] != fake_api.world.commands[(("default",), "en")]


def test_a_gateway_that_sends_deliveries_still_sets_the_menus(fake_api: FakeBotApi, monkeypatch) -> None:
    """With a broker the gateway's start also starts its delivery consumer: that must not replace the menus."""
    from service.telegram import app as gateway

    started: list[str] = []

    class Consumer:
        def start(self) -> None:
            started.append("consumer")

        async def stop(self) -> None:
            started.append("stopped")

    class Broker:
        def consume_deliveries(self, platform: str) -> Consumer:
            return Consumer()

    monkeypatch.setattr(gateway.queue, "broker", Broker)
    monkeypatch.setattr(gateway, "sweep_outbox", lambda platform: started.append(f"swept {platform}"))
    application = gateway.build_application(fake_api.token, fake_api.base_url, backbone=lambda *_: None)
    gateway._send_deliveries(application)

    async def start() -> None:
        async with application:
            await application.post_init(application)

    asyncio.run(start())
    assert started == ["consumer", "swept telegram"]
    assert [c["command"] for c in fake_api.world.commands[(("default",), "en")]] == list(menus.MENU)
