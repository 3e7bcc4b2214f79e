"""`narrate`: the lines one move's events make, for the group (public events only) or for one seat (its own too)."""

from __future__ import annotations

from types import ModuleType

from engine.core.events import Event
from service.render.i18n import normalize
from service.render.narration import board, cards
from service.render.narration.beats import group, visible
from service.render.narration.words import Ctx

RULES: dict[str, ModuleType] = {"board": board, "cards": cards}


def narrate(
    game: str,
    events: list[Event],
    lang: str,
    seat_names: dict[int, str],
    viewer: int | None = None,
    *,
    hide_threat: bool = False,
    own_only: bool = False,
) -> list[str]:
    """Lines for `events` as `viewer` may read them (None: the group, public events only). `own_only`: the seat's
    private events alone (a log that shows every seat's secrets after the end tells each once). `hide_threat`:
    the card game's face-up Threat cards unnamed (a log read later must not replace memory)."""
    rules = RULES[game]
    if own_only and viewer is None:
        return []
    ctx = Ctx(game, normalize(lang), dict(seat_names), viewer, hide_threat)
    seen = visible(rules.prepare(events), viewer, rules.TWINS, public=not own_only)
    return [rules.line(beat, ctx) for beat in group(seen, rules.take)]
