"""Issue 23, the group's half of "the chat tells the story", over a real Synapse and the real gateway process: one
person and paced bots play a 5-player board game and a 4-player card game; then the room's history is read back
from the server. Every move's public events are within one message (a bot's turn is one), every Threat card
revealed is told, the board is an image (uploaded to the media repository) captioned with the text board and
replaced in place, the game ends with every loyalty on the final picture, and nothing secret reached the room (the
leak audit)."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from matrix_players import login
from matrix_transcript import transcripts as client_views
from test_matrix_games import (
    BACK,
    _db,
    _direct_room,
    _drained,
    _game_status,
    _raw_history,
    _start_gateway,
    _text,
    _wait,
)

from service.render import narration
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow
from tests.e2e.telegram.telegram_audit import rendered
from tests.story_order import told_in_order

pytestmark = pytest.mark.e2e
TIMEOUT = 600.0


@pytest.fixture(autouse=True)
def paced_bots_and_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The gateway process reads these when it starts."""
    monkeypatch.setenv("CHAT_BOT_DELAY", "0.2")
    monkeypatch.setenv("BOARD_PICTURES", "true")


async def _open_with_bots(hs, gateway, bot_id: str, kind: str, players: int, seed: int, name: str):
    host = await login(hs.url, *hs.register(name))
    created = await host.client.room_create(name=f"Camelot {kind}", invite=[bot_id])
    group = created.room_id
    joined = lambda: bot_id in host.client.rooms[group].users and bot_id not in host.client.rooms[group].invited_users  # noqa: E731
    await _wait(lambda: group in host.client.rooms, 60, "the room", gateway, host)
    await _wait(joined, 60, "the bot in the room", gateway, host)
    levels = await host.client.room_get_state_event(group, "m.room.power_levels")
    await host.client.room_put_state(
        group, "m.room.power_levels", {**levels.content, "users": {**levels.content.get("users", {}), bot_id: 100}}
    )
    await host.say(group, f"!newgame {kind} {players}")
    lobby = await _wait(lambda: _db(GameRow.__table__.select().where(GameRow.status == "lobby")), 60, "the lobby",
                        gateway)
    game_id = lobby[0].id
    with session_scope() as s:
        s.get(GameRow, game_id).seed = seed
    await host.say(group, "!set bots on")
    await _wait(lambda: _options(game_id).get("bots") is True, 60, "bots on", gateway, host)
    await host.say(group, "!start")
    await _wait(lambda: _game_status(game_id) == "active", 60, "the start", gateway, host)
    return game_id, group, host


def _options(game_id: int) -> dict:
    with session_scope() as s:
        return dict(s.get(GameRow, game_id).options)


async def _play_alone(game_id: int, group: str, host, gateway, bot_id: str, rng: random.Random) -> int:
    """The person answers every menu with a random number until the game is over; returns how many answers."""
    answers, last = 0, None
    deadline = time.monotonic() + TIMEOUT
    while _game_status(game_id) != "finished":
        assert time.monotonic() < deadline and gateway.alive(), gateway.tail()
        await host.sync(timeout_ms=150)
        dm = _direct_room(host, bot_id, group)
        menu = host.menu(dm) if dm else None
        if menu is None or (last and last[:2] == menu[:2] and time.monotonic() - last[2] < 3.0):
            continue
        event_id, body, choices = menu
        await host.say(dm, str(rng.choice([n for n, label in choices.items() if label != BACK] or list(choices))))
        last = (event_id, body, time.monotonic())
        answers += 1
    return answers


def _told(game_id: int) -> tuple[list[narration.Move], list[list[str]], dict[int, str], str]:
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        kind, config, seed, lang = game.kind, game.config, game.seed, game.language
        log = game_rows.action_log(s, game_id)
        users = game_rows.seat_users(s, game_id)
    names = {seat: (users[seat].name or users[seat].platform_id) if seat in users else f"Bot {seat + 1}"
             for seat in range(config["players"])}
    moves = narration.moves(kind, config, seed, log)[1:]
    return moves, [narration.narrate(kind, events, lang, names) for _, _, events in moves], names, lang


def _story(homeserver, kind: str, players: int, seed: int, transcripts) -> dict:
    async def scenario() -> dict:
        gateway, bot_id = _start_gateway(homeserver, f"camelot_story_{kind}")
        try:
            game_id, group, host = await _open_with_bots(homeserver, gateway, bot_id, kind, players, seed,
                                                         f"arthur_story_{kind}")
            answers = await _play_alone(game_id, group, host, gateway, bot_id, random.Random(seed))
            await _drained(gateway, [host])
            transcripts(await client_views([host]))
            history = await _raw_history(host, group)
            mine = [e for e in history if e["sender"] == bot_id and e["type"] == "m.room.message" and e.get("content")]
            edits = [e for e in mine if (e["content"].get("m.relates_to") or {}).get("rel_type") == "m.replace"]
            originals = [e for e in mine if e not in edits]
            moves, told, names, lang = _told(game_id)

            # every move's public events, whole and in order, each move within one message (a bot's turn: one)
            last = {e["content"]["m.relates_to"]["event_id"]: e for e in edits}  # (the history is in order)
            finals = [_text(last.get(e["event_id"], e)["content"]) for e in originals
                      if e["content"].get("msgtype") != "m.image"]
            missing = told_in_order(told, finals)
            assert missing == [], missing[:3]

            # the board: an image from the media repository, captioned with the text board, replaced in place
            audit = rendered(game_id)
            images = [e for e in originals if e["content"].get("msgtype") == "m.image"]
            assert images and images[0]["content"]["url"].startswith("mxc://")
            board = images[0]["event_id"]
            replaced = [e for e in edits if e["content"]["m.relates_to"]["event_id"] == board]
            final = replaced[-1]["content"]["m.new_content"] if replaced else images[0]["content"]
            assert final["msgtype"] == "m.image" and final["body"] == audit.last_board

            # the end on the final position's picture; every seat named with its loyalty
            closing = [e for e in images if e["content"]["body"] == audit.closing]
            assert len(closing) == 1 and all(name in audit.closing for name in names.values())

            # nothing secret in the room
            assert audit.leaks == []
            for e in mine:
                body = _text(e["content"])
                assert audit.public_text(body) or body.startswith(("New game", "Commands")), body
            return {"moves": audit.moves, "moves told": sum(bool(lines) for lines in told), "answers": answers,
                    "room messages": len(originals), "board replacements": len(replaced),
                    "moves_and_lines": (moves, lang, names), "shown": "\n".join(_text(e["content"]) for e in mine)}
        finally:
            gateway.stop()

    return asyncio.run(scenario())


def test_matrix_board_game_of_one_person_and_four_bots_tells_every_move(homeserver, backbone_pg, transcripts):
    stats = _story(homeserver, "board", 5, 7, transcripts)
    stats.pop("moves_and_lines"), stats.pop("shown")
    print("board game, one person and four bots, over Matrix:", stats)


def test_matrix_card_game_of_one_person_and_three_bots_shows_every_threat_card(homeserver, backbone_pg, transcripts):
    stats = _story(homeserver, "cards", 4, 45, transcripts)
    moves, lang, names = stats.pop("moves_and_lines")
    shown = stats.pop("shown")
    reveals = [e for _, _, events in moves for e in events if e.kind == "reveal"]
    lines = [narration.narrate("cards", [e], lang, names)[0] for e in reveals]
    assert len(reveals) > 10 and [line for line in lines if line not in shown] == []
    print("card game, one person and three bots, over Matrix:", stats, "Threat cards revealed and told:",
          len(reveals))
