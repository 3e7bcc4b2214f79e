"""The golden playthroughs to keep, as data: each game's player counts and variants, and for the board game some
scripted openings that reach the situations of the rules (issue 21) which bots meet rarely, before bots go on.

A spec's file is `<game>/<name>.txt` beside this module. Adding or changing a spec means regenerating its file.
"""

from __future__ import annotations

from typing import Any

from .playthrough import Spec

F1, F2, F3, F4, F5 = "fight_1", "fight_2", "fight_3", "fight_4", "fight_5"
TRAITOR_LAST = ["loyal", "loyal", "traitor"]


def _table(players: int, knights: list[str], **stack: Any) -> dict[str, Any]:
    """A scripted board table starting at seat 0's first turn (no opening gesture)."""
    return {"players": players, "stack": {"knights": knights, "first": 0, "skip_gesture": True, **stack}}


def _hands(*hands: list[str]) -> list[list[str]]:
    return [list(h) for h in hands]


BOARD = [
    Spec("board", "three_standard", "3 players, standard Traitor, heuristic bots", {"players": 3}, 1),
    Spec("board", "four_among_us", "4 players, Traitor among us",
         {"players": 4, "variant": {"traitor": "among_us"}}, 2),
    Spec("board", "five_standard", "5 players, standard Traitor, heuristic bots", {"players": 5}, 3),
    Spec("board", "six_no_traitor_mixed", "6 players, first game without a Traitor, mixed bots",
         {"players": 6, "variant": {"traitor": "none"}}, 4, "mixed"),
    Spec("board", "seven_standard", "7 players, standard Traitor, heuristic bots", {"players": 7}, 5),
    Spec("board", "three_brave_knights", "3 players with the three-player loyalty rule",
         {"players": 3, "variant": {"three_player_rule": True}}, 6),
    Spec("board", "three_brave_knights_swords", "3 players, the three-player rule read as in seed 000 (6 swords only)",
         {"players": 3, "variant": {"three_player_rule": True, "three_player_trigger": "swords"}}, 22),
    Spec("board", "four_squires_mixed", "4 squires, mixed bots",
         {"players": 4, "variant": {"squires": True}}, 7, "mixed"),
    Spec("board", "five_wars_any_order_random", "5 players, wars in any order, random bots",
         {"players": 5, "variant": {"war_any_order": True}}, 8, "random"),
    Spec("board", "five_timeouts", "5 players, every seat played as the timeout policy plays it (heuristic, as loyal)",
         {"players": 5}, 9, "loyal"),
    Spec("board", "fate_traitor_random", "4 random players, the Traitor holds Fate (he may unmask in his turn)",
         _table(4, ["gawain", "kay", "tristan", "palamedes"], loyalty=["loyal", "traitor", "loyal", "loyal"],
                hands=_hands(["merlin", F1, F2, F3], ["fate", "merlin", F4, F5], ["merlin", "grail"], ["merlin"])),
         10, "random"),
    # B-KNIGHT, the Armor: whoever holds it draws two black cards and keeps one (item 1)
    Spec("board", "armor_holder", "Sir Gawain holds Lancelot's Armor from the start",
         _table(4, ["gawain", "kay", "arthur", "tristan"], board={"relics": [["armor"], [], [], []]}), 11),
    Spec("board", "armor_revealed_traitor", "a revealed Traitor keeps the Armor and its power",
         _table(3, ["gawain", "kay", "tristan"], loyalty=TRAITOR_LAST,
                hands=_hands(["merlin", F1, F2, F3, F4], ["merlin", F5, F5, "grail"], []),
                board={"relics": [[], [], ["armor"]], "revealed": [False, False, True], "life": [4, 4, 0],
                       "engines": 6}), 12),
    # B-TURN: no heroic action after dying in one's own Evil phase (item 2)
    Spec("board", "evil_phase_death", "Sir Gawain loses his last life point in his Evil phase",
         _table(4, ["gawain", "kay", "arthur", "tristan"], board={"life": [1, 4, 4, 4]}), 13,
         opening=((0, "evil:life"),)),
    Spec("board", "evil_phase_death_grail", "the same, while another knight holds the Grail",
         _table(4, ["gawain", "kay", "arthur", "tristan"], loyalty=["loyal"] * 4,
                board={"life": [1, 4, 4, 4], "relics": [[], [], ["grail"], []]}), 14,
         opening=((0, "evil:life"),)),
    # B-END: the last loyal knight dying as the 12th sword lands loses the game (item 3)
    Spec("board", "last_loyal_sacrifice", "the last loyal knight sacrifices his last life to win the war (12th sword)",
         _table(3, ["gawain", "kay", "tristan"], loyalty=["loyal", "traitor", "loyal"],
                hands=_hands([F5, "reinforcements"], [F1, F2], []),
                board={"alive": [True, True, False], "life": [1, 4, 0], "loc": ["picts", "camelot", "camelot"],
                       "war_white": {"picts": [F1, F2, F3, F4], "saxons": []}, "swords_white": 8,
                       "swords_black": 3}), 15,
         opening=((0, "evil:siege"), (0, "play:reinforcements.others"), (0, "sacrifice"), (0, "fight:5"))),
    Spec("board", "last_loyal_lost_war", "a lost war kills the last loyal knight and lays the 12th sword",
         _table(3, ["gawain", "kay", "tristan"], loyalty=["traitor", "loyal", "loyal"],
                board={"alive": [True, True, False], "life": [4, 1, 0], "loc": ["camelot", "picts", "camelot"],
                       "war_black": {"picts": ["picts", "picts", "mercenaries"], "saxons": []},
                       "swords_white": 9, "swords_black": 2}, black=["picts"]), 16,
         opening=((0, "evil:black"),)),
    # B-LIFE: Excalibur won by a dying knight goes to whoever lets him drink from the Grail (item 4)
    Spec("board", "excalibur_to_rescuer",
         "a dying knight wins Excalibur with the Lady of the Lake; the Grail saves him",
         _table(3, ["gawain", "kay", "tristan"], loyalty=["loyal"] * 3,
                hands=_hands(["lady_of_the_lake"], [F1, F2], [F3]),
                board={"life": [1, 4, 4], "excal_pos": 9, "relics": [[], ["grail"], []]}), 17,
         opening=((0, "evil:siege"), (0, "draw"), (0, "sacrifice"), (0, "play:lady_of_the_lake"))),
    # B-QUEST: a Despair drawn onto a full Grail quest is not placed (item 5)
    Spec("board", "despair_on_full_grail", "a Despair is drawn while the Grail quest is full",
         _table(3, ["gawain", "kay", "tristan"], board={"grail_white": 4, "grail_black": ["despair"] * 3},
                black=["despair"]), 18, opening=((0, "evil:black"),)),
    # B-KNIGHT: Galahad's free special card is optional (item 6)
    Spec("board", "galahad_on_the_grail", "Sir Galahad on the Grail with Piety and no Grail card",
         _table(3, ["galahad", "kay", "gawain"], hands=_hands(["piety", F1, F3], [F2, "grail"], [F4]),
                board={"loc": ["grail", "camelot", "camelot"], "grail_white": 2}), 19,
         opening=((0, "evil:siege"),)),
    # B-TURN heal: three identical cards discarded face down (item 8)
    Spec("board", "heal_face_down", "a knight heals with three identical cards",
         _table(3, ["gawain", "kay", "tristan"], hands=_hands([F2, F2, F2, "grail"], [F1], [F3]),
                board={"life": [2, 4, 4]}), 20, opening=((0, "evil:siege"), (0, "heal:fight_2"))),
    # B-QUEST: a Lady of the Lake win whose shared cards are refused (also from the rulebooks)
    Spec("board", "lady_split_refused", "the Lady of the Lake wins Excalibur for two knights who cannot agree",
         _table(3, ["gawain", "kay", "tristan"], hands=_hands(["lady_of_the_lake"], [F1], [F2]),
                board={"excal_pos": 9, "loc": ["camelot", "excalibur", "excalibur"]}), 21,
         opening=((0, "evil:siege"), (0, "play:lady_of_the_lake"), *((1, "give:1"),) * 4, *((1, "give:2"),) * 3,
                  (2, "refuse"))),
]

CARDS = [
    Spec("cards", "solo", "1 player, heuristic bot", {"players": 1}, 1),
    Spec("cards", "three_expert_mixed", "3 players, Knights variant, mixed bots", {"players": 3, "expert": True}, 2,
         "mixed"),
    Spec("cards", "four_standard", "4 players, heuristic bots", {"players": 4}, 3),
    Spec("cards", "five_expert", "5 players, Knights variant, heuristic bots", {"players": 5, "expert": True}, 4),
    Spec("cards", "six_timeouts", "6 players, every seat played as the timeout policy plays it",
         {"players": 6, "expert": True}, 5, "loyal"),
    Spec("cards", "seven_random", "7 players, random bots", {"players": 7}, 6, "random"),
]

SPECS = {"board": BOARD, "cards": CARDS}
