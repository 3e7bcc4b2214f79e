"""White cards discarded face down are never named to the table (B-TURN heal, B-LIFE, B-TRAITOR; issue 21, item 8).

Seed 002 FAQ on healing: "zouden de kaarten moeten worden verwijderd met afbeelding naar beneden"; on dying: "Al je
witte kaarten worden onmiddellijk met afbeelding naar beneden verwijderd op de witte aflegstapel"; the revealed
Traitor takes "1 willekeurige witte kaart … van de handen van 1 van de collega-ridders en ze onmiddellijk verwijderen
zonder ze te spelen". The property test plays random games and checks every step.
"""

from __future__ import annotations

import random
from collections import Counter

from board_helpers import GAME, check_invariants, play, table

from engine.board import catalogue as cat
from engine.bots import RandomBot

F1, F2 = "fight_1", "fight_2"
# Public events that show white cards face up (played, shared on the table, paid to cancel a black card).
_FACE_UP = frozenset(("white_played", "special_played", "kay_card", "table", "split_proposed", "white_taken",
                      "white_discarded", "siege_roll", "black_cancelled"))


_CARD_KEYS = ("card", "cards", "gave", "got")  # (other fields name quests, and "grail" is a quest as well as a card)


def _named(data: dict) -> set[str]:
    """Every white card id an event's data names."""
    found: set[str] = set()
    for key in _CARD_KEYS:
        value = data.get(key)
        found.update([value] if isinstance(value, str) else value if isinstance(value, list) else [])
    return found & set(cat.WHITE_COUNTS)


def test_healing_discards_three_cards_face_down_the_table_learns_only_that_he_healed() -> None:
    """B-TURN (heal): seed 002 FAQ, "met afbeelding naar beneden": the public event says he healed, not with what;
    a knight who knew one of those cards in his hand (a Messenger's) no longer counts on it."""
    state = table(3, hands=[["messenger", F1], ["merlin", "merlin", "merlin", F2], []], board={"life": [4, 2, 4]})
    play(state, 0, "evil:siege", "play:messenger.1", "give:fight_1", "end")
    assert state.known[0][1] == [F1]
    events = play(state, 1, "evil:siege", "heal:merlin")
    assert state.life[1] == 3 and sorted(state.hands[1]) == [F1, F2] and state.white_discard.count("merlin") == 3
    healed = [e for e in events if e.kind == "healed"]
    assert healed and healed[0].public and healed[0].data == {"seat": 1}
    assert not any("merlin" in _named(e.data) for e in events if e.public)
    assert state.known[0][1] == [] and "merlin" not in str(GAME.view(state, None))
    check_invariants(state)


def test_a_dead_knights_hand_and_a_traitors_random_discard_are_not_named_to_the_table() -> None:
    """B-LIFE and B-TRAITOR: the dying knight's hand and the card the Traitor takes go face down; only the holder
    is told which card he lost."""
    board = {"life": [4, 1, 4], "revealed": [False, False, False]}
    state = table(3, hands=[[F1], ["merlin", F2], ["grail"]], board=board, black=["morgan_lose_life"])
    events = play(state, 0, "evil:black", "pass")
    events += play(state, 1, "pass")
    events += play(state, 2, "pass")
    assert not state.alive[1] and {"merlin", F2} <= set(state.white_discard)
    assert not any({"merlin", F2} & _named(e.data) for e in events if e.public)
    board = {"revealed": [False, False, True], "life": [4, 4, 0]}
    state = table(3, loyalty=["loyal", "loyal", "traitor"], hands=[["grail"], [F1], []], board=board, first=2)
    events = play(state, 2, "steal:0")
    assert state.white_discard == ["grail"]
    assert [e.to for e in events if "grail" in _named(e.data)] == [frozenset([0])]


def test_no_public_event_or_view_names_a_card_discarded_face_down() -> None:
    """Random games, every step: the white cards that left a hand for the discard pile without being shown face up
    are named by no public event; and the public view does not depend on which cards the discard piles hold."""
    checked = 0
    for seed in range(200):
        rng = random.Random(seed)
        state = GAME.new_game({"players": 3 + seed % 5}, seed)
        while GAME.result(state) is None:
            hands, discard = [Counter(h) for h in state.hands], Counter(state.white_discard)
            seat = GAME.pending(state)[0].seat
            _, events = GAME.apply(state, seat, RandomBot().choose(GAME, state, seat, rng))
            if len(state.white_discard) < sum(discard.values()):
                continue  # the decks were rebuilt this step
            left = sum((old - Counter(new) for old, new in zip(hands, state.hands, strict=False)), Counter())
            shown = Counter(c for e in events if e.public and e.kind in _FACE_UP for c in _named(e.data))
            face_down = (left & (Counter(state.white_discard) - discard)) - shown
            for e in events:
                if e.public and e.kind not in _FACE_UP:
                    assert not set(face_down) & _named(e.data), f"seed {seed}: {e} names {sorted(face_down)}"
            checked += bool(face_down)
            public = GAME.view(state, None)
            other = GAME.copy(state)
            other.white_discard = sorted(other.white_discard)[::-1]
            other.black_discard = sorted(other.black_discard)
            assert GAME.view(other, None) == public, f"seed {seed}: the public view shows the discard piles"
    assert checked > 200, checked  # steps with a face-down discard (heals, deaths, steals, discards of choice)
