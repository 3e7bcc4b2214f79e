"""Decision menus: a seat's legal actions as buttons that fit phones and Telegram's limits.

Few choices give one level of buttons. Many give two: the first level lists the action kinds (`@kind`; a kind
with a single choice is that choice's own button), the second the choices of one kind, with a back button (`@`);
a kind with more choices than fit on one screen is paged (`@kind:page`). A long kind whose choices name two things
(King Arthur's exchange: a knight, then a card) goes in two steps: its first arguments (`@kind=arg`), then the
choices with that first argument; a long kind of numbers is a number pad (Morgan's count). Every legal action is
always reachable.
Limits: 8 buttons a row (we use at most 4 for readability), 100 buttons in all, callback data within 64 bytes
(`service.callback.pack` enforces it).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.actions import Action
from service.callback import pack
from service.chat.base import Button, Keyboard
from service.render.i18n import t

MAX_ROW = 8
MAX_BUTTONS = 100
ONE_LEVEL_MAX = 10  # up to this many choices: a single level
PAGE_SIZE = 24  # choices per page on the second level (plus navigation buttons)
PAD_ROW = 5  # numbers a row on a number pad
SPLIT_MIN = 8  # a kind with more choices than this, each naming two things, is chosen in two steps
LABEL_MAX = 40  # a phone shows about this much on a full-width button
# Buttons per row by the longest label in the menu: numbers and short words side by side, sentences alone.
ROW_WIDTHS = ((6, 4), (18, 2))

Labeler = Callable[[Action], str]


def short(label: str, limit: int = LABEL_MAX) -> str:
    """Trim a label for a phone button."""
    return label if len(label) <= limit else label[: limit - 1] + "…"


def _rows(buttons: list[Button]) -> Keyboard:
    longest = max(len(b.label) for b in buttons)
    width = next((w for limit, w in ROW_WIDTHS if longest <= limit), 1)
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def parse_level(level: str | None) -> tuple[str | None, int]:
    """`None` → top level; `"kind"` or `"kind:2"` → that kind's choices, page 2 (pages count from 0)."""
    if not level:
        return None, 0
    kind, _, page = level.partition(":")
    return kind, int(page) if page.isdigit() else 0


def build(
    actions: list[Action],
    encode: Callable[[Action], str],
    label: Labeler,
    kind_label: Callable[[str, int], str],
    *,
    game_id: int,
    seq: int,
    lang: str,
    level: str | None = None,
) -> Keyboard | None:
    """The keyboard for `actions` at menu `level`; None when there is nothing to decide."""
    if not actions:
        return None

    def data(code: str) -> str:
        return pack(game_id, seq, code)

    if len(actions) <= ONE_LEVEL_MAX:
        return _rows([Button(short(label(a)), data(encode(a))) for a in actions])
    kinds: dict[str, list[Action]] = {}
    for a in actions:
        kinds.setdefault(a.kind, []).append(a)
    kind, page = parse_level(level)
    kind, _, first = (kind or "").partition("=")  # "kind=arg": the second step of a two-step kind
    if kind not in kinds:
        if len(kinds) == 1:  # one kind: skip the first level
            kind, first = next(iter(kinds)), ""
        else:
            top = [
                Button(short(label(v[0])), data(encode(v[0])))
                if len(v) == 1
                else Button(short(kind_label(k, len(v))), data("@" + k))
                for k, v in kinds.items()
            ]
            return _rows(top)
    choices = kinds[kind]
    back = "@" if len(kinds) > 1 else None
    if first and _two_steps(choices):  # the second step: the choices with this first argument
        choices, back = [a for a in choices if str(a.args[0]) == first] or choices, "@" + kind
    elif _two_steps(choices):
        firsts = list(dict.fromkeys(a.args[0] for a in choices))
        rows = _rows([Button(short(label(Action(kind, (f,)))), data(f"@{kind}={f}")) for f in firsts])
        return rows + ([[Button(t(lang, "menu.back"), data(back))]] if back else [])
    pages = max(1, -(-len(choices) // PAGE_SIZE))
    page = min(page, pages - 1)
    chunk = choices[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    if _numbers(choices):  # a number pad (Morgan's count): the question says what the numbers are
        pad = [Button(str(a.args[0]), data(encode(a))) for a in chunk]
        rows = [pad[i : i + PAD_ROW] for i in range(0, len(pad), PAD_ROW)]
    else:
        rows = _rows([Button(short(label(a)), data(encode(a))) for a in chunk])
    nav: list[Button] = []
    if back:
        nav.append(Button(t(lang, "menu.back"), data(back)))
    here = f"{kind}={first}" if back == "@" + kind else kind
    if page > 0:
        nav.append(Button(t(lang, "menu.prev"), data(f"@{here}:{page - 1}")))
    if page + 1 < pages:
        nav.append(Button(t(lang, "menu.next"), data(f"@{here}:{page + 1}")))
    if nav:
        rows.append(nav)
    return rows


def _numbers(choices: list[Action]) -> bool:
    """Whether a kind's many choices are each one number (shown as a number pad)."""
    return len(choices) > ONE_LEVEL_MAX and all(
        len(a.args) == 1 and isinstance(a.args[0], int) and not isinstance(a.args[0], bool) for a in choices
    )


def _two_steps(choices: list[Action]) -> bool:
    """Whether a kind's choices are many and each names two things, the first taking several values."""
    return (
        len(choices) > SPLIT_MIN
        and all(len(a.args) >= 2 for a in choices)
        and len({a.args[0] for a in choices}) > 1
    )


def reachable(keyboard_at: Callable[[str | None], Keyboard | None]) -> set[str]:
    """Every action code reachable by walking a menu from the top (used by tests and the console)."""
    seen_levels: set[str | None] = set()
    codes: set[str] = set()
    todo: list[str | None] = [None]
    while todo:
        level = todo.pop()
        if level in seen_levels:
            continue
        seen_levels.add(level)
        for row in keyboard_at(level) or []:
            for button in row:
                code = button.data.split(":", 2)[2]
                if code == "@":
                    todo.append(None)
                elif code.startswith("@"):
                    todo.append(code[1:])
                else:
                    codes.add(code)
    return codes
