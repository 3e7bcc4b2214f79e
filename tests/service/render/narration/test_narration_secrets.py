"""No secret in a line it does not belong to: the engines' audience fields (`Event.to`) and face-down cards decide.

Checked over many seeded games of both engines, in every language: the group's lines are made of public events
alone; a card known only from a private event (a draw, a peek, a face-down value, an exchange) is never named in the
group's lines nor in another seat's; a card the engine marks `hidden` is never named.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.board import catalogue as board_cat
from engine.core.events import Event, private, public
from service.render import names as nm
from service.render.narration.story import narrate
from tests.service.render.narration.games import LANGS, NAMES, logs, seats_of


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_strings, value.keys()), *map(_strings, value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*map(_strings, value)) if value else set()
    return set()


def _card_name(game: str, lang: str, card: str) -> str | None:
    """The card's name, if `card` is a card id whose name cannot be read in a line for another reason (the Grail
    card's name is part of the Holy Grail quest's)."""
    name = nm.board_card(lang, card) if game == "board" else nm.cards_card(lang, card)
    if "." in name or "{" in name:
        return None  # not a card id (a word like "round_table", or a quest id)
    places = [nm.quest(lang, game, q) for q in (*board_cat.LOCATIONS, "black_knight")]
    places += [nm.relic(lang, r) for r in ("excalibur", "grail", "armor")]
    return None if any(name.casefold() in p.casefold() for p in places) else name


def _secrets(game: str, events: list[Event], allowed: set[str], lang: str) -> dict[str, str]:
    """Names of the cards in these private events that no event the reader sees carries."""
    out = {}
    for e in events:
        for card in _strings(e.data) - allowed:
            name = _card_name(game, lang, card)
            if name and card not in ("hidden",):
                out[card] = name
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_group_lines_are_made_of_public_events_only(lang):
    for game in ("board", "cards"):
        for log in logs(game)[:12]:
            for _, _, events in log:
                assert narrate(game, events, lang, NAMES) == narrate(game, [e for e in events if e.public], lang, NAMES)


@pytest.mark.parametrize("lang", LANGS)
def test_a_card_known_from_a_private_event_is_named_only_to_its_seats(lang):
    checked = 0
    for game in ("board", "cards"):
        for log in logs(game)[:15]:
            seats = seats_of(log)
            for _, _, events in log:
                secret = [e for e in events if not e.public]
                if not secret:
                    continue
                shown = set().union(*(_strings(e.data) for e in events if e.public))
                for reader in [None, *seats]:
                    theirs = set().union(*(_strings(e.data) for e in secret if e.visible_to(reader)))
                    others = [e for e in secret if not e.visible_to(reader)]
                    text = "\n".join(narrate(game, events, lang, NAMES, reader))
                    for card, name in _secrets(game, others, shown | theirs, lang).items():
                        assert name not in text, (game, reader, card, text)
                        checked += 1
    assert checked > 1000


@pytest.mark.parametrize("lang", LANGS)
def test_a_hidden_black_card_is_never_named(lang):
    face_down = [nm.board_card(lang, c) for c in board_cat.FACE_DOWN_ABLE]
    hidden = 0
    for log in logs("board"):
        for _, _, events in log:
            for e in events:
                if e.public and e.data.get("card") == "hidden":
                    hidden += 1
                    for line in narrate("board", [e], lang, NAMES):
                        assert not any(name in line for name in face_down), line
    assert hidden > 100


def test_a_cancel_window_does_not_name_a_card_its_drawer_may_still_hide():
    """The window's events carry the drawn card (the engine needs it); a Black Knight or Lancelot card drawn by a
    knight is hidden until placed, so the line says "face-down card"; a special card is named."""
    for event in (public("black_not_cancelled", card="black_knight_5"),
                  public("black_cancelled", card="lancelot_3", by="excalibur", seat=1)):
        line = narrate("board", [event], "en", NAMES)[0]
        assert "Black Knight 5" not in line and "Lancelot" not in line and "face-down card" in line, line
    assert narrate("board", [public("black_not_cancelled", card="vivien")], "en", NAMES) == ["⚫ Vivien takes effect"]


def test_a_private_event_gives_no_line_to_the_group_or_to_another_seat():
    secret = private("black_drawn", 2, seat=2, card="black_knight_7")
    assert narrate("board", [secret], "en", NAMES) == []
    assert narrate("board", [secret], "en", NAMES, viewer=1) == []
    assert narrate("board", [secret], "en", NAMES, viewer=2) == ["🤫 You draw Black Knight 7"]
    assert narrate("board", [secret], "en", NAMES, viewer=None, own_only=True) == []
