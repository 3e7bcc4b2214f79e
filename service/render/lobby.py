"""The lobby message: who has joined, the options, and the buttons to join, leave, start, abort or change them.

Texts go through the catalogs (`service.render.i18n`) with English defaults here until the catalogs carry them.
"""

from __future__ import annotations

from typing import Any

from service.callback import pack_lobby
from service.chat.base import Button, Keyboard
from service.render import i18n

DEFAULTS = {
    "lobby.title": "New game of {game} (#{id})",
    "lobby.game.board": "Shadows over Camelot (board game)",
    "lobby.game.cards": "Shadows over Camelot: The Card Game",
    "lobby.players": "Players: {joined} joined, table of {players}",
    "lobby.bots_on": "Empty seats are filled with bots.",
    "lobby.bots_off": "No bots: the table is as large as the number who joined.",
    "lobby.deadlines": "Time to decide: {turn} h per turn, {response} min to respond.",
    "lobby.seated": "Seated: {names}",
    "lobby.started": "The game has started.",
    "lobby.aborted": "This game was aborted.",
    "lobby.button.join": "Join",
    "lobby.button.leave": "Leave",
    "lobby.button.start": "Start",
    "lobby.button.abort": "Abort",
    "lobby.button.game": "Play {game}",
    "lobby.button.bots_on": "Bots: on",
    "lobby.button.bots_off": "Bots: off",
    "lobby.reply.busy": "This chat already has an open game (#{id}); /abort it first.",
    "lobby.reply.no_lobby": "There is no open lobby here; start one with /newgame.",
    "lobby.reply.no_game": "There is no game here.",
    "lobby.reply.not_creator": "Only the game's creator or a chat admin can do that.",
    "lobby.reply.full": "The table is full.",
    "lobby.reply.not_enough": "Not enough players yet.",
    "lobby.reply.bad_value": "That value is not valid.",
    "lobby.reply.bad_config": "The game cannot start with these options.",
    "lobby.reply.already": "You are already seated.",
    "lobby.reply.not_seated": "You are not seated.",
    "lobby.reply.group_only": "Create games in a group chat.",
    "lobby.help": "Commands: /newgame [board|cards] [players], /join, /leave, /start, /abort, /status, /rules, "
    "/set <option> <value> (game, players, bots on|off, lang, turn <hours>, response <minutes>).",
    "lobby.rules.board": "Shadows over Camelot: the Knights of the Round Table must complete quests before too many "
    "siege engines surround Camelot and too many black swords lie on the Round Table; a traitor may hide among them.",
    "lobby.rules.cards": "Shadows over Camelot, the Card Game: listen to rumors, go on quests when the rumors add up "
    "to 11-13, and accuse the traitor; loyal knights win with more white than black swords.",
}


def tr(lang: str | None, msgid: str, **kwargs: Any) -> str:
    text = i18n.t(lang, msgid, **kwargs)
    if text == msgid and msgid in DEFAULTS:
        return DEFAULTS[msgid].format(**kwargs)
    return text


def lobby_message(lobby: dict[str, Any], lang: str | None) -> tuple[str, Keyboard | None]:
    """`lobby`: id, kind, status, players (table size), bots (bool), names (seated, in order), turn_hours,
    response_minutes, min_players, max_players. Buttons only while the lobby is open."""
    game = tr(lang, f"lobby.game.{lobby['kind']}")
    lines = [tr(lang, "lobby.title", game=game, id=lobby["id"])]
    if lobby["status"] == "active":
        return "\n".join([*lines, tr(lang, "lobby.started")]), None
    if lobby["status"] == "aborted":
        return "\n".join([*lines, tr(lang, "lobby.aborted")]), None
    lines.append(tr(lang, "lobby.players", joined=len(lobby["names"]), players=lobby["players"]))
    lines.append(tr(lang, "lobby.bots_on" if lobby["bots"] else "lobby.bots_off"))
    lines.append(tr(lang, "lobby.deadlines", turn=lobby["turn_hours"], response=lobby["response_minutes"]))
    if lobby["names"]:
        lines.append(tr(lang, "lobby.seated", names=", ".join(lobby["names"])))
    lid = lobby["id"]
    other = "cards" if lobby["kind"] == "board" else "board"
    sizes = [
        n for n in (lobby["players"] - 1, lobby["players"] + 1) if lobby["min_players"] <= n <= lobby["max_players"]
    ]
    keyboard: Keyboard = [
        [
            Button(tr(lang, "lobby.button.join"), pack_lobby(lid, "join")),
            Button(tr(lang, "lobby.button.leave"), pack_lobby(lid, "leave")),
        ],
        [Button(f"{'−' if n < lobby['players'] else '+'} {n}", pack_lobby(lid, "players", str(n))) for n in sizes],
        [
            Button(
                tr(lang, "lobby.button.bots_off" if lobby["bots"] else "lobby.button.bots_on"),
                pack_lobby(lid, "bots", "off" if lobby["bots"] else "on"),
            ),
            Button(tr(lang, "lobby.button.game", game=other), pack_lobby(lid, "game", other)),
        ],
        [
            Button(tr(lang, "lobby.button.start"), pack_lobby(lid, "start")),
            Button(tr(lang, "lobby.button.abort"), pack_lobby(lid, "abort")),
        ],
    ]
    return "\n".join(lines), [row for row in keyboard if row]
