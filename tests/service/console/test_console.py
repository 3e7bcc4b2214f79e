"""The console: an adapter that prints, and a human playing by typing numbers, through the whole pipeline."""

from __future__ import annotations

import asyncio
import io
import random
import re

import pytest

from service.chat.base import Button
from service.chat.console import GROUP, ConsoleAdapter, dm_chat, play
from service.render.i18n import t


def test_adapter_prints_the_group_and_human_chats_only():
    out = io.StringIO()
    adapter = ConsoleAdapter(out=out, humans={dm_chat("you"): "you"})
    keys = [[Button("Listen", "1:0:listen"), Button("Quest", "1:0:quest:picts")]]

    async def scenario():
        board = await adapter.send_text(GROUP, "the board")
        await adapter.send_text(dm_chat("bot"), "the bot's secret hand", keys)
        mine = await adapter.send_text(dm_chat("you"), "your hand", keys)
        await adapter.edit_text(GROUP, board, "the board")  # unchanged: nothing printed
        await adapter.edit_text(dm_chat("you"), mine, "your hand, later", [[Button("Pass", "1:1:pass")]])
        await adapter.set_silence(GROUP, True)

    asyncio.run(scenario())
    text = out.getvalue()
    assert "secret" not in text
    assert text.count("the board") == 1
    assert "── to you ──\nyour hand\n   1. Listen\n   2. Quest" in text
    assert "── to you (updated) ──\nyour hand, later\n   1. Pass" in text
    assert "🔇" in text and adapter.silenced
    assert adapter.choices[dm_chat("you")] == [("Pass", "1:1:pass")]
    assert adapter.choices[dm_chat("bot")] == [("Listen", "1:0:listen"), ("Quest", "1:0:quest:picts")]


def _reader(seed: int, limit: int, log: list[str]):
    """A player who types a random valid number (and now and then something invalid), at most `limit` times."""
    rng = random.Random(seed)

    def read(prompt: str) -> str:
        if len(log) >= limit:
            raise EOFError
        top = int(re.search(r"\[1-(\d+)", prompt).group(1))
        answer = rng.choice(["x", "0", str(top + 1)]) if rng.random() < 0.05 else str(rng.randint(1, top))
        log.append(answer)
        return answer

    return read


@pytest.mark.parametrize(("game", "players", "bots"), [("cards", 3, 2), ("board", 3, 2), ("cards", 4, 2)])
def test_humans_play_a_whole_game_by_typing_numbers(backbone_local, game, players, bots):
    out, typed = io.StringIO(), []
    outcome = play(game, players=players, bots=bots, seed=5, out=out, read=_reader(5, 4000, typed))
    text = out.getvalue()
    assert outcome.finished, text[-3000:]
    assert outcome.moves > 5 and typed
    headers = set(re.findall(r"^── (.+?) ──$", text, re.M))
    humans = {"you"} if players - bots == 1 else {f"you{i + 1}" for i in range(players - bots)}
    # only the table and the humans' own direct chats are shown
    assert {h.removesuffix(" (updated)").removeprefix("to ") for h in headers if not h.startswith("table")} <= humans
    assert any(h.startswith("to ") for h in headers)
    assert "type a number" in text or all(a.isdigit() for a in typed)  # invalid input is answered, not fatal


def test_stopping_leaves_the_game_unfinished(backbone_local):
    out = io.StringIO()
    outcome = play("cards", players=3, bots=2, seed=2, out=out, read=lambda prompt: "q")
    assert not outcome.finished
    assert "not finished" in outcome.summary


def test_the_terminal_follows_lang_for_everything_it_prints(backbone_local):
    """A second game in the same database in another language: nothing of the first's language is left."""
    answers = iter(["1", "1", "q"])  # a few choices: the person is known to speak Italian from now on
    play("board", players=3, bots=2, seed=5, lang="it", out=io.StringIO(), read=lambda prompt: next(answers, "q"))
    out = io.StringIO()
    play("board", players=3, bots=2, seed=5, lang="pl", out=out, read=lambda prompt: "q")
    text = out.getvalue()
    assert t("pl", "ask.header", where="").split(": ")[-1] in text  # the question in Polish ("twoja decyzja")
    assert t("it", "you.loyalty", loyalty="").split(":")[0] not in text  # no Italian hand panel ("Lealtà")
    assert not re.search(r"button|przycisk", text, re.I)  # a terminal: numbers, never buttons


def test_refused_choice_leaves_the_panel_buttons_usable():
    adapter = ConsoleAdapter(out=io.StringIO(), humans={dm_chat("you"): "you"})

    async def scenario():
        panel = await adapter.send_text(dm_chat("you"), "panel", [[Button("Pass", "1:4:pass")]])
        adapter.choices.pop(dm_chat("you"))  # the human picked; only a notice came back
        await adapter.send_text(dm_chat("you"), "This choice has expired.")
        return panel

    panel = asyncio.run(scenario())
    adapter.restore_choices()
    assert adapter.choices[dm_chat("you")] == [("Pass", "1:4:pass")]
    asyncio.run(adapter.edit_text(dm_chat("you"), panel, "panel, nothing to decide"))
    adapter.choices.pop(dm_chat("you"), None)
    adapter.restore_choices()
    assert dm_chat("you") not in adapter.choices  # the panel no longer asks anything
