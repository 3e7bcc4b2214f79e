"""The view format documented in engine/cards/views.py: exact keys (renderers depend on them) and no secrets."""

from __future__ import annotations

import json
import pickle

from cards_helpers import GAME, make, play

PUBLIC_KEYS = {
    "game", "players", "expert", "solo", "turn", "current", "phase", "silence", "threat_top", "threat_announced",
    "threat_count", "quest_options", "swords", "deck_count", "discard_count", "accusations", "revealed",
    "traitors_revealed", "pending", "morgan1", "morgan2", "merlin4_token", "knights", "resolution", "result",
}
YOU_KEYS = {
    "seat", "loyalty", "accused", "knights", "looks", "tristan", "morgan1_card", "held", "merlin4_quest",
    "traitor_draw", "gawain_draw", "vivien_card",
}


def test_view_keys_are_exactly_the_documented_ones():
    s = make(4, expert=True, deck=["dragon_3"])
    public = GAME.view(s, None)
    assert set(public) == PUBLIC_KEYS
    seat = GAME.view(s, 2)
    assert set(seat) == PUBLIC_KEYS | {"you"} and set(seat["you"]) == YOU_KEYS
    assert public["pending"] == [{"seat": 0, "kind": "turn", "timing": "turn"}]
    assert public["swords"] == {"white": 0, "black": 0, "left": 16}
    assert public["knights"] == {"deck": 9, "held": [0, 0, 0, 0], "played": [], "morgans_aside": 3}
    play(s, (0, "listen"))
    assert GAME.view(s, None)["threat_top"] == "dragon_3" and GAME.view(s, None)["quest_options"] == ["dragon"]


def values(tree) -> list:
    """Every leaf value of a JSON-like tree (keys excluded)."""
    if isinstance(tree, dict):
        return [v for x in tree.values() for v in values(x)]
    if isinstance(tree, list):
        return [v for x in tree for v in values(x)]
    return [tree]


def test_a_seat_sees_its_own_loyalty_and_nobody_else_does():
    s = make(4, loyalty=["loyal", "loyal", "traitor", "loyal", "loyal", "loyal"])
    assert GAME.view(s, 2)["you"]["loyalty"] == "traitor"
    for seat in (None, 0, 1, 3):
        view = GAME.view(s, seat)
        assert json.loads(json.dumps(view)) == view and "traitor" not in values(view)


def test_copy_is_independent_of_the_original():
    s = make(3, deck=["vivien", "dragon_3"], swords=[2, 2])
    before = GAME.digest(s)
    other = GAME.copy(s)
    play(other, (0, "listen"), (0, "give:1"), (0, "swap"), (1, "keep"), (1, "accuse:2"))
    assert GAME.digest(s) == before and GAME.digest(other) != before
    assert s.threat == [] and s.accused == [-1, -1, -1] and s.phase == "turn"


def test_first_seat_is_configurable():
    s = GAME.new_game({"players": 5, "first": 3}, 9)
    assert s.current == 3 and GAME.pending(s)[0].seat == 3


def test_a_state_survives_pickling_as_the_session_cache_stores_it():
    s = make(3, expert=True, deck=["vivien"], hands=[[], ["arthur"], []])
    play(s, (0, "listen"), (0, "give:2"))
    back = pickle.loads(pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL))
    assert GAME.digest(back) == GAME.digest(s) and GAME.view(back, 2) == GAME.view(s, 2)
    play(back, (0, "keep"), (2, "swap"))
    assert GAME.digest(back) != GAME.digest(s)


def test_a_state_cached_before_the_fields_full_names_still_loads():
    """Issue 22 named `loy`, `loy_public` and `res` in full: a state the service pickled with those names loads."""
    from engine.cards.state import RENAMED, State

    s = make(3, expert=True, deck=["vivien"], hands=[[], ["arthur"], []])
    play(s, (0, "listen"), (0, "give:2"))
    _, _, (_, fields), *_ = s.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    short = {name: old for old, name in RENAMED.items()}
    old = State.__new__(State)
    old.__setstate__((None, {short.get(f, f): v for f, v in fields.items()}))
    assert GAME.digest(old) == GAME.digest(s) and GAME.view(old, 2) == GAME.view(s, 2)
