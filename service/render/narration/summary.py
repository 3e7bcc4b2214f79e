"""The end of a game in words: who won and why, the swords (and siege engines), the play that decided it, and every
seat's loyalty with its quests won and cards played.

Inputs are what anyone may know once the game is over: the engine's `result` (it lists every loyalty), the public
view of the final position, and the numbers of `stats.game_stats`.
"""

from __future__ import annotations

from typing import Any

from engine.board import catalogue as board_cat
from engine.core.events import public
from service.render import names as nm
from service.render.i18n import normalize, t, tn
from service.render.narration.stats import GameStats
from service.render.narration.story import narrate

LOYALTY_MARK = {"loyal": "🛡", "traitor": "🐍"}


def _headline(game: str, result: dict[str, Any], lang: str, seat_names: dict[int, str]) -> str:
    return narrate(game, [public("game_over", **result)], lang, seat_names)[0]


def _decisive(game: str, stats: GameStats, lang: str, seat_names: dict[int, str]) -> str | None:
    lines = narrate(game, stats.decisive, lang, seat_names)
    return t(lang, "narr.end.decisive", line=lines[-1]) if lines else None


def _seat_name(game: str, seat: int, view: dict[str, Any], lang: str, seat_names: dict[int, str]) -> str:
    name = nm.seat(seat_names, seat)
    seats = view.get("seats") or []
    if game == "board" and seat < len(seats):
        knight = nm.knight(lang, "board", seats[seat].get("knight"))
        name = f"{name} ({knight})"
        if not seats[seat].get("alive", True):
            name += " 💀"
    return name


def final_summary(
    game: str,
    result: dict[str, Any],
    public_view: dict[str, Any],
    seat_names: dict[int, str],
    stats: GameStats,
    lang: str,
) -> str:
    """The closing message of a game, one fact per line."""
    lang = normalize(lang)
    swords = result.get("swords") or public_view.get("swords") or {}
    lines = [_headline(game, result, lang, seat_names)]
    if game == "board":
        engines = result.get("siege_engines", public_view.get("siege_engines", 0))
        lines.append(t(lang, "narr.end.board", white=swords.get("white", 0), black=swords.get("black", 0),
                       engines=engines, max_engines=board_cat.MAX_ENGINES))
    else:
        lines.append(t(lang, "narr.end.cards", white=swords.get("white", 0), black=swords.get("black", 0)))
    decisive = _decisive(game, stats, lang, seat_names)
    if decisive:
        lines.append(decisive)
    lines.append("")
    for seat, loyalty in enumerate(result.get("loyalty") or []):
        mine = stats.of(seat)
        lines.append(t(lang, "narr.end.seat", mark=LOYALTY_MARK.get(loyalty, "❔"),
                       name=_seat_name(game, seat, public_view, lang, seat_names), loyalty=nm.loyalty(lang, loyalty)))
        lines.append(t(lang, "narr.end.stats", quests=tn(lang, "narr.n.quests", mine.quests_won),
                       played=tn(lang, "narr.n.played", mine.cards_played)))
    return "\n".join(lines)
