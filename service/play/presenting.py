"""The seam between the worker and the renderers (`service.render`), in one place.

Games with a text renderer ("board", "cards") use `service.render.present`/`panel`. Any other game (the toy game
in the backbone's tests, a new engine before its renderer exists) gets a plain generic rendering from its views,
so the pipeline can be exercised without one. Notices (expired, not your turn, …) go through i18n with English
defaults kept here until the catalogs carry them.
"""

from __future__ import annotations

import json
from typing import Any

from engine import get_game
from engine.core.events import Event
from service.callback import pack, unpack
from service.chat.base import Button
from service.render import Panel, Presentation, i18n, result_text
from service.render import action_label as render_action_label
from service.render import panel as render_panel
from service.render import present as render_present

RENDERED = {"board", "cards"}

NOTICES = {
    "notice.expired": "This choice has expired.",
    "notice.not_seated": "You are not seated in this game.",
    "notice.not_your_turn": "It is not your turn to decide.",
    "notice.illegal": "That move is not allowed ({rule}).",
    "notice.malformed": "That choice is not valid.",
    "notice.no_game": "There is no such game here.",
    "notice.game_over": "This game is over.",
    "notice.silence_on": "Morgan's silence: no talking until someone goes on a quest or Merlin is revealed.",
    "notice.silence_off": "The silence is lifted.",
    "notice.timeout": "{name} ran out of time; a safe choice was played for them.",
    "notice.reminder_group": "{mention}, the game is waiting for you ({left} left).",
    "notice.game_end": "The game is over.\n{outcome}",
    "notice.open_direct_chat": "{name}, please open a direct chat with me to receive your cards.",
}


def t(lang: str | None, msgid: str, **kwargs: Any) -> str:
    """A user-facing text: the catalog's translation, else the English default above."""
    text = i18n.t(lang, msgid, **kwargs)
    if text == msgid and msgid in NOTICES:
        return NOTICES[msgid].format(**kwargs)
    return text


def outcome(kind: str, result: dict[str, Any], lang: str, seat_names: dict[int, str]) -> str:
    """A finished game's result in words (who won, why, who the Traitor was) for the closing notice."""
    if kind in RENDERED:
        return result_text(kind, result, lang, seat_names)
    return ", ".join(f"{k}={v}" for k, v in sorted(result.items()) if not isinstance(v, (dict, list)))


def presentation(
    kind: str,
    state: Any,
    events: list[Event],
    *,
    game_id: int,
    seq: int,
    group_lang: str,
    seat_langs: dict[int, str],
    seat_names: dict[int, str],
    people: set[int] | None = None,
    with_image: bool = False,
) -> Presentation:
    """The move's messages; panels and private lines only for `people` (seats played by people), if given;
    `with_image`: the board's picture too."""
    if kind in RENDERED:
        return render_present(
            kind,
            state,
            events,
            game_id=game_id,
            seq=seq,
            group_lang=group_lang,
            seat_langs=seat_langs,
            seat_names=seat_names,
            people=people,
            with_image=with_image,
        )
    return _generic_present(kind, state, events, game_id=game_id, seq=seq, seat_names=seat_names)


def panel(
    kind: str,
    state: Any,
    seat: int,
    *,
    game_id: int,
    seq: int,
    lang: str,
    level: str | None,
    seat_names: dict[int, str],
) -> Panel:
    if kind in RENDERED:
        return render_panel(kind, state, seat, game_id=game_id, seq=seq, lang=lang, level=level, seat_names=seat_names)
    return _generic_panel(kind, state, seat, game_id=game_id, seq=seq)


def action_label(kind: str, state: Any, seat: int, action: Any, lang: str, seat_names: dict[int, str]) -> str:
    """A choice in words for the seat's own direct chat (the state it was chosen in): its button's label."""
    if kind in RENDERED:
        return render_action_label(kind, state, seat, action, lang, seat_names)
    return get_game(kind).encode(action)


def panel_digest_key(p: Panel) -> list[Any]:
    """What a panel shows, without the seq its buttons carry: equal keys mean the player sees no change."""
    rows = []
    for row in p.buttons or []:
        rows.append(
            [(b.label, c.code if (c := unpack(b.data)) is not None and hasattr(c, "code") else b.data) for b in row]
        )
    return [p.text, rows]


def _generic_present(
    kind: str, state: Any, events: list[Event], *, game_id: int, seq: int, seat_names: dict[int, str]
) -> Presentation:
    game = get_game(kind)
    public_view = game.view(state, None)
    over = game.result(state) is not None
    mentions = [] if over else sorted({p.seat for p in game.pending(state)})
    panels = {seat: _generic_panel(kind, state, seat, game_id=game_id, seq=seq) for seat in seat_names}
    private_lines: dict[int, list[str]] = {}
    for e in events:
        for seat in e.to or ():
            private_lines.setdefault(seat, []).append(f"{e.kind} {json.dumps(e.data, sort_keys=True)}")
    silence = public_view.get("silence")
    return Presentation(
        board=json.dumps(public_view, sort_keys=True),
        lines=[f"{e.kind} {json.dumps(e.data, sort_keys=True)}" for e in events if e.public],
        panels=panels,
        private_lines=private_lines,
        silence=bool(silence) if silence is not None else None,
        mentions=mentions,
    )


def _generic_panel(kind: str, state: Any, seat: int, *, game_id: int, seq: int) -> Panel:
    game = get_game(kind)
    actions = game.legal_actions(state, seat) if game.result(state) is None else []
    buttons = [[Button(code, pack(game_id, seq, code))] for code in (game.encode(a) for a in actions)]
    return Panel(json.dumps(game.view(state, seat), sort_keys=True), buttons or None)
