"""A lobby's options, set by its creator (or a chat admin) with `/set NAME VALUE` before the game starts: the
game, the table size, bots, language, deadlines, how the days go (idle, away, pause votes, leaving) and any
engine variant. Checked here as far as the lobby can; an engine variant is checked when the game starts."""

from __future__ import annotations

from typing import Any

import engine
from engine import get_game
from service.play import pilots
from service.render.i18n import available_languages
from service.store.models import GameRow

# Engine config keys no lobby may set: a rigged deal for tests (a lobby could cheat with it, and a text value
# crashes the setup) and a nested override of every variant.
ENGINE_ONLY = ("stack", "variant")


def apply(game: GameRow, seated: int, option: str, value: str) -> str:
    """Set one option on a lobby's row with `seated` people: "ok" or "bad_value". Options: game board|cards,
    players N, bots on|off, lang xx, turn <hours>, response <minutes>, idle <n>, away <hours>, pausevote on|off
    (a seated majority may /pause and /resume), leaving autopilot|die (the board game's: what /leave mid-game
    does); any other name is an engine variant (`value` as int, on/off as bool, else text)."""
    opts = dict(game.options)
    try:
        if option == "game":
            if value not in engine.GAMES:
                return "bad_value"
            game.kind = value
        elif option == "players":
            n = int(value)
            engine_game = get_game(game.kind)
            if not (max(engine_game.min_players, seated) <= n <= engine_game.max_players):
                return "bad_value"
            opts["players"] = n
        elif option == "bots":
            opts["bots"] = value in ("on", "yes", "1", "true")
        elif option == "lang":
            if value not in available_languages():
                return "bad_value"
            game.language = value
        elif option == "pausevote":
            if value not in ("on", "off"):
                return "bad_value"
            opts["pause_vote"] = value == "on"
        elif option == "leaving":
            if value not in pilots.LEAVING or game.kind != "board":
                return "bad_value"
            opts["leaving"] = value
        elif option in pilots.LIMITS:  # turn, response, idle, away: the same ranges as mid-game
            amount = pilots.parse_limit(option, value)
            if amount is None:
                return "bad_value"
            opts[pilots.LIMITS[option][0]] = amount
        elif option in ENGINE_ONLY:
            return "bad_value"
        else:
            game.config = {**game.config, option: _variant_value(value)}
    except ValueError:
        return "bad_value"
    game.options = opts
    return "ok"


def _variant_value(value: str) -> Any:
    if value.isdigit():
        return int(value)
    if value in ("on", "off"):
        return value == "on"
    return value
