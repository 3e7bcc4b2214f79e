"""`present` and `panel`: the only entry points the worker calls to turn a game state into chat messages.

Safety by construction: the group board is rendered from `game.view(state, None)` alone, and a seat's panel
from `game.view(state, seat)` plus the events that seat may see. No renderer ever receives the full state, so
a hand, a loyalty card or a face-down value cannot reach a message it does not belong in.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from engine import get_game
from engine.core.events import Event
from service.callback import pack
from service.chat.base import Button
from service.render import Panel, Presentation, explain, menus, phone
from service.render.i18n import normalize, t
from service.render.narration import narrate

_TEXT_MODULES = {"board": "service.render.board_text", "cards": "service.render.cards_text"}


def renderer(game_name: str) -> ModuleType:
    """The text renderer of a game: `board`, `private`, `label`, `kind_label`, `event_line`, `prompt_line`."""
    return importlib.import_module(_TEXT_MODULES[game_name])


def _names(seat_names: dict[int, str] | None, view: dict[str, Any]) -> dict[int, str]:
    count = len(view["seats"]) if "seats" in view else int(view.get("players", 0))
    names = {i: f"#{i + 1}" for i in range(count)}
    names.update(seat_names or {})
    return names


def result_text(game_name: str, result: dict[str, Any], lang: str, seat_names: dict[int, str]) -> str:
    """The end of a game in words ("Evil wins. (12 siege engines)" and the Traitors), for the closing notice."""
    return renderer(game_name).result_line(normalize(lang), result, seat_names)


def panel(
    game_name: str,
    state: Any,
    seat: int,
    *,
    game_id: int,
    seq: int,
    lang: str,
    level: str | None = None,
    seat_names: dict[int, str] | None = None,
) -> Panel:
    """A seat's private panel: what only they may know, and their choices when they must decide."""
    game = get_game(game_name)
    lang = normalize(lang)
    text_mod = renderer(game_name)
    view = game.view(state, seat)
    names = _names(seat_names, view)
    text = text_mod.private(view, seat, lang, names)
    prompts = [p for p in game.pending(state) if p.seat == seat] if game.result(state) is None else []
    keyboard = None
    question = ""
    if prompts:
        question = text_mod.prompt_line(prompts[0].kind, view, seat, lang, names)
        if card := explain.explanation(game_name, prompts[0].kind, view, lang):
            question += "\n" + card
        actions = game.legal_actions(state, seat)
        keyboard = menus.build(
            actions,
            game.encode,
            lambda a: text_mod.label(a, view, seat, lang, names),
            lambda kind, n: text_mod.kind_label(kind, n, lang),
            game_id=game_id,
            seq=seq,
            lang=lang,
            level=level,
        )
    standing = [a for a in game.standing_actions(state, seat) if not (prompts and a in game.legal_actions(state, seat))]
    if standing:  # e.g. the Traitor's unmasking with Fate: offered all through his turn, not only when asked
        labels = [menus.short(text_mod.label(a, view, seat, lang, names)) for a in standing]
        row = [Button(label, pack(game_id, seq, game.encode(a))) for label, a in zip(labels, standing, strict=True)]
        keyboard = [*(keyboard or []), row]
    return Panel(text, keyboard, question)


def action_label(
    game_name: str, state: Any, seat: int, action: Any, lang: str, seat_names: dict[int, str] | None = None
) -> str:
    """A choice in words as its button said it to `seat` (rendered from the seat's own view of `state`, the state
    it was chosen in): for the seat's own direct chat only."""
    view = get_game(game_name).view(state, seat)
    return renderer(game_name).label(action, view, seat, normalize(lang), _names(seat_names, view))


def present(
    game_name: str,
    state: Any,
    events: list[Event],
    *,
    game_id: int,
    seq: int,
    group_lang: str,
    seat_langs: dict[int, str],
    seat_names: dict[int, str],
    with_image: bool = False,
    people: set[int] | None = None,
) -> Presentation:
    """Everything one move produces: the public board, public event lines, and each seat's panel and private lines
    (only for the seats in `people`, if given: a bot reads no messages)."""
    game = get_game(game_name)
    text_mod = renderer(game_name)
    group_lang = normalize(group_lang)
    public_view = game.view(state, None)
    names = _names(seat_names, public_view)
    over = game.result(state) is not None
    mentions = [] if over else sorted({p.seat for p in game.pending(state)})
    board = text_mod.board(public_view, group_lang, names)
    if mentions:
        board += "\n" + phone.fold(t(group_lang, "waiting", names=", ".join(names.get(s, "?") for s in mentions)))
    lines = narrate(game_name, events, group_lang, names)  # every public event, grouped by cause
    panels: dict[int, Panel] = {}
    private_lines: dict[int, list[str]] = {}
    for seat in names:
        if people is not None and seat not in people:
            continue
        lang = normalize(seat_langs.get(seat, group_lang))
        panels[seat] = panel(game_name, state, seat, game_id=game_id, seq=seq, lang=lang, seat_names=names)
        mine = [
            line
            for e in events
            if not e.public and e.visible_to(seat) and (line := text_mod.event_line(e, seat, lang, names))
        ]
        if mine:
            private_lines[seat] = mine
    image = None
    if with_image:
        from service.render import board_image

        image = board_image.render(game_name, public_view, group_lang, names)
    return Presentation(
        board=board,
        lines=lines,
        panels=panels,
        private_lines=private_lines,
        silence=public_view.get("silence") if game_name == "cards" else None,
        mentions=mentions,
        board_image=image,
    )
