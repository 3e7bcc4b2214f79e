"""The rule id → scenario tests table, and a check that every C- rule id of the digest is covered by real tests."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

RULE_TESTS: dict[str, list[str]] = {
    "C-COMP": ["test_cards_turn::test_components_62_rumors",
               "test_cards_properties::test_random_games_hold_every_invariant"],
    "C-SETUP": ["test_cards_turn::test_setup_loyalty_deck_morgans_and_empty_table",
                "test_cards_turn::test_setup_stack_is_validated",
                "test_cards_stack::test_a_stack_that_no_game_can_reach_is_refused",
                "test_cards_stack::test_accusations_already_made"],
    "C-TURN": ["test_cards_turn::test_turn_offers_the_three_actions_and_passes_clockwise",
               "test_cards_properties::test_illegal_action_leaves_the_state_unchanged_mid_window"],
    "C-LISTEN": ["test_cards_turn::test_listen_reveals_the_top_card_and_rebuilds_an_empty_deck",
                 "test_cards_silence::test_only_the_top_threat_card_is_in_any_view",
                 "test_cards_stack::test_an_empty_deck_is_rebuilt_from_the_discards"],
    "C-QUEST": ["test_cards_turn::test_quest_only_for_the_icon_on_top",
                "test_cards_turn::test_quest_without_the_icon_is_illegal_and_changes_nothing",
                "test_cards_turn::test_when_nothing_can_be_drawn_the_top_card_counts_as_any_quest"],
    "C-ACCUSE": ["test_cards_turn::test_accuse_needs_four_swords_once_per_player_never_yourself"],
    "C-TRAITOR": ["test_cards_turn::test_revealed_traitor_draws_two_places_one_discards_other_face_down"],
    "C-RESOLVE": ["test_cards_resolve::test_seed_example_1_excalibur_12_two_white_picts_secondary_14_one_black",
                  "test_cards_resolve::test_seed_example_2_excalibur_7_one_black_picts_11_secondary_nothing",
                  "test_cards_resolve::test_main_quest_thresholds_and_swords_per_quest",
                  "test_cards_resolve::test_question_marks_are_worth_their_count_in_the_stack",
                  "test_cards_resolve::test_secondary_quest_under_14_gives_nothing_and_14_gives_its_black_swords",
                  "test_cards_resolve::test_main_quest_absent_from_the_pile_is_too_early",
                  "test_cards_resolve::test_swords_never_exceed_the_box"],
    "C-CHAR": ["test_cards_resolve::test_mordred_seed_example_picts_12_saxons_5",
               "test_cards_resolve::test_morgan_3_adds_one_sword_to_every_placement",
               "test_cards_resolve::test_morgan_4_adds_its_value_to_present_quests_only",
               "test_cards_resolve::test_morgan_5_success_only_on_12_or_13",
               "test_cards_resolve::test_morgan_6_question_marks_worth_one",
               "test_cards_resolve::test_morgan_7_loyal_lose_at_once_on_main_14",
               "test_cards_resolve::test_morgan_7_harmless_below_14",
               "test_cards_resolve::test_merlins_1_to_3_remove_the_highest_card_of_their_quests",
               "test_cards_resolve::test_merlin_never_removes_a_question_mark",
               "test_cards_resolve::test_merlin_4_token_chosen_at_reveal_removes_at_next_resolution",
               "test_cards_resolve::test_merlin_5_main_succeeds_with_exactly_five_cards",
               "test_cards_silence::test_morgan_1_look_announce_face_down_and_quest_on_the_announcement",
               "test_cards_silence::test_morgan_1_pile_is_shuffled_before_resolving",
               "test_cards_silence::test_morgan_2_each_listener_announces_a_count_publicly",
               "test_cards_vivien_end::test_vivien_take_give_and_secret_keep_or_swap_for_both",
               "test_cards_vivien_end::test_vivien_timeout_keeps",
               "test_cards_vivien_end::test_vivien_does_nothing_in_solo",
               "test_cards_vivien_end::test_vivien_card_may_go_to_any_player_even_one_already_accused",
               "test_cards_vivien_end::test_an_accused_revealer_decides_keep_or_swap_and_nothing_public_tells_his_choice",
               "test_cards_vivien_end::test_a_revealed_traitor_who_reveals_vivien_decides_too_and_keeps_the_traitors_turn",
               "test_cards_stack::test_morgan_1_in_force_makes_the_listener_look_and_announce",
               "test_cards_stack::test_morgan_2_in_force_carries_its_count",
               "test_cards_stack::test_a_face_down_threat_card_and_its_announcement",
               "test_cards_stack::test_merlin_4_token_in_force"],
    "C-SILENCE": ["test_cards_silence::test_walkthrough_morgan_listen_merlin_then_morgan_quest",
                  "test_cards_silence::test_morgan_1_and_2_end_when_a_merlin_is_revealed_not_at_a_quest",
                  "test_cards_silence::test_the_silence_ends_with_the_game",
                  "test_cards_stack::test_silence_in_force_ends_at_a_quest"],
    "C-END": ["test_cards_vivien_end::test_end_finishes_the_resolution_then_reveals_and_traitor_flips_a_white_sword",
              "test_cards_vivien_end::test_loyal_win_with_seven_white_and_more_than_black",
              "test_cards_vivien_end::test_evil_win_with_seven_black_at_least_as_many_as_white",
              "test_cards_vivien_end::test_accusation_reaching_seven_ends_the_game",
              "test_cards_vivien_end::test_solo_game_has_no_loyalty_and_no_accusations",
              "test_cards_vivien_end::test_turn_cap_is_reported_as_such"],
    "C-KNIGHTS": ["test_cards_knights::test_success_shuffles_a_set_aside_morgan_into_the_deck",
                  "test_cards_knights::test_failure_with_a_black_sword_draws_a_secret_knight_card",
                  "test_cards_knights::test_arthur_window_asks_every_other_player_and_forces_a_listen",
                  "test_cards_knights::test_arthur_all_pass_the_quest_goes_on",
                  "test_cards_knights::test_no_window_when_nobody_holds_a_knight_card",
                  "test_cards_knights::test_tristan_looks_at_the_deck_privately_before_acting",
                  "test_cards_knights::test_a_current_tristan_look_knows_the_cards_drawn_secretly_afterwards",
                  "test_cards_knights::test_gawain_after_totals_plays_one_drawn_card_into_the_resolution",
                  "test_cards_knights::test_gawain_with_only_morgans_plays_nothing",
                  "test_cards_knights::test_galahad_looks_at_a_loyalty_card_instead_of_acting",
                  "test_cards_knights::test_percival_at_an_accusation_gives_two_swords",
                  "test_cards_knights::test_percival_at_the_final_reveal_flips_two"],
}

DIGEST = Path(__file__).resolve().parents[3] / ".." / "shared" / "rules" / "card-game.md"


def test_every_rule_id_of_the_digest_has_scenario_tests():
    if not DIGEST.exists():
        pytest.skip(f"rules digest not found at {DIGEST}")
    ids = set(re.findall(r"\bC-[A-Z]{2,}\b", DIGEST.read_text()))
    assert ids, "no rule ids found in the digest"
    missing = sorted(ids - set(RULE_TESTS))
    assert not missing, f"rule ids without tests: {missing}"


def test_every_listed_test_exists():
    for rule, tests in RULE_TESTS.items():
        assert tests, rule
        for ref in tests:
            module, name = ref.split("::")
            assert callable(getattr(importlib.import_module(module), name, None)), f"{rule}: {ref} does not exist"
