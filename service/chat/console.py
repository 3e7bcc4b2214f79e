"""The terminal as a chat platform: a ChatAdapter that prints, and a gateway loop that reads numbers.

The console plays through the same path as Telegram and Matrix (gateway → task → engine → outbox → adapter):
the loop turns the number a human types into an `Inbound` and hands it to `service.play.dispatch.submit`; what the
worker renders comes back through the outbox to `ConsoleAdapter`. Only the group and the human seats' direct
chats are printed; bots' direct chats are kept (so a human cannot read a bot's hand) but never shown.
"""

from __future__ import annotations

import io
import itertools
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from service.chat import registry
from service.chat.base import Inbound, Keyboard
from service.play import dispatch, lobby
from service.render import result_text
from service.render.i18n import normalize, t
from service.store import migrate, session_scope
from service.store.models import GameRow
from service.store.users import user_for

PLATFORM = "console"
GROUP = "table"


def dm_chat(user: str) -> str:
    return f"dm:{user}"


@dataclass
class _Message:
    chat: str
    text: str
    buttons: Keyboard | None


@dataclass
class ConsoleAdapter:
    """Implements `service.chat.base.ChatAdapter` over a text stream.

    `humans` maps the direct chats printed to the name shown in their header. `choices[chat]` holds the
    buttons of the latest message with buttons in that chat: the numbers the human may type. Edits print only
    their new lines; the whole board is shown again right before a human decides.
    """

    out: TextIO = field(default_factory=lambda: sys.stdout)
    humans: dict[str, str] = field(default_factory=dict)
    silenced: bool = False
    platform: str = PLATFORM
    messages: dict[str, _Message] = field(default_factory=dict)
    choices: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    lang: str = "en"
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _board: tuple[str, bool] = ("", True)  # the group's edited board: latest text, shown whole since?

    def _visible(self, chat: str) -> bool:
        return chat == GROUP or chat in self.humans

    def _header(self, chat: str, edited: bool) -> str:
        where = t(self.lang, "console.table") if chat == GROUP else t(self.lang, "console.to", name=self.humans[chat])
        return f"── {where}{' ' + t(self.lang, 'console.updated') if edited else ''} ──"

    def _print(self, chat: str, text: str, buttons: Keyboard | None, before: str | None) -> None:
        """Print a message; an edit (`before` = the old text) prints only its new lines, unless it asks a choice."""
        edited = before is not None
        if buttons:
            self.choices[chat] = [(b.label, b.data) for row in buttons for b in row]
        elif edited:
            self.choices.pop(chat, None)  # the decision this message asked is gone
        if chat == GROUP and edited:
            self._board = (text, False)
        if not self._visible(chat):
            return
        body = text
        if edited and not buttons:
            old_lines = set(before.splitlines())
            body = "\n".join(line for line in text.splitlines() if line.strip() and line not in old_lines)
            if not body:
                return
        lines = [self._header(chat, edited), body]
        for i, (label, _) in enumerate(self.choices[chat] if buttons else [], start=1):
            lines.append(f"  {i:>2}. {label}")
        self.out.write("\n".join(lines) + "\n\n")
        self.out.flush()

    def restore_choices(self) -> None:
        """Take each human chat's choices again from its newest message that still has buttons (after a choice the
        worker refused with a notice, the panel and its buttons stand)."""
        for chat in self.humans:
            asking = [int(i) for i, m in self.messages.items() if m.chat == chat and m.buttons]
            if asking:
                buttons = self.messages[str(max(asking))].buttons or []
                self.choices[chat] = [(b.label, b.data) for row in buttons for b in row]

    def show_board(self) -> None:
        """Print the group's board in full if it changed since it was last shown whole (before a human decides)."""
        text, shown = self._board
        if text and not shown:
            self.out.write(f"{self._header(GROUP, False)}\n{text}\n\n")
            self._board = (text, True)

    async def send_text(self, chat: str, text: str, buttons: Keyboard | None = None) -> str:
        message_id = str(next(self._ids))
        self.messages[message_id] = _Message(chat, text, buttons)
        self._print(chat, text, buttons, None)
        return message_id

    async def edit_text(self, chat: str, message_id: str, text: str, buttons: Keyboard | None = None) -> None:
        old = self.messages.get(message_id)
        self.messages[message_id] = _Message(chat, text, buttons)
        if old is not None and old.text == text and old.buttons == buttons:
            return  # nothing new to show
        self._print(chat, text, buttons, old.text if old is not None else "")

    async def send_photo(self, chat: str, photo: bytes, caption: str = "", buttons: Keyboard | None = None) -> str:
        return await self.send_text(chat, self._picture(photo, caption), buttons)

    async def edit_photo(
        self, chat: str, message_id: str, photo: bytes, caption: str = "", buttons: Keyboard | None = None
    ) -> None:
        await self.edit_text(chat, message_id, self._picture(photo, caption), buttons)

    async def send_document(self, chat: str, data: bytes, filename: str, caption: str = "") -> str:
        return await self.send_text(chat, f"{caption}\n{data.decode('utf-8', 'replace')}".strip())

    def _picture(self, photo: bytes, caption: str) -> str:
        return f"{t(self.lang, 'console.picture', size=len(photo))}\n{caption}".rstrip()

    async def delete(self, chat: str, message_id: str) -> None:
        self.messages.pop(message_id, None)

    async def pin(self, chat: str, message_id: str) -> bool:
        return True

    async def set_silence(self, chat: str, on: bool) -> bool:
        """The group's own notice explains the silence; the console only marks the restriction."""
        self.silenced = on
        if self._visible(chat):
            self.out.write(f"── {t(self.lang, 'console.table')} {'🔇' if on else '🔊'} ──\n\n")
        return True

    async def direct_chat(self, user: str) -> str | None:
        return dm_chat(user)


