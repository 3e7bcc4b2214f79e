"""C-COMP, C-SETUP, C-TURN, C-LISTEN, C-QUEST, C-ACCUSE, C-TRAITOR scenarios."""

from __future__ import annotations

from collections import Counter

import pytest
from cards_helpers import GAME, codes, kinds, last, make, play

from engine import IllegalAction
from engine.cards.catalogue import CARDS, MORGANS, QUESTS, RUMORS, loyalty_deck
from engine.cards.state import all_rumors, conserved


def test_components_62_rumors():
    counts = Counter(CARDS[c].kind for c in RUMORS)
    assert len(RUMORS) == 62 and counts == {"quest": 45, "merlin": 5, "morgan": 9, "mordred": 2, "vivien": 1}
    for q in QUESTS:
        values = sorted((CARDS[c].value or 0) for c in RUMORS if CARDS[c].quest == q)
        assert values == [0, 0, 0, 0, 2, 3, 4, 4, 5]


@pytest.mark.parametrize("players", range(1, 8))
def test_setup_loyalty_deck_morgans_and_empty_table(players):
    s = GAME.new_game({"players": players}, seed=players)
    if players == 1:
        assert s.loyalty == [] and GAME.view(s, 0)["you"]["loyalty"] is None
    else:
        assert sorted(s.loyalty) == sorted(loyalty_deck(players)) and len(s.loyalty) == players + 2
        assert Counter(loyalty_deck(players))["traitor"] == (2 if players == 7 else 1)
    assert len(s.aside) == 3 and all(c in MORGANS for c in s.aside)
    assert sum(1 for c in s.deck if c in MORGANS) == 6 and len(s.deck) == 59
    assert s.threat == [] and (s.white, s.black) == (0, 0) and conserved(s)
    assert Counter(all_rumors(s)) == Counter(RUMORS)


def test_setup_stack_is_validated():
    with pytest.raises(IllegalAction) as err:
        make(3, deck=["picts_5", "picts_5"])
    assert err.value.rule == "C-SETUP"
    with pytest.raises(IllegalAction):
        GAME.new_game({"players": 8}, 1)


def test_turn_offers_the_three_actions_and_passes_clockwise():
    s = make(4, deck=["mordred"], swords=[2, 2])
    assert codes(s, 0) == ["listen", "accuse:1", "accuse:2", "accuse:3"]
    assert codes(s, 1) == [] and [p.kind for p in GAME.pending(s)] == ["turn"]
    play(s, (0, "listen"))
    assert s.current == 1 and codes(s, 1)[:3] == ["listen", "quest:picts", "quest:saxons"]


def test_listen_reveals_the_top_card_and_rebuilds_an_empty_deck():
    s = make(3, deck=["grail_2"])
    ev = play(s, (0, "listen"))
    assert last(ev, "reveal").data == {"seat": 0, "card": "grail_2"} and GAME.view(s, None)["threat_top"] == "grail_2"
    s.discard, s.deck = s.deck, []
    s.discard_seen = [-1] * len(s.discard)
    ev = play(s, (1, "listen"))
    assert "reshuffle" in kinds(ev) and s.discard == [] and len(s.deck) == 57 and conserved(s)


@pytest.mark.parametrize(
    ("top", "allowed"),
    [("grail_q", ["grail"]), ("mordred", ["picts", "saxons"]), ("morgan_4_1", list(QUESTS)), ("merlin_3", [])],
)
def test_quest_only_for_the_icon_on_top(top, allowed):
    s = make(3, threat=["dragon_5", top])
    assert [c.split(":")[1] for c in codes(s, 0) if c.startswith("quest")] == allowed
    assert GAME.view(s, None)["quest_options"] == allowed


def test_quest_without_the_icon_is_illegal_and_changes_nothing():
    s = make(3, threat=["dragon_5", "grail_q"])
    before = GAME.digest(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply_code(s, 0, "quest:dragon")
    assert err.value.rule == "C-QUEST" and GAME.digest(s) == before
    with pytest.raises(IllegalAction) as err:
        GAME.apply_code(s, 1, "listen")
    assert err.value.rule == "C-TURN" and GAME.digest(s) == before


def test_accuse_needs_four_swords_once_per_player_never_yourself():
    s = make(4, swords=[2, 1])
    with pytest.raises(IllegalAction) as err:
        GAME.apply_code(s, 0, "accuse:1")
    assert err.value.rule == "C-ACCUSE"
    s = make(4, swords=[2, 2], loyalty=["loyal", "traitor", "loyal", "loyal", "loyal", "loyal"], deck=["grail_2"])
    assert "accuse:0" not in codes(s, 0)
    ev = play(s, (0, "accuse:2"))
    assert last(ev, "loyalty_revealed").data["loyalty"] == "loyal" and s.black == 3
    assert GAME.view(s, None)["accusations"] == [{"by": 0, "target": 2, "loyalty": "loyal", "swords": 1}]
    ev = play(s, (1, "listen"), (2, "accuse:1"))
    assert last(ev, "loyalty_revealed").data["loyalty"] == "traitor" and s.white == 3
    assert GAME.view(s, None)["traitors_revealed"] == [1]
    play(s, (3, "listen"))
    assert not any(c.startswith("accuse") for c in codes(s, 0))  # seat 0 has accused already


def test_revealed_traitor_draws_two_places_one_discards_other_face_down():
    s = make(3, swords=[2, 2], loyalty=["loyal", "traitor", "loyal", "loyal", "loyal"],
             deck=["grail_2", "morgan_6", "dragon_3"])
    ev = play(s, (0, "accuse:1"))
    draw = last(ev, "traitor_draw")
    assert draw.to == frozenset({1}) and draw.data["cards"] == ["grail_2", "morgan_6"]
    assert s.phase == "traitor" and codes(s, 1) == ["place:0", "place:1"]
    assert GAME.view(s, 1)["you"]["traitor_draw"] == ["grail_2", "morgan_6"]
    assert GAME.view(s, 0)["you"]["traitor_draw"] == []
    ev = play(s, (1, "place:1"))
    assert GAME.view(s, None)["threat_top"] == "morgan_6" and s.silence
    assert s.discard == ["grail_2"] and s.discard_seen == [0b010]
    assert "grail_2" not in str([e.data for e in ev if e.public])
    assert s.current == 2 and s.phase == "turn"


def test_when_nothing_can_be_drawn_the_top_card_counts_as_any_quest():
    aside = ["morgan_1", "morgan_2", "morgan_3"]
    pile = list(RUMORS)
    for card in aside + ["dragon_5"]:
        pile.remove(card)
    s = make(3, threat=[*pile, "dragon_5"], aside=aside)
    assert s.deck == [] and s.discard == []
    assert codes(s, 0) == [f"quest:{q}" for q in QUESTS]
    with pytest.raises(IllegalAction) as err:
        GAME.apply_code(s, 0, "listen")
    assert err.value.rule == "C-LISTEN"
