"""What the rating commands say (`service.render.ratings`): the mean with its uncertainty, provisional rows,
the leaderboard, a person's history and the help, in the chat's language."""

from __future__ import annotations

from dataclasses import astuple
from datetime import UTC, datetime

import pytest

from service.ratings import PROVISIONAL_GAMES, Change, Played, Standing
from service.ratings.model import MU, Belief
from service.ratings.shown import population, shown
from service.render import ratings as texts
from service.render.i18n import available_languages

NEWCOMER = Standing(1, "Nia", *astuple(shown(Belief(), population([]))), 0, 0)  # as a newcomer is shown
VETERAN = Standing(2, "Vera", 27.46, 2.04, 12, 8)


def test_a_newcomer_reads_the_starting_mean_with_its_uncertainty_never_a_negative_number():
    assert texts.own_text("en", {"board": NEWCOMER}).splitlines()[1] == (
        "Shadows over Camelot (board game): 25.0 ±4.8 · 0 won of 0 · provisional"
    )
    first_game = [Change(1, "Nia", False, MU, 22.1)]
    assert texts.changes_text("en", "cards", first_game).splitlines()[1] == "Nia: 22.1 (−2.9)"


def test_standings_show_the_established_first_and_mark_the_provisional_in_the_chats_language():
    table = texts.standings_text("cs", {"board": [VETERAN, NEWCOMER], "cards": []})
    assert table.splitlines() == [
        "🏅 Hodnocení · Stíny nad Kamelotem (desková hra)",
        "1. Vera: 27,5 ±2,0 · 8 vyhraných z 12",
        "2. Nia: 25,0 ±4,8 · 0 vyhraných z 0 · předběžné",
    ]
    assert texts.standings_text("en", {"board": [], "cards": []}).startswith("No rated games yet.")


def test_the_leaderboard_and_its_empty_form():
    assert texts.leaderboard_text("en", "board", [VETERAN], PROVISIONAL_GAMES).splitlines() == [
        "🏆 Leaderboard · Shadows over Camelot (board game)", "1. Vera: 27.5 ±2.0 · 8 won of 12"
    ]
    assert texts.leaderboard_text("pl", "cards", [], PROVISIONAL_GAMES) == (
        f"Cienie nad Camelotem: gra karciana: w tabeli liderów nikogo jeszcze nie ma; trafiają do niej gracze z co "
        f"najmniej {PROVISIONAL_GAMES} ocenianymi grami."
    )


def test_a_persons_history_the_latest_first():
    played = [
        Played(9, "cards", datetime(2026, 11, 24, 20, 0, tzinfo=UTC), "evil", True, 24.04, 27.26),
        Played(7, "board", datetime(2026, 11, 2, 20, 0, tzinfo=UTC), "loyal", False, 25.0, 24.0),
    ]
    assert texts.history_text("en", played).splitlines() == [
        "🏅 Your last rated games",
        "Nov 24, 2026 · card game · Traitor, won: 24.0 → 27.3 (+3.2)",
        "Nov 2, 2026 · board game · Loyal, lost: 25.0 → 24.0 (−1.0)",
    ]
    assert texts.history_text("it", played).splitlines()[1] == (
        "24 nov 2026 · gioco di carte · Traditore, vinta: 24,0 → 27,3 (+3,2)"
    )
    assert texts.history_text("nl", []) == "Je hebt nog geen gewaardeerde spellen."


def test_a_change_that_rounds_to_nothing_has_no_minus_sign():
    assert texts.changes_text("en", "board", [Change(1, "Ann", False, 25.0, 24.97)]).endswith("Ann: 25.0 (+0.0)")


@pytest.mark.parametrize("lang", sorted(available_languages()))
def test_the_help_says_what_the_number_is_and_when_it_stops_being_provisional(lang):
    text = texts.help_text(lang, PROVISIONAL_GAMES)
    assert "25" in text and f" {PROVISIONAL_GAMES} " in text and "/ratings" in text and "±" in text
    if lang != "en":
        assert text != texts.help_text("en", PROVISIONAL_GAMES)
