"""What the chat shows of two rules of issue 21: Lancelot's Armor's two-card choice is a private prompt (on Telegram
as buttons, on Matrix as numbered answers) and nobody else sees the two cards; a heal's discard is face down on the
group's board and in the story of the move (B-KNIGHT relic, seed 002; B-HEAL, seed 002 FAQ)."""

from __future__ import annotations

from typing import Any

from engine import get_game
from service.matrix import numbered
from service.render.present import present

GAME = get_game("board")
NAMES = {0: "Ann", 1: "Bob", 2: "Cid"}
KNIGHTS = ["gawain", "palamedes", "percival"]


def _table(**stack: Any) -> Any:
    stack.update(skip_gesture=True, knights=KNIGHTS, first=0)
    return GAME.new_game({"players": 3, "stack": stack}, 1)


def _play(state: Any, seat: int, *codes: str) -> list:
    events: list = []
    for code in codes:
        events.extend(GAME.apply_code(state, seat, code)[1])
    return events


def _present(state: Any, events: list) -> Any:
    return present("board", state, events, game_id=7, seq=3, group_lang="en", seat_langs={}, seat_names=NAMES)


def _everything_but(shown: Any, seat: int) -> str:
    """All text a move sends anywhere except to `seat`: the group's board and lines, the other seats' panels."""
    others = [p.text + str(p.buttons) for s, p in shown.panels.items() if s != seat]
    others += [line for s, lines in shown.private_lines.items() if s != seat for line in lines]
    return "\n".join([shown.board, *shown.lines, *others])


def test_the_armor_holder_is_offered_the_two_cards_privately_and_no_one_else_sees_them() -> None:
    state = _table(board={"relics": [["armor"], [], []]}, black=["morgan_two_engines", "despair"])
    shown = _present(state, _play(state, 0, "evil:black"))
    mine = shown.panels[0]
    labels = [b.label for row in mine.buttons or [] for b in row]
    assert len(labels) == 2, labels
    assert any("Despair" in label for label in labels) and any("Morgan" in label for label in labels)
    secret = _everything_but(shown, 0)
    assert "Despair" not in secret and "Morgan" not in secret
    text, answers = numbered.render(mine.text, mine.buttons)  # Matrix: the same two choices, numbered
    assert len(answers) == 2 and "1" in answers and "Despair" in text


def test_a_heal_shows_that_he_healed_never_which_cards() -> None:
    state = _table(board={"life": [2, 4, 4]}, hands=[["fight_3", "fight_3", "fight_3", "grail"], [], []])
    _play(state, 0, "evil:life")
    shown = _present(state, _play(state, 0, "heal:fight_3"))
    group = "\n".join([shown.board, *shown.lines])
    assert "heal" in group.lower()
    assert "Fight 3" not in group and "fight_3" not in group
    assert "Fight 3" not in _everything_but(shown, 0)