@dataclass
class Outcome:
    """How `play` ended: `finished` when the game reached its end; `summary` is printed by the CLI."""

    game_id: int
    finished: bool
    moves: int
    summary: str


def play(
    game: str,
    *,
    players: int,
    bots: int,
    seed: int,
    lang: str = "en",
    quiet: bool = False,
    out: TextIO | None = None,
    read: Callable[[str], str] = input,
) -> Outcome:
    """Start a game in the terminal and play it to its end through the full pipeline.

    Seats 0..humans-1 are you; the rest are bots. Several humans share the terminal (hot seat): each one's direct
    chat is printed under their name, so that is for friends at one screen. `quiet` prints nothing but the summary.
    """
    out = out or sys.stdout
    humans = [f"you{i + 1}" if players - bots > 1 else "you" for i in range(players - bots)]
    adapter = ConsoleAdapter(
        out=io.StringIO() if quiet else out, humans={dm_chat(u): u for u in humans}, lang=normalize(lang)
    )
    registry.register(PLATFORM, lambda: adapter)
    migrate()
    with session_scope() as s:  # the terminal speaks --lang, whatever an earlier game in this database spoke
        for user in humans:
            user_for(s, PLATFORM, user).language = adapter.lang
    game_id = lobby.create_and_start(
        PLATFORM, GROUP, game, {"players": players}, humans=humans, bots=bots, seed=seed, language=lang
    )
    updates = itertools.count(1)
    while True:
        row = _game_row(game_id)
        if row["status"] != "active":
            break
        chat = next((c for c in adapter.humans if adapter.choices.get(c)), None)
        if chat is None:  # a choice was refused (a notice came, the panel stayed): its buttons still stand
            adapter.restore_choices()
            chat = next((c for c in adapter.humans if adapter.choices.get(c)), None)
        if chat is None:  # nothing for a human to do, yet the game did not move on
            break
        choice = _ask(adapter, chat, read, out)
        if choice is None:
            break
        dispatch.submit(
            Inbound(
                platform=PLATFORM,
                chat=chat,
                user=adapter.humans[chat],
                update_id=f"{game_id}-{next(updates)}",
                kind="tap",
                text=choice,
                user_name=adapter.humans[chat],
                language=lang,
            )
        )
    row = _game_row(game_id)
    finished = row["status"] == "finished"
    names = {seat: humans[seat] if seat < len(humans) else f"Bot {seat + 1}" for seat in range(players)}
    return Outcome(game_id, finished, row["seq"], _summary(game, row, finished, adapter.lang, names))


def _ask(adapter: ConsoleAdapter, chat: str, read: Callable[[str], str], out: TextIO) -> str | None:
    """Read a number until it names one of the chat's buttons; None when input ends (Ctrl-D) or is `q`."""
    options = adapter.choices[chat]
    adapter.show_board()
    while True:
        try:
            answer = read(t(adapter.lang, "console.ask", name=adapter.humans[chat], n=len(options)) + " ").strip()
        except EOFError:
            return None
        if answer.lower() in ("q", "quit"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            adapter.choices.pop(chat, None)
            return options[int(answer) - 1][1]
        out.write(f"  ? {t(adapter.lang, 'console.invalid', n=len(options))}\n")


def _game_row(game_id: int) -> dict[str, Any]:
    with session_scope() as s:
        row = s.get(GameRow, game_id)
        return {"status": row.status, "seq": row.seq, "result": row.result}


def _summary(game: str, row: dict[str, Any], finished: bool, lang: str, names: dict[int, str]) -> str:
    title = t(lang, f"lobby.game.{game}")
    if not finished:
        return t(lang, "console.stopped", game=title, moves=row["seq"])
    result = result_text(game, row["result"] or {}, lang, names)
    return t(lang, "console.summary", game=title, result=result, moves=row["seq"])
