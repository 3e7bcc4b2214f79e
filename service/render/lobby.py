"""The lobby message: who has joined, the options, and the buttons to join, leave, start, abort or change them.

Texts go through the catalogs (`service.render.i18n`) with English defaults here until the catalogs carry them.
"""

from __future__ import annotations

from typing import Any

from service.callback import pack_lobby
from service.chat.base import Button, Keyboard
from service.render import i18n

DEFAULTS = {
    "lobby.button.lang": "🌐 {code}",
    "lobby.button.turn": "⏱ {hours} h",
    "lobby.button.response": "⏳ {minutes} min",
    "lobby.button.variant": "{name}: {value}",
    "lobby.variant.traitor": "Traitor",
    "lobby.variant.squires": "Squires",
    "lobby.variant.war_any_order": "Wars any order",
    "lobby.variant.expert": "Expert",
    "lobby.value.on": "on",
    "lobby.value.off": "off",
    "lobby.value.standard": "standard",
    "lobby.value.none": "none",
    "lobby.value.among_us": "among us",
    "lobby.title": "New game of {game} (#{id})",
    "lobby.game.board": "Shadows over Camelot (board game)",
    "lobby.game.cards": "Shadows over Camelot: The Card Game",
    "lobby.players": "Players: {joined} joined, table of {players}",
    "lobby.bots_on": "Empty seats are filled with bots.",
    "lobby.bots_off": "No bots: the table is as large as the number who joined.",
    "lobby.deadlines": "Time to decide: {turn} h per turn, {response} min to respond.",
    "lobby.seated": "Seated: {names}",
    "lobby.started": "The game has started.",
    "lobby.started_elsewhere": (
        "The game has started in a room of its own: the seated players are invited, and its link follows here."
    ),
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


# Choices a lobby button cycles through (the creator taps until the wanted one shows); variants per game kind,
# each an engine config key with its values, first the engine's default.
TURN_HOURS = (12, 24, 48, 72)
IDLE_CHOICES = (1, 2, 3, 5)  # timeouts in a row before the autopilot takes a seat (`service.play.pilots`)
AWAY_CHOICES = (0, 24, 72, 168)  # hours a vacation may push a deadline
LEAVING_CHOICES = ("autopilot", "die")  # what /leave mid-game does in a board game (`service.play.pilots.LEAVING`)
RESPONSE_MINUTES = (30, 60, 180)
VARIANT_CHOICES: dict[str, dict[str, tuple[Any, ...]]] = {
    "board": {"traitor": ("standard", "none", "among_us"), "squires": (False, True), "war_any_order": (False, True)},
    "cards": {"expert": (False, True)},
}
LOBBY_VARIANTS = tuple(sorted({name for kinds in VARIANT_CHOICES.values() for name in kinds}))


def _next(choices: tuple[Any, ...], current: Any) -> Any:
    return choices[(choices.index(current) + 1) % len(choices)] if current in choices else choices[0]


def _wire(value: Any) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def _option_rows(lobby: dict[str, Any], lang: str | None) -> Keyboard:
    """Language, deadlines and the game's variants: one button each, showing the current value; a tap sets the next."""
    lid, config = lobby["id"], lobby.get("config", {})
    languages = tuple(i18n.available_languages())
    turn = _next(TURN_HOURS, round(lobby["turn_hours"]))
    response = _next(RESPONSE_MINUTES, lobby["response_minutes"])
    rows: Keyboard = [
        [
            Button(tr(lang, "lobby.button.lang", code=lobby.get("language", "en")),
                   pack_lobby(lid, "lang", _next(languages, lobby.get("language")))),
            Button(tr(lang, "lobby.button.turn", hours=lobby["turn_hours"]), pack_lobby(lid, "turn", str(turn))),
            Button(tr(lang, "lobby.button.response", minutes=lobby["response_minutes"]),
                   pack_lobby(lid, "response", str(response))),
        ]
    ]
    if "idle" in lobby:  # games that last days: when an idle seat goes to the autopilot, how long a vacation waits
        vote = bool(lobby.get("pause_vote"))  # and whether seated players may /pause by a majority
        rows.append([
            Button(tr(lang, "lobby.button.idle", n=lobby["idle"]),
                   pack_lobby(lid, "idle", str(_next(IDLE_CHOICES, lobby["idle"])))),
            Button(tr(lang, "lobby.button.away", hours=lobby["away_hours"]),
                   pack_lobby(lid, "away", str(_next(AWAY_CHOICES, lobby["away_hours"])))),
            Button(tr(lang, "lobby.button.pausevote", value=tr(lang, f"lobby.value.{_wire(vote)}")),
                   pack_lobby(lid, "pausevote", _wire(not vote))),
        ])
    if "leaving" in lobby:  # the board game's tabletop rule B-LEAVE, or the autopilot
        rows.append([Button(tr(lang, f"lobby.button.leaving.{lobby['leaving']}"),
                            pack_lobby(lid, "leaving", _next(LEAVING_CHOICES, lobby["leaving"])))])
    variants = VARIANT_CHOICES.get(lobby["kind"], {})
    row = []
    for name, choices in variants.items():
        current = config.get(name, choices[0])
        label = tr(lang, "lobby.button.variant", name=tr(lang, f"lobby.variant.{name}"),
                   value=tr(lang, f"lobby.value.{_wire(current)}"))
        row.append(Button(label, pack_lobby(lid, name, _wire(_next(choices, current)))))
    return rows + [row] if row else rows


def lobby_message(lobby: dict[str, Any], lang: str | None) -> tuple[str, Keyboard | None]:
    """`lobby`: id, kind, status, players (table size), bots (bool), names (seated, in order), turn_hours,
    response_minutes, min_players, max_players; elsewhere (bool: the game started in a room of its own). Buttons only
    while the lobby is open."""
    game = tr(lang, f"lobby.game.{lobby['kind']}")
    lines = [tr(lang, "lobby.title", game=game, id=lobby["id"])]
    if lobby["status"] == "active":
        started = "lobby.started_elsewhere" if lobby.get("elsewhere") else "lobby.started"
        return "\n".join([*lines, tr(lang, started)]), None
    if lobby["status"] == "aborted":
        return "\n".join([*lines, tr(lang, "lobby.aborted")]), None
    lines.append(tr(lang, "lobby.players", joined=len(lobby["names"]), players=lobby["players"]))
    lines.append(tr(lang, "lobby.bots_on" if lobby["bots"] else "lobby.bots_off"))
    lines.append(tr(lang, "lobby.deadlines", turn=lobby["turn_hours"], response=lobby["response_minutes"]))
    if "idle" in lobby:
        lines.append(tr(lang, "lobby.days", idle=lobby["idle"], away=lobby["away_hours"]))
    if lobby.get("pause_vote"):
        lines.append(tr(lang, "lobby.pausevote"))
    if "leaving" in lobby:
        lines.append(tr(lang, f"lobby.leaving.{lobby['leaving']}"))
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
            Button(
                tr(lang, "lobby.button.game", game=tr(lang, f"lobby.switch.{other}")), pack_lobby(lid, "game", other)
            ),
        ],
        *_option_rows(lobby, lang),
        [
            Button(tr(lang, "lobby.button.start"), pack_lobby(lid, "start")),
            Button(tr(lang, "lobby.button.abort"), pack_lobby(lid, "abort")),
        ],
    ]
    return "\n".join(lines), [row for row in keyboard if row]
