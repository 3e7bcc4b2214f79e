"""Every rule id of the digest `shared/rules/board-game.md` has named scenario tests: the table below maps them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
DIGEST = HERE.parents[2] / ".." / "shared" / "rules" / "board-game.md"

RULE_TESTS: dict[str, list[str]] = {
    "B-SETUP": ["test_board_turn.py::test_setup_deals_a_merlin_and_five_cards_four_life_and_arthur_starts",
                "test_board_turn.py::test_opening_gesture_split_by_agreement",
                "test_board_turn.py::test_opening_gesture_refused_deals_one_card_each_at_random"],
    "B-TURN": ["test_board_turn.py::test_evil_phase_offers_black_card_siege_engine_or_life",
               "test_board_turn.py::test_heroic_action_is_compulsory_and_cannot_be_passed",
               "test_board_turn.py::test_a_knight_dying_in_his_own_evil_phase_takes_no_heroic_action",
               "test_board_dying.py::test_a_black_card_that_kills_the_drawer_in_his_evil_phase_ends_his_turn",
               *(f"test_board_white_cards.py::{name}" for name in (
                   "test_merlin_removes_a_siege_engine_a_figure_or_the_last_black_fight_card",
                   "test_only_one_special_card_per_turn_even_with_a_sacrifice",
                   "test_convocation_calls_knights_home_and_shares_one_card_each",
                   "test_fate_each_living_knight_draws_one",
                   "test_piety_gives_one_life_to_each_other_knight",
                   "test_clairvoyance_reorders_the_top_five_black_cards_and_only_its_player_knows",
                   "test_heroism_goes_on_any_open_quest_and_adds_to_a_defeat_too",
                   "test_reinforcements_four_cards_or_one_for_each_other_knight",
                   "test_lady_of_the_lake_moves_excalibur_or_heals_two",
                   "test_messenger_gives_up_to_three_cards_privately",
                   "test_healing_discards_three_identical_cards_specials_included")),
               "test_board_face_down.py::test_healing_discards_three_cards_face_down_the_table_learns_only_that_he_healed",
               "test_board_face_down.py::test_no_public_event_or_view_names_a_card_discarded_face_down"],
    "B-SACRIFICE": ["test_board_turn.py::test_sacrifice_second_action_must_be_of_another_type",
                    "test_board_turn.py::test_sacrifice_to_zero_still_acts_then_dies_despite_a_quest_win",
                    "test_board_dying.py::test_dying_by_ones_own_sacrifice_still_allows_that_last_action"],
    "B-LIFE": ["test_board_turn.py::test_life_is_clamped_to_six",
               "test_board_dying.py::test_a_knight_dying_in_his_evil_phase_is_offered_the_grail_at_once_and_keeps_his_cards",
               "test_board_turn.py::test_death_discards_cards_and_removes_excalibur_and_armor",
               "test_board_turn.py::test_grail_holder_may_let_a_dying_knight_drink",
               "test_board_turn.py::test_grail_rescue_declined_kills",
               "test_board_dying.py::test_excalibur_won_by_a_dying_knight_goes_to_the_knight_who_lets_him_drink",
               "test_board_dying.py::test_excalibur_won_by_a_dying_knight_holding_the_grail_is_his_when_he_drinks",
               "test_board_dying.py::test_excalibur_won_by_a_dying_knight_nobody_saves_leaves_the_game",
               "test_board_examples.py::test_a_dead_traitor_does_not_flip_swords",
               "test_board_face_down.py::test_a_dead_knights_hand_and_a_traitors_random_discard_are_not_named_to_the_table"],
    "B-LEAVE": ["test_board_turn.py::test_leaving_is_dying_at_once",
                "test_board_turn.py::test_leaving_during_a_window_counts_as_passing",
                "test_board_turn.py::test_leaving_mid_turn_lets_the_next_knight_play",
                "test_board_turn.py::test_leaving_while_asked_for_a_card_drops_the_question",
                "test_board_properties.py::test_random_games_with_players_leaving_and_joining"],
    "B-BLACK": ["test_board_black.py::test_three_merlins_from_several_players_cancel_a_special_card",
                "test_board_black.py::test_two_merlins_do_not_cancel_and_stay_in_hand",
                "test_board_black.py::test_standard_black_cards_cannot_be_cancelled_by_merlins",
                "test_board_black.py::test_excalibur_cancels_any_black_card_and_leaves_the_game",
                "test_board_black.py::test_face_down_black_knight_hides_value_and_compensates_with_a_white_card",
                "test_board_black.py::test_a_drawn_black_knight_card_is_seen_only_by_its_drawer_until_placed",
                "test_board_black.py::test_black_card_of_a_finished_quest_adds_a_siege_engine",
                "test_board_black.py::test_lancelot_cards_go_to_the_dragon_after_lancelot",
                "test_board_black.py::test_mercenaries_go_to_the_war_of_the_drawers_choice",
                "test_board_black.py::test_last_evil_spot_ends_the_quest_at_once",
                "test_board_black.py::test_both_decks_are_rebuilt_when_one_runs_out",
                "test_board_black.py::test_desolation_discards_the_farthest_grail_card_then_lands_as_despair",
                "test_board_black.py::test_dark_forest_blocks_grail_cards_until_another_quest_is_won",
                "test_board_black.py::test_guinevere_sends_everyone_home_and_ends_the_turn",
                "test_board_black.py::test_mists_of_avalon_add_a_black_sword_to_every_lost_quest",
                "test_board_black.py::test_mordred_asks_for_an_extra_five_on_his_war",
                "test_board_black.py::test_morgan_volunteer_spares_the_others_a_discard",
                "test_board_black.py::test_morgan_without_volunteer_everyone_with_cards_discards_one",
                "test_board_black.py::test_morgan_three_black_cards_cannot_be_cancelled_by_merlins",
                "test_board_black.py::test_vivien_blocks_the_merlin_cancel",
                "test_board_examples.py::test_merlin_faq_on_the_grail_with_despair_and_desolation"],
    "B-QUEST": ["test_board_quests.py::test_solo_quest_takes_one_knight_at_a_time",
                "test_board_quests.py::test_leaving_a_solo_quest_discards_its_white_cards_but_not_black",
                "test_board_quests.py::test_fight_cards_must_keep_the_pattern_completable",
                "test_board_quests.py::test_black_knight_won_gives_life_three_cards_and_a_white_sword",
                "test_board_quests.py::test_fight_ties_go_to_evil",
                "test_board_quests.py::test_lancelot_won_gives_the_armor_and_flips_to_the_dragon",
                "test_board_quests.py::test_dragon_won_shares_seven_cards_by_agreement",
                "test_board_quests.py::test_excalibur_track_moves_with_discards_and_black_cards",
                "test_board_quests.py::test_grail_cards_fill_from_the_relic_and_cleanse_a_full_quest",
                "test_board_quests.py::"
                "test_a_despair_drawn_onto_a_full_grail_quest_is_not_placed_it_removes_the_farthest_grail_card",
                "test_board_quests.py::test_wars_need_an_ascending_run_from_one",
                "test_board_quests.py::test_quest_lost_with_nobody_present_still_gives_swords_and_engines",
                "test_board_quests.py::test_heroism_adds_a_sword_of_the_results_colour",
                "test_board_white_cards.py::"
                "test_after_a_lady_of_the_lake_win_without_agreement_her_player_chooses_who_is_dealt_first",
                "test_board_white_cards.py::test_a_refused_split_without_the_lady_is_dealt_from_the_proposer_at_once",
                "test_board_white_cards.py::"
                "test_the_ladys_knight_unmasking_as_the_traitor_before_naming_the_first_leaves_the_deal_to_chance",
                "test_board_examples.py::test_lancelot_fight_fourteen_against_eleven_with_four_face_down_cards"],
    "B-CAMELOT": ["test_board_quests.py::test_round_table_draws_two_only_below_twelve_cards",
                  "test_board_quests.py::test_siege_fight_beats_the_die_to_remove_an_engine",
                  "test_board_quests.py::test_siege_win_is_not_a_quest_win_for_vivien"],
    "B-KNIGHT": ["test_board_knights.py::test_arthur_exchange_is_forced_and_blind",
                 "test_board_knights.py::test_galahad_plays_a_special_card_for_free",
                 "test_board_knights.py::test_galahads_free_special_card_is_optional_he_may_play_it_as_his_heroic_action",
                 "test_board_knights.py::test_galahad_may_use_his_free_card_after_his_heroic_action",
                 "test_board_knights.py::test_gawain_draws_three_at_the_round_table",
                 "test_board_knights.py::test_kay_adds_a_card_after_the_reveal_even_out_of_turn",
                 "test_board_knights.py::test_kay_in_his_own_siege_after_the_roll",
                 "test_board_knights.py::test_palamedes_is_capped_at_six",
                 "test_board_knights.py::test_percival_looks_at_the_top_black_card_before_choosing",
                 "test_board_knights.py::test_percival_with_the_armor_looks_at_two_and_buries_one",
                 "test_board_knights.py::test_tristan_leaves_the_round_table_for_free_once",
                 "test_board_examples.py::test_arthur_forced_exchange_both_cards_chosen_blind",
                 *(f"test_board_armor.py::{name}" for name in (
                     "test_any_holder_of_the_armor_draws_two_black_cards_keeps_one_and_puts_the_other_under_the_deck",
                     "test_the_kept_card_is_resolved_as_drawn_a_special_card_opens_the_merlin_window",
                     "test_a_kept_black_knight_card_stays_hidden_from_the_others_until_placed",
                     "test_a_revealed_traitor_keeps_the_armor_and_its_power",
                     "test_percival_who_used_the_armor_for_his_look_then_draws_the_card_he_left_on_top",
                     "test_morgans_chain_of_three_black_cards_is_not_drawn_with_the_armor"))],
    "B-TRAITOR": ["test_board_traitor.py::test_accusations_wait_for_six_swords_or_engines",
                  "test_board_traitor.py::test_false_accusation_flips_a_white_sword_and_clears_the_accused",
                  "test_board_traitor.py::test_unmasked_traitor_loses_his_cards_and_relics_and_adds_a_white_sword",
                  "test_board_traitor.py::test_revealed_traitor_turn_discards_a_random_card_then_feeds_evil",
                  "test_board_traitor.py::test_revealed_traitor_gets_nothing_from_fate_or_reinforcements",
                  "test_board_traitor.py::test_fate_lets_the_traitor_reveal_himself_and_everyone_discards_two",
                  "test_board_traitor.py::test_fate_unmasking_is_free_at_any_moment_of_the_traitors_turn",
                  *(f"test_board_traitor.py::test_fate_unmasking_{name}" for name in (
                      "is_refused_in_another_knights_turn",
                      "while_others_decide_in_his_own_turn_lets_them_go_on_without_him",
                      "during_his_own_quest_discards_the_cards_he_played_there",
                      "is_refused_to_a_loyal_knight_a_traitor_without_fate_and_a_revealed_traitor",
                      "mid_split_hands_the_proposal_to_the_next_knight",
                      "by_arthur_while_he_waits_for_a_card_cancels_the_exchange",
                      "withdraws_his_morgan_volunteering_and_ends_his_own_pending_discard",
                      "in_his_own_excalibur_window_takes_excalibur_out_of_the_game",
                      "during_his_own_convocation_lets_the_others_answer_it",
                      "is_refused_during_the_opening_gesture_nobodys_turn")),
                  "test_board_properties.py::test_a_traitor_unmasking_at_any_moment_of_his_turn_breaks_nothing",
                  "test_board_traitor.py::test_alive_hidden_traitor_flips_two_white_swords_at_the_end"],
    "B-END": ["test_board_turn.py::test_twelfth_siege_engine_loses_at_once",
              "test_board_turn.py::test_a_game_ending_while_a_decision_holds_cards_keeps_every_card_counted",
              "test_board_dying.py::test_the_last_loyal_knight_sacrificing_his_last_life_for_the_twelfth_sword_loses",
              "test_board_dying.py::test_a_lost_war_that_kills_the_last_loyal_knight_and_lays_the_twelfth_sword_loses",
              "test_board_dying.py::test_a_knight_the_grail_saves_as_the_twelfth_sword_lands_lives_to_count_the_swords",
              "test_board_turn.py::test_seventh_black_sword_loses_at_once",
              "test_board_turn.py::test_all_loyal_dead_loses_even_with_white_swords",
              "test_board_turn.py::test_twelfth_sword_ends_the_game_and_the_majority_wins",
              "test_board_examples.py::test_twelfth_siege_engine_beats_a_twelfth_white_majority_sword",
              "test_board_examples.py::test_four_white_seven_black_then_heroism_is_too_late"],
    "B-VAR": ["test_board_traitor.py::test_no_traitor_variant_shows_loyalty_to_all",
              "test_board_traitor.py::test_traitor_among_us_always_has_n_loyal_and_one_traitor_card",
              "test_board_traitor.py::test_three_player_rule_hides_own_loyalty_until_six_swords_or_engines",
              "test_board_traitor.py::test_three_player_rule_czech_reading_waits_for_six_swords_only",
              "test_board_traitor.py::test_squires_have_no_power_and_the_winner_is_knighted",
              "test_board_traitor.py::test_harder_squires_start_with_less",
              "test_board_traitor.py::test_joining_mid_game_takes_a_free_knight_left_of_arthur",
              "test_board_traitor.py::test_join_refused_when_the_table_is_full",
              "test_board_quests.py::test_wars_in_any_order_variant"],
    "B-TALK": ["test_board_traitor.py::test_table_talk_is_etiquette_public_view_never_names_hidden_cards"],
}


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_mapped_test_exists() -> None:
    for rule, names in RULE_TESTS.items():
        assert names, rule
        for name in names:
            file, test = name.split("::")
            assert test in _test_names(HERE / file), f"{rule}: {name} does not exist"


def test_every_rule_id_of_the_digest_has_scenario_tests() -> None:
    if not DIGEST.exists():
        pytest.skip(f"the rules digest is not beside the repository ({DIGEST}); the mapping is checked without it")
    ids = set(re.findall(r"\bB-[A-Z]+\b", DIGEST.read_text()))
    assert ids, "no rule ids found in the digest"
    assert ids <= set(RULE_TESTS), f"rule ids without tests: {sorted(ids - set(RULE_TESTS))}"
