"""Every event the engines can emit has a line, in every language, and telling a game never leaves a gap.

The kinds come from two places, so rare ones are covered too: a static scan of the engines' sources for event
constructions (`public("kind", …)`, `private("kind", …)`, `Event("kind", …)`), and many seeded games played by the
engines' bots. A new kind an engine starts to emit fails here until it has its catalogue entries.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from service.render import i18n
from service.render.narration import board, cards
from service.render.narration.beats import group, visible
from service.render.narration.story import RULES, narrate
from tests.service.render.narration.games import LANGS, NAMES, logs, seats_of

ROOT = Path(__file__).resolve().parents[4]
BUILDERS = {"public": True, "private": False, "Event": None}


def _scan() -> tuple[set[tuple[str, str, bool]], list[str]]:
    """(game, kind, public) for every event construction in engine/board and engine/cards, and the places where
    a kind is not a string literal (which the scan could not read)."""
    found: set[tuple[str, str, bool]] = set()
    unreadable: list[str] = []
    for game in ("board", "cards"):
        for path in sorted((ROOT / "engine" / game).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                    continue
                if node.func.id not in BUILDERS or not node.args:
                    continue
                kind = node.args[0]
                if not (isinstance(kind, ast.Constant) and isinstance(kind.value, str)):
                    unreadable.append(f"{path.name}:{node.lineno}")
                    continue
                audience = BUILDERS[node.func.id]
                for public in (True, False) if audience is None else (audience,):
                    found.add((game, kind.value, public))
    return found, unreadable


def _played() -> set[tuple[str, str, bool]]:
    return {(g, e.kind, e.public) for g in ("board", "cards") for log in logs(g) for _, _, ev in log for e in ev}


def _key(game: str, kind: str, public: bool) -> str:
    return f"narr.{game}.{kind}" if public else f"narr.{game}.own.{kind}"


def test_the_scan_reads_every_construction_and_finds_every_kind_played():
    scanned, unreadable = _scan()
    assert unreadable == []
    assert len(scanned) > 80
    assert _played() <= scanned, _played() - scanned


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_kind_has_its_line_in_every_language(lang):
    kinds = _scan()[0] | _played()
    missing = sorted(_key(*k) for k in kinds if not i18n.has(_key(*k), lang))
    assert missing == []


class _Strict(string.Formatter):
    def get_value(self, key, args, kwargs):
        if key not in kwargs:
            raise KeyError(f"placeholder {{{key}}} has no value")
        return kwargs[key]


@pytest.mark.parametrize("lang", LANGS)
def test_every_move_of_many_games_is_told_with_every_placeholder_filled(lang, monkeypatch):
    strict = _Strict()
    monkeypatch.setattr(board, "fill", lambda text, values: strict.vformat(text, (), values))
    monkeypatch.setattr(cards, "fill", lambda text, values: strict.vformat(text, (), values))
    told = 0
    for game in ("board", "cards"):
        for log in logs(game)[:10]:
            for viewer in [None, *seats_of(log)]:
                for _, _, events in log:
                    for line in narrate(game, events, lang, NAMES, viewer):
                        assert line.strip() and "narr." not in line and "cardtext." not in line, line
                        assert "{" not in line and "}" not in line, line
                        told += 1
    assert told > 5000


def test_every_event_a_reader_may_see_is_in_exactly_one_beat():
    for game, rules in RULES.items():
        for log in logs(game):
            for viewer in [None, *seats_of(log)]:
                for _, _, events in log:
                    seen = visible(rules.prepare(events), viewer, rules.TWINS)
                    beats = group(seen, rules.take)
                    told = [e for b in beats for e in (b.head, *b.absorbed, *b.parts)]
                    assert sorted(map(id, told)) == sorted(map(id, seen))
