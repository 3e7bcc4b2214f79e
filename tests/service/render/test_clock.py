"""Time left in words, in each language's plural forms ("⏳ 21 h left", "2 dny")."""

from __future__ import annotations

import pytest

from service.render.clock import left_words, time_left


@pytest.mark.parametrize(
    ("seconds", "lang", "words"),
    [
        (30, "en", "1 min"),
        (25 * 60, "en", "25 min"),
        (21 * 3600 + 600, "en", "21 h"),
        (47 * 3600, "en", "47 h"),
        (3 * 86400, "en", "3 days"),
        (2 * 86400, "cs", "2 dny"),
        (5 * 86400, "cs", "5 dní"),
        (5 * 86400, "pl", "5 dni"),
    ],
)
def test_a_duration_reads_as_a_phone_shows_it(seconds: float, lang: str, words: str) -> None:
    assert left_words(lang, seconds) == words


def test_the_clock_line_in_english_and_italian() -> None:
    assert time_left("en", 21 * 3600) == "⏳ 21 h left"
    assert time_left("it", 90) == "⏳ restano 2 min"
